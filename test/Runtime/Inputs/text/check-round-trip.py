"""Checks that a token file's pairs, decoded (tc-inspect --text), are the
source and target lines as SentencePiece's nmt_nfkc rule normalises them:
Unicode NFKC, runs of whitespace squeezed to one space, no space at either
end. Computed here with Python's unicodedata, independently of SentencePiece.

    check-round-trip.py SOURCE TARGET DECODED
"""
import sys
import unicodedata


def normalised(line):
    return " ".join(unicodedata.normalize("NFKC", line).split())


sources = open(sys.argv[1], encoding="utf-8").read().splitlines()
targets = open(sys.argv[2], encoding="utf-8").read().splitlines()
decoded = open(sys.argv[3], encoding="utf-8").read().splitlines()
assert len(decoded) == len(sources) == len(targets), (
    len(decoded), len(sources), len(targets))
differ = 0
for number, (source, target, pair) in enumerate(zip(sources, targets, decoded), 1):
    expected = normalised(source) + "\t" + normalised(target)
    if pair != expected:
        differ += 1
        if differ <= 3:
            print(f"line {number}: decoded {pair!r}\n  expected {expected!r}")
if differ:
    sys.exit(f"{differ} of {len(decoded)} pairs do not decode to their text")
print(f"{len(decoded)} pairs decode to their normalised text")
