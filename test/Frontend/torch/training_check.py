#!/usr/bin/env python3
"""Checks tc's autodiff and training step against PyTorch autograd and
torch.optim.Adam, with dropout off and the same weights and batch:

1. the gradient of the summed loss w.r.t. every parameter (@forward_grad);
2. three steps of @train_step (per-token mean loss, Adam, the paper's
   learning-rate schedule) vs torch.optim.Adam with a LambdaLR of the same
   schedule; with --clip, global-norm clipping vs clip_grad_norm_; with
   --accumulate K, K micro-batches per step vs one step on their union.

    training_check.py models/tiny.toml --work DIR [--clip 0.5] [--accumulate 2]
"""
import argparse
import os
import sys

import numpy as np
import torch

from harness import Setup

# Gradients: f32 graph vs float64 autograd; every tensor must agree within
# 1e-4 of its largest element (the bound; measured ~1e-6).
GRAD_RTOL = 1e-4
# Parameters after three Adam steps: each step moves a parameter by about
# lr ~ 1e-3; the f32 step agrees with float64 to ~1e-7. Tolerance 1e-5 abs.
PARAM_ATOL = 1e-5
STEPS = 3


def has_zero_gradient(name):
    """The key bias of attention: adding b to every key adds q.b to every
    score of a query's row, which softmax ignores, so its gradient is exactly
    zero. Computed in f32 it is rounding noise (~1e-9), and Adam's first step,
    m / sqrt(v) = g / |g|, turns noise into a full +-lr move: any f32
    implementation (PyTorch's in float32 too) drifts from the float64 one
    there. These are checked to be noise-sized, not compared after Adam."""
    return name.endswith(".k.bias")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("description")
    parser.add_argument("--work", required=True)
    parser.add_argument("--fusion", default="all", help="passed to tc-compile")
    parser.add_argument("--clip", type=float, default=0.0)
    parser.add_argument("--accumulate", type=int, default=1)
    args = parser.parse_args()
    s = Setup(args.description, args.work,
              overrides={"gradient_clip": args.clip, "accumulation_steps": args.accumulate},
              fusion=args.fusion)
    k = args.accumulate
    batches = [s.torch_batch()] + [
        tuple(torch.from_numpy(a).long() for a in s.make_batch(seed))
        for seed in range(1, k)]
    if k > 1:  # the train step's inputs: [k, B, ...]
        for i, name in enumerate(("src", "tgt_in", "tgt_out")):
            np.save(s.path(name + "_k"), np.stack([b[i].numpy().astype(np.int32)
                                                   for b in batches]))
    B, S, T = s.B, s.S, s.T
    t = s.config["training"]
    d_model = s.config["model"]["d_model"]
    failures = []

    # 1. Gradients of the summed loss.
    src, tgt_in, tgt_out = s.torch_batch()
    s.model.zero_grad()
    loss, tokens = s.model(src, tgt_in, tgt_out)
    loss.backward()
    np.save(s.path("rng"), np.array([1, 1], np.int64))
    results = s.interpret(f"forward_{B}x{S}x{T}_grad",
                          [s.path(n) for n in ("src", "tgt_in", "tgt_out", "rng")])
    grads = results[2:]
    largest = max(np.abs(s.model.tc_gradient(p["name"]).numpy()).max() for p in s.params)
    worst = ("", 0.0)
    for p, got in zip(s.params, grads):
        want = s.model.tc_gradient(p["name"]).numpy()
        scale = largest if has_zero_gradient(p["name"]) else np.abs(want).max()
        err = np.abs(got - want).max() / scale
        if err > worst[1]:
            worst = (p["name"], err)
        if err > GRAD_RTOL:
            failures.append(f"gradient of {p['name']}: max error {err:.2e} of its largest element")
    print(f"gradients: {len(grads)} tensors; largest error {worst[1]:.2e} "
          f"(relative to the tensor's largest element; for key biases, whose "
          f"gradient is zero, to the largest gradient) at {worst[0]}")

    # 2. Three training steps from the same start.
    warmup, scale = t.get("warmup_steps", 4000), t.get("learning_rate_scale", 1.0)

    def schedule(step):  # step counts from 1
        return scale * d_model ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)

    optimizer = torch.optim.Adam(s.model.parameters(), lr=1.0, betas=(t.get("adam_beta1", 0.9),
                                                        t.get("adam_beta2", 0.98)),
                                 eps=t.get("adam_epsilon", 1e-9))
    lr = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda epoch: schedule(epoch + 1))
    state = {p["name"]: s.named[p["name"]].detach().float().numpy() for p in s.params}
    m = {name: np.zeros_like(v) for name, v in state.items()}
    v = {name: np.zeros_like(x) for name, x in state.items()}
    n = len(s.params)
    for step in range(1, STEPS + 1):
        optimizer.zero_grad()
        losses, counts = zip(*(s.model(*batch) for batch in batches))
        loss, tokens = sum(losses), sum(counts)
        (loss / tokens).backward()
        if args.clip > 0:
            torch.nn.utils.clip_grad_norm_(s.model.parameters(), args.clip)
        optimizer.step()
        lr.step()

        step_dir = os.path.join(args.work, f"step{step}")
        s.save_params(step_dir, state)
        moments = []
        for prefix, values in (("m", m), ("v", v)):
            for p in s.params:
                path = os.path.join(step_dir, f"{prefix}.{p['name']}.npy")
                np.save(path, values[p["name"]])
                moments.append(path)
        np.save(s.path("rng"), np.array([1, step], np.int64))
        data = [s.path(x + ("_k" if k > 1 else "")) for x in ("src", "tgt_in", "tgt_out")]
        out = s.interpret(f"train_step_{B}x{S}x{T}", moments + data + [s.path("rng")],
                          params_dir=step_dir)
        for i, p in enumerate(s.params):
            state[p["name"]], m[p["name"]], v[p["name"]] = out[i], out[n + i], out[2 * n + i]
        got_lr = float(out[3 * n + 2])
        print(f"step {step}: loss/token tc {float(out[3 * n]) / int(out[3 * n + 1]):.6f} "
              f"PyTorch {(loss / tokens).item():.6f}; learning rate tc {got_lr:.6e} "
              f"schedule {schedule(step):.6e}")
        if abs(got_lr - schedule(step)) > 1e-6 * schedule(step):
            failures.append(f"step {step}: learning rate {got_lr} != {schedule(step)}")

    worst = ("", 0.0)
    for p in s.params:
        if has_zero_gradient(p["name"]):
            continue
        want = s.model.tc_parameters()[p["name"]].detach().numpy()
        err = np.abs(state[p["name"]] - want).max()
        if err > worst[1]:
            worst = (p["name"], err)
        if err > PARAM_ATOL:
            failures.append(f"{p['name']} after {STEPS} steps: max abs error {err:.2e}")
    print(f"parameters after {STEPS} Adam steps (all but the key biases): "
          f"largest abs error {worst[1]:.2e} at {worst[0]}")

    if failures:
        sys.exit("error: " + "\nerror: ".join(failures[:20]))
    print("training step matches PyTorch")


if __name__ == "__main__":
    main()
