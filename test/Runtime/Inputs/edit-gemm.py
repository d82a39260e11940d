#!/usr/bin/env python3
"""Rewrites fields of the first GEMM step of a .tcx executable (or of every
one, --every), as a hand edit would, and rewraps it in its header with a new
checksum (runtime/format/TcxFile.h: magic, version, payload size, FNV-1a 64
of the payload). flatc turns the flatbuffer into JSON and back (tcx.fbs).

    edit-gemm.py IN.tcx --schema tcx.fbs --set compute=TF32 -o OUT.tcx
    edit-gemm.py IN.tcx --schema tcx.fbs --set lhs.dtype=BF16 -o OUT.tcx
    edit-gemm.py IN.tcx --schema tcx.fbs --every --bf16-view -o OUT.tcx

--bf16-view makes a GEMM's f32 lhs and rhs bf16 operands without moving a
byte: each becomes a bf16 view of the high halves of its f32 elements (2
bytes further on, strides and leading dimension doubled), which are the f32
values truncated toward zero to bf16. So an f32 executable runs a bf16 x
bf16 -> f32 GEMM on values the test knows.
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


def bf16_view(gemm):
    """lhs and rhs as bf16 views of their f32 elements' high halves."""
    for operand, ld in (("lhs", "lda"), ("rhs", "ldb")):
        buffer = gemm[operand]
        assert buffer.get("dtype", "F32") == "F32", buffer
        buffer["dtype"] = "BF16"
        buffer["offset"] = buffer.get("offset", 0) + 2  # little-endian
        buffer["strides"] = [2 * s for s in buffer.get("strides", [])]
        gemm[ld] *= 2
        key = operand + "_batch_strides"
        gemm[key] = [2 * s for s in gemm.get(key, [])]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tcx")
    parser.add_argument("--schema", required=True)
    parser.add_argument("--set", action="append", default=[],
                        metavar="FIELD=VALUE", help="a field of the Gemm "
                        "table, or of one of its buffers (lhs.dtype)")
    parser.add_argument("--every", action="store_true",
                        help="edit every GEMM, not only the first")
    parser.add_argument("--bf16-view", action="store_true",
                        help="make lhs and rhs bf16 views (see above)")
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
            if args.bf16_view:
                bf16_view(gemm)
        json.dump(executable, open(path, "w"))
        subprocess.run(["flatc", "--binary", "-o", work, args.schema, path],
                       check=True)
        edited = open(os.path.join(work, "executable.tcx"), "rb").read()
    header = b"TCX\0" + struct.pack("<IQQQ", version, len(edited),
                                    fnv1a64(edited), 0)
    open(args.o, "wb").write(header + edited)


if __name__ == "__main__":
    main()
