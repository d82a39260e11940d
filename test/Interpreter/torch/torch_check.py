#!/usr/bin/env python3
"""Checks tc-interpret against PyTorch on random inputs.

    torch_check.py --case softmax --mlir softmax.mlir --work /tmp/w

A case (a function below, registered with @case) draws inputs and parameters
from a fixed seed and computes the expected results with PyTorch in float64
from exactly the same (f32) values. For every function of the case, this
script saves the inputs as .npy, runs `tc-interpret` (found on PATH) on the
.mlir file, loads result<i>.npy and compares. It prints one line per result
and a summary, and exits 1 when any result is out of tolerance (2 on a usage
or tool error). Run it with a Python that has torch (Debian's /usr/bin/python3;
`%python` in lit).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn.functional as F


@dataclass(frozen=True)
class Tol:
    """Passes where |got - want| <= atol + rtol * |want| (np.isclose)."""
    rtol: float
    atol: float


# Tolerances. Inputs and parameters are f32 values, which the float64 torch
# reference sees exactly, so every difference comes from the interpreter
# rounding to f32 (it computes each op in double and rounds its result).
#
# One kernel (softmax, layer_norm, cross_entropy; select and masks are exact):
# a single rounding to f32, relative error <= 2^-24 ~ 6e-8. rtol 1e-6 leaves
# 16x headroom; atol 1e-7 covers outputs near 0 (e.g. tiny probabilities).
KERNEL_F32 = Tol(rtol=1e-6, atol=1e-7)
# A graph (the encoder block: ~25 ops, each rounding to f32; the errors pass
# through matmuls, softmax and layer norm, which divides by the row's std ~1):
# measured max abs error 1.4e-7 (seed 0; at most 3.2e-7 over 13 seeds) on
# outputs of size ~1, so rtol 1e-5 / atol 1e-6 leaves >3x headroom, while a
# real bug (wrong head split, scale, mask, bias) is off by >0.1, and even a
# layer-norm epsilon of 1e-6 instead of 1e-5 by 1.7e-5.
GRAPH_F32 = Tol(rtol=1e-5, atol=1e-6)


@dataclass
class Run:
    """One function of the .mlir file and what it must return."""
    function: str
    inputs: list      # np arrays for the non-parameter arguments, in order
    expected: list    # one torch tensor or np array per result
    params: dict = field(default_factory=dict)  # tc.param name -> np array
    tol: Tol = KERNEL_F32


CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def f32(a):
    return np.ascontiguousarray(a, dtype=np.float32)


def t64(a):
    """The float64 torch tensor of an (f32) array: the reference's input."""
    return torch.from_numpy(np.asarray(a, dtype=np.float64))


# --------------------------------------------------------------------------
# References
# --------------------------------------------------------------------------

@case
def softmax(rng):
    x = f32(rng.standard_normal((2, 3, 5, 7)) * 3)
    big = x.copy()
    big[1] += 1000.0  # exp overflows unless the row maximum is subtracted
    return [Run("softmax_axis3", [big], [torch.softmax(t64(big), dim=3)]),
            Run("softmax_axis2", [x], [torch.softmax(t64(x), dim=2)]),
            Run("softmax_axis1", [x], [torch.softmax(t64(x), dim=1)])]


@case
def layer_norm(rng):
    # Rows with spreads from ~3e-4 to ~3 around offsets: the epsilon matters.
    scale = 10.0 ** rng.uniform(-3.5, 0.5, size=(4, 6, 1))
    x = f32(rng.standard_normal((4, 6, 16)) * scale
            + rng.standard_normal((4, 6, 1)))
    g = f32(1 + 0.5 * rng.standard_normal(16))
    b = f32(0.5 * rng.standard_normal(16))
    runs = []
    for name, eps in (("layer_norm_eps1e5", 1e-5), ("layer_norm_eps1e6", 1e-6)):
        want = F.layer_norm(t64(x), (16,), t64(g), t64(b), eps)
        runs.append(Run(name, [x, g, b], [want]))
    return runs


@case
def cross_entropy(rng):
    logits = f32(rng.standard_normal((3, 7, 11)) * 2)
    targets = rng.integers(1, 11, size=(3, 7)).astype(np.int32)
    targets[1, 5:] = 0  # padding at the end of a sequence ...
    targets[2, 3:] = 0
    targets[0, 2] = 0   # ... and one inside
    tokens = np.array(np.count_nonzero(targets), dtype=np.int32)
    runs = []
    for name, eps in (("cross_entropy_ls0", 0.0), ("cross_entropy_ls01", 0.1)):
        loss = F.cross_entropy(t64(logits).reshape(-1, 11),
                               torch.from_numpy(targets).reshape(-1).long(),
                               reduction="sum", label_smoothing=eps,
                               ignore_index=0)
        runs.append(Run(name, [logits, targets], [loss, tokens]))
    return runs


@case
def masked_softmax(rng):
    scores = f32(rng.standard_normal((2, 4, 5, 5)) * 2)
    ids = rng.integers(1, 20, size=(2, 5)).astype(np.int32)
    ids[0, 4:] = 0
    ids[1, 2:] = 0
    causal = torch.ones(5, 5).tril().bool()              # j <= i allowed
    keep = torch.from_numpy(ids != 0)[:, None, None, :]  # [B, 1, 1, S]
    runs = []
    for name, value in (("masked_softmax_neg1e9", -1e9),
                        ("masked_softmax_neginf", float("-inf"))):
        s = t64(scores).masked_fill(~causal, value).masked_fill(~keep, value)
        runs.append(Run(name, [scores, ids], [torch.softmax(s, dim=-1)]))
    return runs


@case
def encoder_block(rng):
    B, T, d, h = 2, 5, 16, 4
    x = f32(rng.standard_normal((B, T, d)))
    ids = rng.integers(1, 100, size=(B, T)).astype(np.int32)
    ids[0, 4:] = 0
    ids[1, 2:] = 0
    bound = np.sqrt(6.0 / (d + 3 * d))  # xavier_uniform of [3d, d]
    params = {
        "self_attn.in_proj_weight": f32(rng.uniform(-bound, bound, (3 * d, d))),
        "self_attn.in_proj_bias": f32(0.2 * rng.standard_normal(3 * d)),
        "self_attn.out_proj.weight": f32(rng.uniform(-0.25, 0.25, (d, d))),
        "self_attn.out_proj.bias": f32(0.2 * rng.standard_normal(d)),
        "norm1.weight": f32(1 + 0.3 * rng.standard_normal(d)),
        "norm1.bias": f32(0.3 * rng.standard_normal(d)),
    }
    # Training mode (the default) keeps torch off its fused fast path;
    # dropout is 0, so training mode computes the plain formula.
    mha = torch.nn.MultiheadAttention(d, h, batch_first=True,
                                      dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(t64(params["self_attn.in_proj_weight"]))
        mha.in_proj_bias.copy_(t64(params["self_attn.in_proj_bias"]))
        mha.out_proj.weight.copy_(t64(params["self_attn.out_proj.weight"]))
        mha.out_proj.bias.copy_(t64(params["self_attn.out_proj.bias"]))
        xt = t64(x)
        attn, weights = mha(xt, xt, xt,
                            key_padding_mask=torch.from_numpy(ids == 0),
                            need_weights=True, average_attn_weights=False)
        y = F.layer_norm(xt + attn, (d,), t64(params["norm1.weight"]),
                         t64(params["norm1.bias"]), 1e-5)
    return [Run(name, [x, ids], [y, weights], params, GRAPH_F32)
            for name in ("encoder_block", "encoder_block_sliced_weights")]


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------

def fail(message, code=2):
    print(f"torch_check: error: {message}", file=sys.stderr)
    sys.exit(code)


def compare(label, got, want, tol):
    """Prints one line; returns (ok, max_abs, max_rel)."""
    want = want.detach().numpy() if isinstance(want, torch.Tensor) else want
    want = np.asarray(want)
    if got.shape != want.shape:
        print(f"FAIL {label}: shape {got.shape}, expected {want.shape}")
        return False, np.inf, np.inf
    if not np.issubdtype(want.dtype, np.floating):  # integers: exactly
        ok = got.dtype == want.dtype and np.array_equal(got, want)
        print(f"{'PASS' if ok else 'FAIL'} {label}: {got.dtype} {got.tolist() if got.size < 8 else ''}"
              f" expected {want.dtype} {want.tolist() if want.size < 8 else ''} (exact)")
        return ok, 0.0 if ok else np.inf, 0.0 if ok else np.inf
    g, w = got.astype(np.float64), want.astype(np.float64)
    nan_ok = np.array_equal(np.isnan(g), np.isnan(w))
    finite = ~np.isnan(w)
    diff = np.abs(g - w)[finite]
    wabs = np.abs(w)[finite]
    max_abs = float(diff.max(initial=0.0))
    rel = np.divide(diff, wabs, out=np.where(diff > 0, np.inf, 0.0), where=wabs > 0)
    max_rel = float(rel.max(initial=0.0))
    ok = nan_ok and np.isclose(g, w, rtol=tol.rtol, atol=tol.atol,
                               equal_nan=True).all()
    if got.dtype != np.float32:
        ok = False
    where = ""
    if not ok and not nan_ok:
        where = " (NaN where the reference has none, or the other way round)"
    elif not ok and got.dtype != np.float32:
        where = f" (dtype {got.dtype}, expected float32)"
    elif not ok:
        bad = np.abs(g - w) - (tol.atol + tol.rtol * np.abs(w))
        i = np.unravel_index(np.nanargmax(bad), bad.shape)
        where = f"; worst at {list(map(int, i))}: got {g[i]!r}, expected {w[i]!r}"
    print(f"{'PASS' if ok else 'FAIL'} {label}: {list(got.shape)} max_abs={max_abs:.3g} "
          f"max_rel={max_rel:.3g} (rtol={tol.rtol:g}, atol={tol.atol:g}){where}")
    return ok, max_abs, max_rel


def run_function(tool, mlir, run, directory):
    os.makedirs(directory)
    cmd = [tool, mlir, f"--function={run.function}"]
    for i, a in enumerate(run.inputs):
        path = os.path.join(directory, f"input{i}.npy")
        np.save(path, a)
        cmd.append(f"--input={path}")
    if run.params:
        params_dir = os.path.join(directory, "params")
        os.makedirs(params_dir)
        for name, a in run.params.items():
            np.save(os.path.join(params_dir, name + ".npy"), a)
        cmd.append(f"--params-dir={params_dir}")
    out = os.path.join(directory, "out")
    cmd.append(f"--output-dir={out}")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        fail(f"@{run.function}: tc-interpret exited with {proc.returncode}\n"
             f"command: {' '.join(cmd)}\n{proc.stderr}")
    names = sorted(os.listdir(out), key=lambda n: int(re.sub(r"\D", "", n) or 0))
    expected_names = [f"result{i}.npy" for i in range(len(run.expected))]
    if names != expected_names:
        fail(f"@{run.function}: tc-interpret wrote {names}, expected "
             f"{expected_names}", code=1)
    return [np.load(os.path.join(out, n)) for n in names]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    parser.add_argument("--mlir", required=True, help="the .mlir test file")
    parser.add_argument("--work", required=True,
                        help="scratch directory (emptied first)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tc-interpret", default=shutil.which("tc-interpret"),
                        help="default: tc-interpret on PATH")
    parser.add_argument("--perturb", type=float, default=0.0,
                        help="scale float references by (1 + PERTURB): a "
                             "negative control that must make the check fail")
    args = parser.parse_args()
    if not args.tc_interpret:
        fail("tc-interpret is not on PATH; pass --tc-interpret=PATH")

    runs = CASES[args.case](np.random.default_rng(args.seed))
    # Every function of the file must be checked by the case, and vice versa.
    with open(args.mlir) as f:
        in_file = set(re.findall(r"func\.func\s+@([\w.$-]+)", f.read()))
    checked = {r.function for r in runs}
    if in_file != checked:
        fail(f"case {args.case} checks {sorted(checked)} but {args.mlir} "
             f"defines {sorted(in_file)}")

    shutil.rmtree(args.work, ignore_errors=True)
    all_ok, worst_abs, worst_rel, count = True, 0.0, 0.0, 0
    for run in runs:
        results = run_function(args.tc_interpret, args.mlir, run,
                               os.path.join(args.work, run.function))
        for i, (got, want) in enumerate(zip(results, run.expected)):
            if args.perturb and torch.is_tensor(want):
                want = want * (1 + args.perturb)
            ok, a, r = compare(f"@{run.function} result{i}", got, want, run.tol)
            all_ok &= ok
            worst_abs, worst_rel = max(worst_abs, a), max(worst_rel, r)
            count += 1
    print(f"torch_check {args.case}: {'PASS' if all_ok else 'FAIL'}, "
          f"{len(runs)} functions, {count} results vs torch {torch.__version__} "
          f"float64; max_abs={worst_abs:.3g} max_rel={worst_rel:.3g}")
    sys.exit(0 if all_ok else 1)


if __name__ == "__main__":
    main()
