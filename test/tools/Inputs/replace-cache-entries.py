"""Replaces every cache entry with SUFFIX in DIR by MARKER, with a valid
checksum sidecar (FNV-1a 64, as compiler/export/KernelCache.cpp writes), or
(with --damage) appends a byte without fixing the sidecar."""
import pathlib
import sys

directory, suffix, marker = sys.argv[1], sys.argv[2], sys.argv[3].encode()
for entry in sorted(pathlib.Path(directory).glob("*" + suffix)):
    if "--damage" in sys.argv:
        entry.write_bytes(entry.read_bytes() + b"x")
        continue
    entry.write_bytes(marker)
    h = 0xCBF29CE484222325
    for byte in marker:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    pathlib.Path(str(entry) + ".sum").write_text("%016x" % h)
    print("replaced", entry.name.split(".", 1)[1])
