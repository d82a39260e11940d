"""Rewrites a tc token file in another version of the format
(runtime/format/TokenFile.h), with the same pairs and vocabulary: version 3
(pairs one after another, as tc-run prepare wrote before version 4) or 4
(the ids in one block and an index). For the tests that show both versions
give a run the same batches.

    token-file-version.py IN.tok --version 3|4 -o OUT.tok
"""
import argparse
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "Frontend", "torch"))
from token_file import read_pairs  # noqa: E402


def vocabulary_of(data):
    """The vocabulary bytes of a token file of version 2 to 4."""
    version, = struct.unpack_from("<I", data, 8)
    length, = struct.unpack_from("<Q", data, 24)
    start = {2: 32, 3: 40, 4: 64}[version]
    return data[start:start + length]


def fnv1a(data):
    value = 0xcbf29ce484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001b3) & 0xffffffffffffffff
    return value


def pad(data):
    return data + b"\0" * (-len(data) % 8)


def write(pairs, vocabulary, version):
    head = b"TCTOKENS" + struct.pack("<IIQQQ", version, 0, len(pairs),
                                     len(vocabulary), fnv1a(vocabulary))
    if version == 3:
        body = b"".join(struct.pack(f"<II{len(s) + len(t)}i", len(s), len(t),
                                    *s, *t) for s, t in pairs)
        return head + vocabulary + body
    ids = [i for s, t in pairs for i in s + t]
    sources = {s[-1] if s else -1 for s, _ in pairs}
    end = sources.pop() if len(sources) == 1 else -1
    head += struct.pack("<QiiiI", len(ids), min(ids, default=0),
                        max(ids, default=-1), end, 0)
    index, first = b"", 0
    for s, t in pairs:
        index += struct.pack("<QII", first, len(s), len(t))
        first += len(s) + len(t)
    return (head + pad(vocabulary) + pad(struct.pack(f"<{len(ids)}i", *ids)) +
            index)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("input")
    parser.add_argument("--version", type=int, choices=[3, 4], required=True)
    parser.add_argument("-o", required=True)
    args = parser.parse_args()
    data = open(args.input, "rb").read()
    out = write(read_pairs(args.input), vocabulary_of(data), args.version)
    open(args.o, "wb").write(out)


if __name__ == "__main__":
    main()
