#!/usr/bin/env python3
"""Checks that fusion changes nothing but speed: the same description compiled
with --fusion=none and with the fusions under test, two @train_step steps from
the same initial state on the same batches (dropout on), run by tc-interpret.

    fusion_check.py DESCRIPTION --fusion LIST --work DIR
"""
import argparse
import os
import sys

import numpy as np

from model_state import TrainStep, first_bucket

# Fused ops compute in double and round once where the unfused graph rounds
# after every op: losses agree to ~1e-7 relative, parameters after two Adam
# steps (moves of ~lr = 1e-2) to ~1e-7. Tolerances: loss 1e-5 relative,
# parameters 1e-5 absolute.
LOSS_RTOL = 1e-5
PARAM_ATOL = 1e-5
STEPS = 2


def zero_gradient(name):
    """Attention key biases have an exactly zero gradient; Adam turns its f32
    rounding noise into +-lr moves that differ between any two roundings (see
    docs/autodiff.md), so they are compared before Adam only: their moments
    must be noise-sized in both."""
    return name.endswith(".k.bias")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("description")
    parser.add_argument("--fusion", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    config, (B, S, T), function = first_bucket(args.description)
    V = config["model"]["vocab_size"]

    plain = TrainStep(args.description, os.path.join(args.work, "none"), "--fusion=none")
    fused = TrainStep(args.description, os.path.join(args.work, "fused"),
                      f"--fusion={args.fusion}")
    state_plain = state_fused = plain.initial_state(seed=3)
    rng = np.random.default_rng(3)
    failures = []
    for step in range(1, STEPS + 1):
        src = rng.integers(3, V, (B, S)).astype(np.int32)
        tgt = rng.integers(3, V, (B, T + 1)).astype(np.int32)
        src[-1, -2:] = 0
        tgt[-1, -2:] = 0
        batch = (src, tgt[:, :-1].copy(), tgt[:, 1:].copy())
        rng_state = np.array([99, step], np.int64)
        state_plain, loss_p, tokens_p, _ = plain.step(function, state_plain, batch, rng_state)
        state_fused, loss_f, tokens_f, _ = fused.step(function, state_fused, batch, rng_state)
        rel = abs(loss_f - loss_p) / abs(loss_p)
        print(f"step {step}: loss unfused {loss_p:.7f} fused {loss_f:.7f} (relative {rel:.1e}); "
              f"tokens {tokens_p} {tokens_f}")
        if rel > LOSS_RTOL or tokens_p != tokens_f:
            failures.append(f"step {step}: losses or token counts differ")

    worst = ("", 0.0)
    for name in plain.names:
        if zero_gradient(name.split("adam_m.")[-1].split("adam_v.")[-1]):
            if name.startswith("adam_m.") and np.abs(state_fused[name]).max() > 1e-6:
                failures.append(f"{name}: not noise-sized")
            continue
        err = np.abs(state_fused[name] - state_plain[name]).max()
        if err > worst[1]:
            worst = (name, err)
        if not name.startswith("adam_") and err > PARAM_ATOL:
            failures.append(f"{name}: max abs difference {err:.2e}")
    print(f"after {STEPS} steps: largest difference {worst[1]:.2e} at {worst[0]}")
    if failures:
        sys.exit("error: " + "\nerror: ".join(failures[:20]))
    print(f"--fusion={args.fusion} matches --fusion=none")


if __name__ == "__main__":
    main()
