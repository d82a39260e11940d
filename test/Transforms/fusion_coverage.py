#!/usr/bin/env python3
"""Checks that the fusion patterns match the graphs the frontend emits for
every description given: in the first bucket's training step no unfused
softmax, LayerNorm or embedding lookup is left, every attention has one QKV
(or KV) GEMM, and Adam is one op. Where d_k != d_v (Table 3 row B) only Q and
K of self-attention share a width, so only they are fused."""
import json
import subprocess
import sys
import tomllib

failures = []
for path in sys.argv[1:]:
    stats = json.loads(subprocess.run(["tc-compile", path, "--stats"], check=True,
                                      capture_output=True, text=True).stdout)
    step = next(f for name, f in stats["functions"].items() if name.startswith("train_step"))
    ops = step["ops"]
    left = [op for op in ("tc.softmax", "tc.softmax_grad", "tc.layer_norm",
                          "tc.layer_norm_grad", "tc.embedding") if op in ops]
    splits = ops.get("tc.split", 0)
    print(f"{path}: {ops.get('tc.masked_softmax', 0)} masked softmax, "
          f"{ops.get('tc.residual_layer_norm', 0)} residual LayerNorm, {splits} QKV/KV splits, "
          f"{ops.get('tc.embed', 0)} embeddings, {ops.get('tc.adam', 0)} Adam; unfused: {left or 'none'}")
    m = tomllib.load(open(path, "rb"))["model"]
    d_k, d_v = m.get("d_k"), m.get("d_v")
    encoder, decoder = m.get("encoder_layers", 6), m.get("decoder_layers", 6)
    expected = (encoder + 2 * decoder) if d_k == d_v else (encoder + decoder)
    if left or ops.get("tc.adam") != 1 or splits != expected:
        failures.append(path)
if failures:
    sys.exit("error: patterns missed in " + ", ".join(failures))
