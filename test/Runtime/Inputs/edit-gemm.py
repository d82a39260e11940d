#!/usr/bin/env python3
"""Rewrites fields of the first GEMM step of a .tcx executable (or of every
one, --every), as a hand edit would, and rewraps it in its header with a new
checksum (runtime/format/TcxFile.h: magic, version, payload size, FNV-1a 64
of the payload). flatc turns the flatbuffer into JSON and back (tcx.fbs).

    edit-gemm.py IN.tcx --schema tcx.fbs --set compute=TF32 -o OUT.tcx
    edit-gemm.py IN.tcx --schema tcx.fbs --set lhs.dtype=BF16 -o OUT.tcx
    edit-gemm.py IN.tcx --schema tcx.fbs --every --set compute=TF32 -o OUT.tcx
"""
import argparse
import json
import os
import struct
import subprocess
import tempfile


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def gemms(executable):
    found = [entry["step"] for function in executable["functions"]
             for entry in function["steps"] if entry["step_type"] == "Gemm"]
    if not found:
        raise SystemExit("the executable has no GEMM")
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tcx")
    parser.add_argument("--schema", required=True)
    parser.add_argument("--set", action="append", default=[],
                        metavar="FIELD=VALUE", help="a field of the Gemm "
                        "table, or of one of its buffers (lhs.dtype)")
    parser.add_argument("--every", action="store_true",
                        help="edit every GEMM, not only the first")
    parser.add_argument("-o", required=True)
    args = parser.parse_args()
    data = open(args.tcx, "rb").read()
    assert data[:4] == b"TCX\0", "not a .tcx"
    version, = struct.unpack_from("<I", data, 4)
    with tempfile.TemporaryDirectory() as work:
        payload = os.path.join(work, "executable.bin")
        open(payload, "wb").write(data[32:])
        subprocess.run(["flatc", "--json", "--strict-json", "--raw-binary",
                        "-o", work, args.schema, "--", payload], check=True)
        path = os.path.join(work, "executable.json")
        executable = json.load(open(path))
        for gemm in gemms(executable)[:None if args.every else 1]:
            for assignment in args.set:
                field, value = assignment.split("=", 1)
                table = gemm
                *outer, name = field.split(".")
                for part in outer:
                    table = table[part]
                table[name] = value
        json.dump(executable, open(path, "w"))
        subprocess.run(["flatc", "--binary", "-o", work, args.schema, path],
                       check=True)
        edited = open(os.path.join(work, "executable.tcx"), "rb").read()
    header = b"TCX\0" + struct.pack("<IQQQ", version, len(edited),
                                    fnv1a64(edited), 0)
    open(args.o, "wb").write(header + edited)


if __name__ == "__main__":
    main()
