#!/usr/bin/env python3
"""Checks that the frontend's padding_id changes no sum: the padding token's
positions are masked from every path to the loss (attention over the source
masks them, the causal mask hides a target's trailing padding from its real
tokens, the loss ignores them), so the gradient they would add to the
embedding table is zero and tc.embedding_grad may skip them.

The description's training step as tc-compile emits it, and the same IR with
every padding_id removed, run by tc-interpret for two steps from the same
state on batches padded as tc-run pads them (dropout on): the losses and
every parameter and Adam moment must be equal (np.array_equal: +0 and -0
alike). A control batch with padding inside a target sentence, which tc-run
never makes, must differ: there the skipped positions do reach the loss.

    padding_check.py DESCRIPTION --work DIR
"""
import argparse
import os
import re
import sys

import numpy as np

from model_state import TrainStep, first_bucket

STEPS = 2


def without_padding_id(step, work):
    """A copy of `step` whose IR has no padding_id."""
    text = open(step.mlir).read()
    stripped, count = re.subn(r" \{padding_id = \d+ : i64\}", "", text)
    if count == 0 or "padding_id" in stripped:
        sys.exit(f"expected padding_id attributes to remove in {step.mlir}, "
                 f"removed {count}")
    os.makedirs(work, exist_ok=True)
    copy = TrainStep.__new__(TrainStep)
    copy.__dict__.update(step.__dict__)
    copy.work = work
    copy.mlir = os.path.join(work, "model.mlir")
    open(copy.mlir, "w").write(stripped)
    return copy, count


def padded(rng, rows, length, lengths, vocab, pad):
    """Sentences of the given lengths, then padding."""
    ids = np.full((rows, length), pad, np.int32)
    for r, n in enumerate(lengths):
        ids[r, :n] = rng.integers(3, vocab, n)
    return ids


def run_steps(skip, keep, function, state, batches):
    """Losses and final states of both IRs over the batches."""
    state_skip = state_keep = state
    losses = []
    for step, batch in enumerate(batches, start=1):
        rng_state = np.array([99, step], np.int64)
        state_skip, loss_s, _, _ = skip.step(function, state_skip, batch, rng_state)
        state_keep, loss_k, _, _ = keep.step(function, state_keep, batch, rng_state)
        losses.append((loss_s, loss_k))
    return losses, state_skip, state_keep


def differing(state_a, state_b):
    return [n for n in state_a if not np.array_equal(state_a[n], state_b[n])]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("description")
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    config, (B, S, T), function = first_bucket(args.description)
    V = config["model"]["vocab_size"]
    pad = config["model"].get("pad_id", 0)

    skip = TrainStep(args.description, os.path.join(args.work, "skip"))
    keep, removed = without_padding_id(skip, os.path.join(args.work, "keep"))
    print(f"removed {removed} padding_id attributes")
    state = skip.initial_state(seed=5)
    rng = np.random.default_rng(5)

    # As tc-run pads: each sentence, then padding (the target's input is
    # BOS and the sentence, its output the sentence and EOS).
    # The last step's last row is all padding (with more than one row), as
    # tc-run fills a batch that has fewer pairs than rows.
    batches = []
    for step in range(STEPS):
        src = padded(rng, B, S, [max(1, S - 1 - r * 2) for r in range(B)], V, pad)
        tgt = padded(rng, B, T + 1, [max(2, T - r * 2) for r in range(B)], V, pad)
        if step == STEPS - 1 and B > 1:
            src[-1, :] = pad
            tgt[-1, :] = pad
        batches.append((src, tgt[:, :-1].copy(), tgt[:, 1:].copy()))
    losses, a, b = run_steps(skip, keep, function, state, batches)
    failures = [f"step {i + 1}: loss {s!r} against {k!r}"
                for i, (s, k) in enumerate(losses) if s != k]
    failures += [f"{n} differs" for n in differing(a, b)]
    if failures:
        print("FAIL: padding_id changed the step:\n  " + "\n  ".join(failures[:10]))
        return 1
    print(f"padded batches: the same losses and {len(a)} arrays after {STEPS} steps")

    # The control: padding inside a target sentence feeds the loss.
    src, tgt_in, tgt_out = batches[0]
    tgt_in = tgt_in.copy()
    tgt_in[0, 1] = pad
    tgt_out = tgt_out.copy()
    tgt_out[0, 1] = 3
    _, a, b = run_steps(skip, keep, function, state, [(src, tgt_in, tgt_out)])
    changed = differing(a, b)
    if not any("embedding" in n for n in changed):
        print("FAIL: padding inside a sentence made no difference: the check "
              "cannot tell")
        return 1
    print("padding inside a sentence: the embedding differs, as it must")
    return 0


if __name__ == "__main__":
    sys.exit(main())
