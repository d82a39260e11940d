#!/usr/bin/python3
"""Draws a training run's curves from its metrics file (tc-run train
--metrics) into a PNG: the training and validation loss, the validation BLEU
and chrF, and the learning rate against steps, and the validation BLEU
against wall time.

    scripts/plot-training.py METRICS.jsonl -o CURVES.png [--title TEXT]

Needs Debian's python3-matplotlib (scripts/install-deps.sh installs it).
"""
import argparse
import json
import sys

import matplotlib

matplotlib.use("Agg")  # no display: write the file only
import matplotlib.pyplot as plt  # noqa: E402


def read_metrics(path):
    """The step lines and the validation lines of a metrics file."""
    steps, validations = [], []
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            try:
                record = json.loads(line)
            except json.JSONDecodeError as e:
                sys.exit(f"{path}:{number}: not a JSON line ({e}); is it a "
                         "tc-run --metrics file?")
            if "valid_loss" in record:
                validations.append(record)
            elif "loss" in record:
                steps.append(record)
    if not steps:
        sys.exit(f"{path}: no training steps in it")
    return steps, validations


def smoothed(values, window):
    """The running mean of the last `window` values."""
    out, total = [], 0.0
    for i, value in enumerate(values):
        total += value
        if i >= window:
            total -= values[i - window]
        out.append(total / min(i + 1, window))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("metrics")
    parser.add_argument("-o", "--output", required=True, help="the PNG to write")
    parser.add_argument("--title", default="")
    args = parser.parse_args()
    steps, validations = read_metrics(args.metrics)

    step = [r["step"] for r in steps]
    figure, axes = plt.subplots(2, 2, figsize=(12, 8))
    loss = axes[0][0]
    window = max(1, len(steps) // 100)
    loss.plot(step, smoothed([r["loss"] for r in steps], window),
              label=f"training (label-smoothed, mean of {window} steps)")
    if validations:
        loss.plot([v["step"] for v in validations],
                  [v["valid_loss"] for v in validations], "o-",
                  label="validation (negative log-likelihood)")
    loss.set(xlabel="step", ylabel="loss per target token", title="loss")
    loss.legend()

    scores = axes[0][1]
    translated = [v for v in validations if "valid_bleu" in v]
    if translated:
        scores.plot([v["step"] for v in translated],
                    [v["valid_bleu"] for v in translated], "o-", label="BLEU")
        scores.plot([v["step"] for v in translated],
                    [v["valid_chrf"] for v in translated], "s-", label="chrF")
        scores.legend()
    scores.set(xlabel="step", ylabel="score", title="validation, greedy decoding")

    rate = axes[1][0]
    rate.plot(step, [r["learning_rate"] for r in steps])
    rate.set(xlabel="step", ylabel="learning rate", title="learning rate")

    wall = axes[1][1]
    if translated:
        wall.plot([v["elapsed_seconds"] / 60 for v in translated],
                  [v["valid_bleu"] for v in translated], "o-")
    wall.set(xlabel="wall time (minutes)", ylabel="BLEU",
             title="validation BLEU against wall time")

    for axis in (loss, scores, rate, wall):
        axis.grid(alpha=0.3)
    if args.title:
        figure.suptitle(args.title)
    figure.tight_layout()
    figure.savefig(args.output, dpi=100)
    print(f"plot-training: wrote {args.output}")


if __name__ == "__main__":
    main()
