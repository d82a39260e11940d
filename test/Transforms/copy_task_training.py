#!/usr/bin/env python3
"""Trains a copy-task model with the reference interpreter: @train_step
(forward, autodiff backward, Adam, schedule, dropout on) run step by step by
tc-interpret, parameters initialised from their tc.init attributes. Fails
unless the loss per token falls.

    copy_task_training.py DESCRIPTION --work DIR --steps N
"""
import argparse
import json
import os
import subprocess
import sys
import tomllib

import numpy as np

PAD, BOS, EOS = 0, 1, 2


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def initial_value(param, rng):
    """The parameter's initializer, as the runtime will implement it."""
    shape, init = param["shape"], param["init"]
    if init == "#tc.init<zeros>":
        return np.zeros(shape, np.float32)
    if init == "#tc.init<ones>":
        return np.ones(shape, np.float32)
    if init == "#tc.init<xavier_uniform>":  # [out, in]
        bound = np.sqrt(6.0 / (shape[0] + shape[1]))
        return rng.uniform(-bound, bound, shape).astype(np.float32)
    if init.startswith("#tc.init<normal("):
        std = float(init[len("#tc.init<normal("):-2])
        return (rng.standard_normal(shape) * std).astype(np.float32)
    sys.exit(f"unknown initializer {init}")


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

    mlir = os.path.join(args.work, "model.mlir")
    open(mlir, "w").write(run("tc-compile", args.description, "--emit=tc"))
    params = json.loads(run("tc-compile", args.description, "--emit=params"))
    rng = np.random.default_rng(0)
    state = {}
    for p in params:
        state[p["name"]] = initial_value(p, rng)
        state["adam_m." + p["name"]] = np.zeros(p["shape"], np.float32)
        state["adam_v." + p["name"]] = np.zeros(p["shape"], np.float32)

    names = ([p["name"] for p in params] + ["adam_m." + p["name"] for p in params]
             + ["adam_v." + p["name"] for p in params])
    losses = []
    for step in range(1, args.steps + 1):
        step_dir = os.path.join(args.work, "state")
        os.makedirs(step_dir, exist_ok=True)
        for name in names:
            np.save(os.path.join(step_dir, name + ".npy"), state[name])
        batch = copy_batch(rng, B, S, vocab)
        for name, array in zip(("src", "tgt_in", "tgt_out"), batch):
            np.save(os.path.join(args.work, name + ".npy"), array)
        np.save(os.path.join(args.work, "rng.npy"), np.array([1234, step], np.int64))
        out = os.path.join(args.work, "out")
        inputs = [os.path.join(step_dir, n + ".npy") for n in names[len(params):]]
        inputs += [os.path.join(args.work, n + ".npy") for n in ("src", "tgt_in", "tgt_out", "rng")]
        run("tc-interpret", mlir, f"--function=train_step_{B}x{S}x{T}",
            f"--params-dir={step_dir}", *[f"--input={i}" for i in inputs],
            f"--output-dir={out}")
        results = [np.load(os.path.join(out, f"result{i}.npy")) for i in range(len(names) + 3)]
        for name, value in zip(names, results):
            state[name] = value
        loss, tokens, lr = results[len(names):]
        losses.append(float(loss) / int(tokens))
        print(f"step {step}: loss/token {losses[-1]:.4f} learning rate {float(lr):.2e}")

    first, last = np.mean(losses[:5]), np.mean(losses[-5:])
    print(f"mean loss/token: first 5 steps {first:.4f}, last 5 steps {last:.4f}")
    if not last < 0.8 * first:
        sys.exit(f"error: the loss did not fall by 20%: {first:.4f} -> {last:.4f}")
    print("the loss falls")


if __name__ == "__main__":
    main()
