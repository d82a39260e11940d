"""Compares two n-best files of tc-run translate (LINE ||| TRANSLATION |||
SCORE): the same hypotheses in the same order, scores within TOLERANCE.

    compare-nbest.py A.txt B.txt TOLERANCE
"""
import sys

a, b = ([line.rstrip("\n").split(" ||| ") for line in open(path)] for path in sys.argv[1:3])
tolerance = float(sys.argv[3])
assert len(a) == len(b) and a, (len(a), len(b))
for x, y in zip(a, b):
    assert x[:2] == y[:2], (x, y)
    assert abs(float(x[2]) - float(y[2])) <= tolerance, (x, y)
print(f"{len(a)} hypotheses identical, scores within {tolerance}")
