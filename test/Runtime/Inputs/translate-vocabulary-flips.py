#!/usr/bin/env python3
"""Translates with COUNT copies of a run's vocabulary.model, each with one
bit flipped (spread over the whole file), and counts how tc-run translate
took each: refused (exit 2 with an error), crashed, or accepted. Every flip
must be refused: a flipped bit either breaks what a vocabulary must be or
changes its fingerprint, which the checkpoint records.

    translate-vocabulary-flips.py MODEL.tcx CHECKPOINT_DIR INPUT COUNT WORK
"""
import os
import shutil
import subprocess
import sys


def main():
    executable, checkpoints, text, count, work = sys.argv[1:6]
    count = int(count)
    original = open(os.path.join(checkpoints, "vocabulary.model"), "rb").read()
    bits = 8 * len(original)
    outcomes = {"refused": 0, "crashed": 0, "accepted": 0}
    for i in range(count):
        bit = (i * bits) // count + i % 8
        flipped = bytearray(original)
        flipped[bit // 8] ^= 1 << (bit % 8)
        directory = os.path.join(work, "flip-%d" % i)
        shutil.rmtree(directory, ignore_errors=True)
        shutil.copytree(checkpoints, directory)
        with open(os.path.join(directory, "vocabulary.model"), "wb") as f:
            f.write(flipped)
        run = subprocess.run(["tc-run", "translate", executable,
                              "--checkpoint-dir", directory, "--input", text,
                              "--quiet"], capture_output=True, text=True)
        if run.returncode < 0:
            outcome = "crashed"
        elif run.returncode == 2 and "error:" in run.stderr:
            outcome = "refused"
        else:
            outcome = "accepted"
        outcomes[outcome] += 1
        if outcome != "refused":
            print("bit %d: %s (exit %d)" % (bit, outcome, run.returncode))
        shutil.rmtree(directory)
    print("%d flips: %d refused, %d crashed, %d accepted"
          % (count, outcomes["refused"], outcomes["crashed"],
             outcomes["accepted"]))


if __name__ == "__main__":
    main()
