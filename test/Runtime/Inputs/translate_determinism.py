"""A sentence's translation does not depend on the other sentences it is
translated with (issue 17, acceptance 3): N random sentences translated all
at once, each alone, and shuffled into inputs of different sizes must give
byte-identical n-best lists (tokens and scores printed to 9 digits), for
beam search and for greedy decoding; and all of them translated one at a
time (--batch-sentences 1), three at a time, or split among two and three
decoders running at once (--workers) the same.

    translate_determinism.py MODEL.tcx CHECKPOINT_DIR WORK_DIR [--sentences N]
        [--alone N] [--compute-type f32|bf16|int8]
"""

import argparse
import os
import random
import subprocess
import sys


def translate(model, checkpoint_dir, lines, work, name, beam, compute_type,
              extra=()):
    source = os.path.join(work, name + ".src")
    with open(source, "w") as f:
        f.writelines(line + "\n" for line in lines)
    args = ["tc-run", "translate", model, "--checkpoint-dir", checkpoint_dir,
            "--ids", "--input", source, "--beam", str(beam), "--quiet",
            "--compute-type", compute_type, *extra]
    if beam > 1:
        args += ["--n-best", "2"]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    if beam == 1:  # one output line per input line
        return [[row] for row in out.splitlines()]
    # Per input line, its n-best lines without the line number.
    per_line = [[] for _ in lines]
    for row in out.splitlines():
        index, rest = row.split(" ||| ", 1)
        per_line[int(index)].append(rest)
    return per_line


# Scores printed to 9 digits, of a few tokens' log-probabilities: f32
# sums in another order move them by a few ulp of each term.
SCORE_TOLERANCE = 1e-5


def equal(a, b):
    return a == b


def near(a, b):
    """The same hypotheses (tokens, in order), scores within SCORE_TOLERANCE."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if " ||| " not in x:  # greedy: tokens only
            if x != y:
                return False
            continue
        tokens_x, _, score_x = x.rpartition(" ||| ")
        tokens_y, _, score_y = y.rpartition(" ||| ")
        if tokens_x != tokens_y or (score_x != score_y and abs(
                float(score_x) - float(score_y)) > SCORE_TOLERANCE):
            return False
    return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("checkpoint_dir")
    parser.add_argument("work")
    parser.add_argument("--sentences", type=int, default=100)
    parser.add_argument("--alone", type=int, default=100,
                        help="how many of them to translate one by one")
    parser.add_argument("--compute-type", default="f32")
    args = parser.parse_args()
    rng = random.Random(17)
    # The copy task's symbols: ids 3..15 (after padding, BOS and EOS).
    lines = [" ".join(str(rng.randint(3, 15)) for _ in range(rng.randint(1, 11)))
             for _ in range(args.sentences)]
    for beam in (4, 1):
        together = translate(args.model, args.checkpoint_dir, lines, args.work,
                             f"all-{beam}", beam, args.compute_type)
        failures = []
        for i in range(min(args.alone, len(lines))):
            alone = translate(args.model, args.checkpoint_dir, [lines[i]],
                              args.work, f"alone-{beam}", beam,
                              args.compute_type)[0]
            if alone != together[i]:
                failures.append(f"sentence {i} alone: {alone} != {together[i]}")
        order = list(range(len(lines)))
        rng.shuffle(order)
        sizes, start, k = [1, 3, 7, 13, 26, 50], 0, 0
        while start < len(order):
            size = sizes[k % len(sizes)]
            k += 1
            chunk = order[start:start + size]
            got = translate(args.model, args.checkpoint_dir,
                            [lines[i] for i in chunk], args.work,
                            f"chunk-{beam}", beam, args.compute_type)
            for i, out in zip(chunk, got):
                if out != together[i]:
                    failures.append(f"sentence {i} in a shuffled input of "
                                    f"{len(chunk)}: {out} != {together[i]}")
            start += size
        for flag, value in (("--batch-sentences", 1), ("--batch-sentences", 3),
                            ("--workers", 2), ("--workers", 3)):
            got = translate(args.model, args.checkpoint_dir, lines, args.work,
                            f"batch-{beam}", beam, args.compute_type,
                            (flag, str(value)))
            # One at a time runs the step of one sentence's rows: the same
            # tokens, scores within SCORE_TOLERANCE (a GEMM library may sum
            # 4 rows in another order than 64; on the CPUs tried, exact).
            same = near if (flag, value) == ("--batch-sentences", 1) else equal
            failures += [f"sentence {i} with {flag} {value}: "
                         f"{out} != {together[i]}"
                         for i, out in enumerate(got) if not same(out, together[i])]
        if failures:
            print("\n".join(failures))
            sys.exit(1)
        print(f"beam {beam}: {len(lines)} sentences identical together, "
              f"alone ({min(args.alone, len(lines))}), shuffled, with "
              f"--batch-sentences 1 and 3 and with --workers 2 and 3")


if __name__ == "__main__":
    main()
