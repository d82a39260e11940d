#!/usr/bin/env python3
"""Trains a copy-task model with the reference interpreter: @train_step
(forward, autodiff backward, Adam, schedule, dropout on) run step by step by
tc-interpret, parameters initialised from their tc.init attributes. Fails
unless the loss per token falls.

    copy_task_training.py DESCRIPTION --work DIR --steps N
"""
import argparse
import sys
import tomllib

import numpy as np

from model_state import TrainStep

PAD, BOS, EOS = 0, 1, 2


def copy_batch(rng, batch, length, vocab):
    """Source: symbols then EOS; target: BOS + symbols, symbols + EOS."""
    src = np.full((batch, length), PAD, np.int32)
    tgt_in = np.full((batch, length), PAD, np.int32)
    tgt_out = np.full((batch, length), PAD, np.int32)
    for b in range(batch):
        n = rng.integers(1, length)
        symbols = rng.integers(3, vocab, n)
        src[b, :n], src[b, n] = symbols, EOS
        tgt_in[b, 0], tgt_in[b, 1:n + 1] = BOS, symbols
        tgt_out[b, :n], tgt_out[b, n] = symbols, EOS
    return src, tgt_in, tgt_out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("description")
    parser.add_argument("--work", required=True)
    parser.add_argument("--steps", type=int, default=40)
    args = parser.parse_args()
    config = tomllib.load(open(args.description, "rb"))
    bucket = config["training"]["buckets"][0]
    B, S, T = bucket["batch"], bucket["source_length"], bucket["target_length"]
    assert S == T, "the copy task needs equal lengths"
    vocab = config["model"]["vocab_size"]

    model = TrainStep(args.description, args.work)
    state = model.initial_state(seed=0)
    rng = np.random.default_rng(0)
    losses = []
    for step in range(1, args.steps + 1):
        batch = copy_batch(rng, B, S, vocab)
        state, loss, tokens, lr = model.step(f"train_step_{B}x{S}x{T}", state, batch,
                                             np.array([1234, step], np.int64))
        losses.append(loss / tokens)
        print(f"step {step}: loss/token {losses[-1]:.4f} learning rate {lr:.2e}")

    first, last = np.mean(losses[:5]), np.mean(losses[-5:])
    print(f"mean loss/token: first 5 steps {first:.4f}, last 5 steps {last:.4f}")
    if not last < 0.8 * first:
        sys.exit(f"error: the loss did not fall by 20%: {first:.4f} -> {last:.4f}")
    print("the loss falls")


if __name__ == "__main__":
    main()
