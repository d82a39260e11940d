"""Compares two n-best files of tc-run translate (LINE ||| TRANSLATION |||
SCORE): the same hypotheses in the same order, scores within TOLERANCE.

    compare-nbest.py A.txt B.txt TOLERANCE [--near-ties]

With --near-ties (two devices whose bf16 roundings differ), a hypothesis
after a sentence's best may differ between the files where the two
hypotheses at that place score within TOLERANCE of each other (a near-tie
that the noise can reorder); the best of each sentence must still be the
same. The count of such places is printed.
"""
import sys

a, b = ([line.rstrip("\n").split(" ||| ") for line in open(path)] for path in sys.argv[1:3])
tolerance = float(sys.argv[3])
near_ties = "--near-ties" in sys.argv[4:]
assert len(a) == len(b) and a, (len(a), len(b))
swapped, previous = 0, None
for x, y in zip(a, b):
    assert x[0] == y[0], (x, y)
    best = x[0] != previous
    previous = x[0]
    assert abs(float(x[2]) - float(y[2])) <= tolerance, (x, y)
    if x[1] != y[1]:
        assert near_ties and not best, (x, y)
        swapped += 1
if near_ties:
    print(f"{len(a)} hypotheses, the best of each identical, scores within "
          f"{tolerance}; {swapped} near-ties differ")
else:
    print(f"{len(a)} hypotheses identical, scores within {tolerance}")
