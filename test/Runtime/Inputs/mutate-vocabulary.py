#!/usr/bin/env python3
"""Makes damaged and hostile SentencePiece models from a good one, by
editing the protobuf wire format directly (Debian has no python3-protobuf
here): the mutants of issue 29 that libsentencepiece accepted.

    mutate-vocabulary.py extract TOKENFILE -o OUT.model
    mutate-vocabulary.py mutate IN.model MUTATION -o OUT.model
    mutate-vocabulary.py nudge TOKENFILE -o OUT
        (the token file's vocabulary with one score's lowest bit flipped,
        a vocabulary tc could have trained: only a checksum can tell)

MUTATION is one of the names in MUTATIONS below.
"""
import argparse
import math
import random
import struct


def varint(data, at):
    value, shift = 0, 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def encode_varint(value):
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def parse(data):
    """[(number, wire type, value)]: an int for varints, bytes otherwise."""
    fields, at = [], 0
    while at < len(data):
        key, at = varint(data, at)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, at = varint(data, at)
        elif wire == 1:
            value, at = data[at:at + 8], at + 8
        elif wire == 5:
            value, at = data[at:at + 4], at + 4
        elif wire == 2:
            length, at = varint(data, at)
            value, at = data[at:at + length], at + length
        else:
            raise ValueError("wire type %d" % wire)
        fields.append([number, wire, value])
    return fields


def serialize(fields):
    out = bytearray()
    for number, wire, value in fields:
        out += encode_varint(number << 3 | wire)
        if wire == 0:
            out += encode_varint(value)
        elif wire == 2:
            out += encode_varint(len(value)) + value
        else:
            out += value
    return bytes(out)


PIECES, TRAINER, NORMALIZER, SELF_TEST, DENORMALIZER = 1, 2, 3, 4, 5


def edit_message(model, number, edit):
    """Applies `edit` to the fields of the submessage `number` (made when
    absent)."""
    for field in model:
        if field[0] == number:
            inner = parse(field[2])
            edit(inner)
            field[2] = serialize(inner)
            return
    inner = []
    edit(inner)
    model.append([number, 2, serialize(inner)])


def set_field(fields, number, wire, value):
    for field in fields:
        if field[0] == number:
            field[1], field[2] = wire, value
            return
    fields.append([number, wire, value])


def normal_piece(model, nth=10):
    """The `nth` piece field (a normal piece in tc's models)."""
    return [f for f in model if f[0] == PIECES][nth]


def edit_piece(model, edit, nth=10):
    field = normal_piece(model, nth)
    inner = parse(field[2])
    edit(inner)
    field[2] = serialize(inner)


def charsmap_random(model):
    def edit(spec):
        for field in spec:
            if field[0] == 2:
                rng = random.Random(2)  # one whose trie crashed it
                # The trie's size (its first 4 bytes) kept: the blob
                # passes SentencePiece's one check.
                field[2] = field[2][:4] + bytes(
                    rng.randrange(256) for _ in field[2][4:])
    edit_message(model, NORMALIZER, edit)


def float32(value):
    return struct.pack("<f", value)


MUTATIONS = {
    # The normaliser's trie as random bytes: libsentencepiece crashed.
    "charsmap-random": charsmap_random,
    "model-type-99": lambda m: edit_message(
        m, TRAINER, lambda s: set_field(s, 3, 0, 99)),
    "model-type-word": lambda m: edit_message(
        m, TRAINER, lambda s: set_field(s, 3, 0, 3)),
    "score-nan": lambda m: edit_piece(
        m, lambda p: set_field(p, 2, 5, float32(math.nan))),
    "score-nudged": lambda m: edit_piece(m, lambda p: set_field(
        p, 2, 5, bytes([p[1][2][0] ^ 1]) + p[1][2][1:])),
    "score-positive": lambda m: edit_piece(
        m, lambda p: set_field(p, 2, 5, float32(5.0))),
    "long-piece": lambda m: edit_piece(
        m, lambda p: set_field(p, 1, 2, b"a" * 100000)),
    "duplicate-piece": lambda m: edit_piece(
        m, lambda p: set_field(p, 1, 2, parse(normal_piece(m, 11)[2])[0][2])),
    "invalid-utf8-piece": lambda m: edit_piece(
        m, lambda p: set_field(p, 1, 2, b"\xff\xfe")),
    "user-defined-piece": lambda m: edit_piece(
        m, lambda p: set_field(p, 3, 0, 4)),
    "second-unknown": lambda m: edit_piece(
        m, lambda p: set_field(p, 3, 0, 2)),
    "normalizer-nfkc": lambda m: edit_message(
        m, NORMALIZER, lambda s: set_field(s, 1, 2, b"nfkc")),
    "no-dummy-prefix": lambda m: edit_message(
        m, NORMALIZER, lambda s: set_field(s, 3, 0, 0)),
    "rule-tsv": lambda m: edit_message(
        m, NORMALIZER, lambda s: set_field(s, 6, 2, b"41\t61\n")),
    "byte-fallback": lambda m: edit_message(
        m, TRAINER, lambda s: set_field(s, 35, 0, 1)),
    "unk-surface": lambda m: edit_message(
        m, TRAINER, lambda s: set_field(s, 44, 2, b"UNK")),
    "vocab-size": lambda m: edit_message(
        m, TRAINER, lambda s: set_field(s, 4, 0, 199)),
    "bos-id-outside": lambda m: edit_message(
        m, TRAINER, lambda s: set_field(s, 41, 0, 5000)),
    "denormalizer": lambda m: edit_message(
        m, DENORMALIZER, lambda s: set_field(s, 1, 2, b"identity")),
    "self-test": lambda m: edit_message(
        m, SELF_TEST, lambda s: s.append(
            [1, 2, serialize([[1, 2, b"a"], [2, 2, b"b"]])])),
    "unknown-field": lambda m: m.append([17, 0, 1]),
    "twice-trainer": lambda m: m.append(
        [TRAINER, 2, [f for f in m if f[0] == TRAINER][0][2]]),
}


def vocabulary_in_token_file(data):
    """Where a token file's vocabulary starts, and its length."""
    assert data[:8] == b"TCTOKENS", "not a token file"
    version, = struct.unpack_from("<I", data, 8)
    length, = struct.unpack_from("<Q", data, 24)
    return {2: 32, 3: 40, 4: 64}[version], length


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["extract", "mutate", "nudge"])
    parser.add_argument("input")
    parser.add_argument("argument", nargs="?")
    parser.add_argument("-o")
    args = parser.parse_args()
    data = open(args.input, "rb").read()
    if args.command == "extract":
        start, length = vocabulary_in_token_file(data)
        out = data[start:start + length]
    elif args.command == "nudge":
        start, length = vocabulary_in_token_file(data)
        model = parse(data[start:start + length])
        MUTATIONS["score-nudged"](model)
        out = data[:start] + serialize(model) + data[start + length:]
        assert len(out) == len(data)
    else:
        model = parse(data)
        MUTATIONS[args.argument](model)
        out = serialize(model)
    open(args.o, "wb").write(bytes(out))


if __name__ == "__main__":
    main()
