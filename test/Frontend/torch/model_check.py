#!/usr/bin/env python3
"""Checks tc's frontend against the PyTorch reference model with the same
weights and dropout off: the loss and token count of @forward, the memory of
@encode and the logits of @decode, all run by tc-interpret.

    model_check.py models/tiny.toml --work DIR

The description is copied with every dropout set to 0; random weights (larger
than the default initialisation, so that biases and LayerNorm affinities
matter) go to DIR/params/<tc name>.npy; tc-interpret runs the f32 graph and
PyTorch the same model in float64 from the same f32 values.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tomllib

import numpy as np
import torch

from reference_transformer import ReferenceTransformer

# The loss is a sum over ~10 tokens of values ~3; the graph is ~300 f32 ops,
# each rounded once: the measured relative error is ~1e-7. The issue asks for
# 1e-5 relative; encode/decode outputs (size ~1) are held to 1e-5 abs + rel.
LOSS_RTOL = 1e-5
TENSOR_RTOL, TENSOR_ATOL = 1e-5, 1e-5


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("description")
    parser.add_argument("--work", required=True)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    os.makedirs(os.path.join(args.work, "params"), exist_ok=True)

    # The description with dropout off.
    text = open(args.description).read()
    text = re.sub(r"(?m)^(\s*(?:dropout|attention_dropout|relu_dropout)\s*=).*$", r"\1 0.0", text)
    description = os.path.join(args.work, "model.toml")
    open(description, "w").write(text)
    config = tomllib.loads(text)
    m, bucket = config["model"], config["training"]["buckets"][0]
    B, S, T, V = bucket["batch"], bucket["source_length"], bucket["target_length"], m["vocab_size"]
    pad = m.get("pad_id", 0)

    mlir = os.path.join(args.work, "model.mlir")
    open(mlir, "w").write(run("tc-compile", description, "--emit=tc"))
    params = json.loads(run("tc-compile", description, "--emit=params"))

    torch.manual_seed(args.seed)
    model = ReferenceTransformer(V, m["d_model"], m["heads"], m["d_ff"], m["encoder_layers"],
                                 m["decoder_layers"], pad_id=pad,
                                 label_smoothing=m.get("label_smoothing", 0.1),
                                 layer_norm_eps=m.get("layer_norm_epsilon", 1e-5))
    named = model.tc_parameters()
    with torch.no_grad():
        for name, tensor in named.items():
            tensor.copy_(torch.randn(tensor.shape) * 0.3 + (1.0 if name.endswith("norm.weight") else 0.0))
            tensor.copy_(tensor.float())  # exactly the f32 values tc sees
    for p in params:
        np.save(os.path.join(args.work, "params", p["name"] + ".npy"),
                named[p["name"]].detach().float().numpy())
    model = model.double()

    # Token ids: real tokens in [3, V), padding at the end of some sequences.
    rng = np.random.default_rng(args.seed)
    src = rng.integers(3, V, (B, S)).astype(np.int32)
    tgt = rng.integers(3, V, (B, T + 1)).astype(np.int32)
    src[-1, S - 2:] = pad
    tgt[-1, T - 1:] = pad
    tgt_in, tgt_out = tgt[:, :-1].copy(), tgt[:, 1:].copy()
    inputs = {"src": src, "tgt_in": tgt_in, "tgt_out": tgt_out,
              "rng": np.array([1, 1], np.int64)}
    for name, value in inputs.items():
        np.save(os.path.join(args.work, name + ".npy"), value)

    def interpret(function, *names):
        out = os.path.join(args.work, function)
        run("tc-interpret", mlir, f"--function={function}",
            f"--params-dir={os.path.join(args.work, 'params')}",
            *[f"--input={os.path.join(args.work, n + '.npy')}" for n in names],
            f"--output-dir={out}")
        return [np.load(os.path.join(out, f)) for f in sorted(os.listdir(out))]

    failures = []
    with torch.no_grad():
        t_src, t_in, t_out = (torch.from_numpy(a).long() for a in (src, tgt_in, tgt_out))
        want_loss, want_tokens = model(t_src, t_in, t_out)
        memory = model.encode(t_src)
        logits = model.decode(memory, t_src, t_in)

    loss, tokens = interpret(f"forward_{B}x{S}x{T}", "src", "tgt_in", "tgt_out", "rng")
    rel = abs(float(loss) - want_loss.item()) / abs(want_loss.item())
    print(f"loss: tc {float(loss):.7f} PyTorch {want_loss.item():.7f} relative error {rel:.2e}; "
          f"tokens: tc {int(tokens)} PyTorch {want_tokens}")
    if rel > LOSS_RTOL:
        failures.append(f"loss differs by {rel:.2e} relative (tolerance {LOSS_RTOL})")
    if int(tokens) != want_tokens:
        failures.append("token counts differ")

    # decode runs on PyTorch's memory (rounded to f32), so that only the
    # decoder is compared.
    np.save(os.path.join(args.work, "memory.npy"), memory.float().numpy())
    for what, got, want in [
            ("encode memory", interpret(f"encode_{B}x{S}", "src")[0], memory.numpy()),
            ("decode logits", interpret(f"decode_{B}x{S}x{T}", "memory", "src", "tgt_in")[0],
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
