#!/usr/bin/env python3
"""Rewrites fields of a checkpoint's header and recomputes its header
checksum, as a deliberate edit would (runtime/train/Checkpoint.cpp: the
88-byte header; the model settings' fingerprint at byte 12, step at byte
16, seed at byte 24, the data's fingerprint at byte 56; version 3 has the
FNV-1a 64 checksum of bytes 0-79 at byte 80, version 2 that of bytes 0-71
at byte 72).

    edit-checkpoint.py IN [--step=N] [--seed=N] [--settings=N] -o OUT
        (--settings=0: as tc wrote it before it recorded the settings)
    edit-checkpoint.py IN --data-description TEXT -o OUT
        (the data fingerprint of TEXT, as tc recorded a token file's before
        it knew one by its pairs: "train.tok (3 pairs, 1 batch)")
    edit-checkpoint.py IN --as-version-2 -o OUT
        (the checkpoint as tc wrote it before the vocabulary's fingerprint)
"""
import argparse
import struct


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("checkpoint")
    parser.add_argument("--step", type=int)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--settings", type=int)
    parser.add_argument("--data-description")
    parser.add_argument("--as-version-2", action="store_true")
    parser.add_argument("-o", required=True)
    args = parser.parse_args()
    data = bytearray(open(args.checkpoint, "rb").read())
    assert data[:6] == b"TCCKPT", "not a checkpoint"
    version, = struct.unpack_from("<I", data, 8)
    assert version == 3, "a version 3 checkpoint"
    if args.step is not None:
        struct.pack_into("<q", data, 16, args.step)
    if args.seed is not None:
        struct.pack_into("<Q", data, 24, args.seed)
    if args.settings is not None:
        struct.pack_into("<I", data, 12, args.settings)
    if args.data_description is not None:
        text = (args.data_description + "\norder 2").encode()
        struct.pack_into("<Q", data, 56, fnv1a64(text))
    if args.as_version_2:
        # Version 3 put the vocabulary's fingerprint at byte 64, before the
        # body's checksum.
        body_checksum = data[72:80]
        struct.pack_into("<I", data, 8, 2)
        struct.pack_into("<I", data, 12, 0)  # reserved then
        data[64:72] = body_checksum
        struct.pack_into("<Q", data, 72, fnv1a64(data[:72]))
        data[80:88] = bytes(8)
    else:
        struct.pack_into("<Q", data, 80, fnv1a64(data[:80]))
    open(args.o, "wb").write(data)


if __name__ == "__main__":
    main()
