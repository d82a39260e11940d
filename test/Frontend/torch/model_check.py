#!/usr/bin/env python3
"""Checks tc's frontend against the PyTorch reference model with the same
weights and dropout off: the loss and token count of @forward, the memory of
@encode and the logits of @decode, all run by tc-interpret.

    model_check.py models/tiny.toml --work DIR
"""
import argparse
import sys

import numpy as np
import torch

from harness import Setup

# The loss is a sum over ~10 tokens of values ~3; the graph is ~300 f32 ops,
# each rounded once: the measured relative error is ~1e-8. The issue asks for
# 1e-5 relative; encode/decode outputs (size ~1) are held to 1e-5 abs + rel.
LOSS_RTOL = 1e-5
TENSOR_RTOL, TENSOR_ATOL = 1e-5, 1e-5


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("description")
    parser.add_argument("--work", required=True)
    parser.add_argument("--fusion", default="all", help="passed to tc-compile")
    args = parser.parse_args()
    s = Setup(args.description, args.work, fusion=args.fusion)
    B, S, T = s.B, s.S, s.T
    np.save(s.path("rng"), np.array([1, 1], np.int64))

    failures = []
    with torch.no_grad():
        src, tgt_in, tgt_out = s.torch_batch()
        want_loss, want_tokens = s.model(src, tgt_in, tgt_out)
        memory = s.model.encode(src)
        logits = s.model.decode(memory, src, tgt_in)

    loss, tokens = s.interpret(f"forward_{B}x{S}x{T}",
                               [s.path(n) for n in ("src", "tgt_in", "tgt_out", "rng")])
    rel = abs(float(loss) - want_loss.item()) / abs(want_loss.item())
    print(f"loss: tc {float(loss):.7f} PyTorch {want_loss.item():.7f} relative error {rel:.2e}; "
          f"tokens: tc {int(tokens)} PyTorch {want_tokens}")
    if rel > LOSS_RTOL:
        failures.append(f"loss differs by {rel:.2e} relative (tolerance {LOSS_RTOL})")
    if int(tokens) != want_tokens:
        failures.append("token counts differ")

    # decode runs on PyTorch's memory (rounded to f32), so that only the
    # decoder is compared.
    np.save(s.path("memory"), memory.float().numpy())
    for what, got, want in [
            ("encode memory", s.interpret(f"encode_{B}x{S}", [s.path("src")])[0], memory.numpy()),
            ("decode logits", s.interpret(f"decode_{B}x{S}x{T}",
                                          [s.path(n) for n in ("memory", "src", "tgt_in")])[0],
             logits.numpy())]:
        err = np.abs(got - want)
        print(f"{what} {list(got.shape)}: max abs error {err.max():.2e}")
        if not np.allclose(got, want, rtol=TENSOR_RTOL, atol=TENSOR_ATOL):
            failures.append(f"{what} differs: max abs error {err.max():.2e}")

    if failures:
        sys.exit("error: " + "\nerror: ".join(failures))
    print("model matches PyTorch")


if __name__ == "__main__":
    main()
