"""tc's generated host kernels against PyTorch's and XLA's ops on the same
shapes (issue 9): residual+LayerNorm forward and backward, masked softmax
forward and backward, label-smoothed cross-entropy forward and backward, and
Adam over all parameters, for the small configuration (bench/models/small.toml).

tc's times are those of its kernels inside real training steps, from
`tc-run train --profile` (the difference of a 3-step and a 3+N-step run, so
start-up and the first steps drop out). The peers' are of the same
computations run alone, each jit-compiled (JAX) or eager (PyTorch), on
tensors of the same shapes: the residual add, dropout and LayerNorm; the
scaled, masked softmax with dropout on the probabilities; the cross-entropy
with label smoothing 0.1 ignoring padding; one Adam update of every
parameter. Forward alone, and forward plus backward (against a random
upstream gradient; tc: its forward and backward kernels). Times are per
call, in milliseconds, threads as in bench/run.py.

    bench/run.sh micro                   # or: python bench/microbench.py
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run import child, environment, model_config  # noqa: E402

# tc op -> the microbenchmark it times (forward; backward)
OPS = {
    "residual+LayerNorm": ("tc.residual_layer_norm", "tc.residual_layer_norm_grad"),
    "masked softmax": ("tc.masked_softmax", "tc.masked_softmax_grad"),
    "cross-entropy (ls 0.1)": ("tc.cross_entropy", "tc.cross_entropy_grad"),
    "Adam, all parameters": ("tc.adam", None),
}


def tc_times(build, name, steps, env, work):
    """Milliseconds per call of each tc op, over `steps` training steps."""
    model = os.path.join(HERE, "models", name + ".toml")
    tcx = os.path.join(work, name + ".tcx")
    subprocess.run([os.path.join(build, "bin", "tc-compile"), model, "-o", tcx], env=env,
                   check=True, capture_output=True)
    profiles = []
    for count in (3, 3 + steps):
        path = os.path.join(work, f"profile{count}.json")
        subprocess.run([os.path.join(build, "bin", "tc-run"), "train", tcx, "--device=cpu",
                        "--quiet", "--steps", str(count), "--profile", path], env=env,
                       check=True, capture_output=True)
        by_op = {}
        for e in json.load(open(path))["entries"]:
            calls, seconds = by_op.get(e["op"], (0, 0.0))
            by_op[e["op"]] = (calls + e["calls"], seconds + e["seconds"])
        profiles.append(by_op)
    short, long = profiles
    return {op: (long[op][1] - short[op][1]) * 1e3 / (long[op][0] - short[op][0])
            for op in long if long[op][0] > short[op][0]}


def timed(function, repeats):
    function()  # warm-up (and compilation)
    function()
    start = time.perf_counter()
    for _ in range(repeats):
        function()
    return (time.perf_counter() - start) * 1e3 / repeats


def torch_child(c, repeats, threads):
    import torch
    import torch.nn.functional as F
    torch.set_num_threads(threads)
    B, S, d, h, V = c["batch"], c["source_length"], c["d_model"], c["heads"], c["vocab_size"]
    p = c["dropout"]
    rows = B * S
    x, y = torch.randn(rows, d), torch.randn(rows, d, requires_grad=True)
    gamma, beta = torch.ones(d, requires_grad=True), torch.zeros(d, requires_grad=True)
    scores = torch.randn(B, h, S, S, requires_grad=True)
    mask = torch.zeros(B, 1, 1, S, dtype=torch.bool)
    mask[:, :, :, S - 4:] = True
    logits = torch.randn(rows, V, requires_grad=True)
    targets = torch.randint(1, V, (rows,))
    results = {}

    def ln():
        return F.layer_norm(x + F.dropout(y, p), (d,), gamma, beta)

    def softmax():
        s = scores * (d // h) ** -0.5
        return F.dropout(torch.softmax(s.masked_fill(mask, -1e9), -1), p)

    def ce():
        return F.cross_entropy(logits, targets, ignore_index=0, label_smoothing=0.1,
                               reduction="sum")

    for name, forward in (("residual+LayerNorm", ln), ("masked softmax", softmax),
                          ("cross-entropy (ls 0.1)", ce)):
        with torch.no_grad():
            upstream = torch.randn_like(forward())
            fwd = timed(forward, repeats)
        both = timed(lambda: forward().backward(upstream), repeats)
        results[name] = (fwd, both)
    from torch_transformer import ReferenceTransformer
    model = ReferenceTransformer(V, d, h, c["d_ff"], c["encoder_layers"], c["decoder_layers"])
    for param in model.parameters():
        param.grad = torch.randn_like(param)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, betas=(0.9, 0.98), eps=1e-9)
    results["Adam, all parameters"] = (timed(optimizer.step, repeats), None)
    print(json.dumps(results))


def jax_child(c, repeats, threads):
    import jax
    import jax.numpy as jnp
    from jax_transformer import init
    B, S, d, h, V = c["batch"], c["source_length"], c["d_model"], c["heads"], c["vocab_size"]
    p = c["dropout"]
    rows = B * S
    key = jax.random.PRNGKey(0)
    x, y = jax.random.normal(key, (rows, d)), jax.random.normal(jax.random.PRNGKey(1), (rows, d))
    gamma, beta = jnp.ones(d), jnp.zeros(d)
    scores = jax.random.normal(key, (B, h, S, S))
    mask = (jnp.arange(S) < S - 4)[None, None, None, :]
    logits = jax.random.normal(key, (rows, V))
    targets = jax.random.randint(key, (rows,), 1, V)

    def dropout(k, v):
        keep = jax.random.bernoulli(k, 1.0 - p, v.shape)
        return jnp.where(keep, v / (1.0 - p), 0.0)

    def ln(y, gamma, beta, k):
        s = x + dropout(k, y)
        mean = s.mean(-1, keepdims=True)
        var = ((s - mean) ** 2).mean(-1, keepdims=True)
        return (s - mean) * jax.lax.rsqrt(var + 1e-5) * gamma + beta

    def softmax(scores, k):
        s = scores * (d // h) ** -0.5
        return dropout(k, jax.nn.softmax(jnp.where(mask, s, -1e9), axis=-1))

    def ce(logits):
        logp = jax.nn.log_softmax(logits, -1)
        nll = -jnp.take_along_axis(logp, targets[:, None], -1)[:, 0]
        loss = 0.9 * nll - 0.1 * logp.mean(-1)
        return jnp.sum(jnp.where(targets != 0, loss, 0.0))

    results = {}
    cases = (("residual+LayerNorm", ln, (y, gamma, beta, key)),
             ("masked softmax", softmax, (scores, key)),
             ("cross-entropy (ls 0.1)", ce, (logits,)))
    for name, forward, args in cases:
        fwd_fn = jax.jit(forward)
        upstream = jax.random.normal(jax.random.PRNGKey(2), fwd_fn(*args).shape)
        grad_args = tuple(i for i, a in enumerate(args) if a is not key)
        # The value and the gradients, against a random upstream gradient
        # (a plain sum would let XLA fold softmax's gradient away).
        both_fn = jax.jit(jax.value_and_grad(lambda *a: (forward(*a) * upstream).sum(),
                                             argnums=grad_args))
        fwd = timed(lambda: jax.block_until_ready(fwd_fn(*args)), repeats)
        both = timed(lambda: jax.block_until_ready(both_fn(*args)), repeats)
        results[name] = (fwd, both)
    params = init(key, c)
    grads = jax.tree_util.tree_map(jnp.ones_like, params)
    m = jax.tree_util.tree_map(jnp.zeros_like, params)
    v = jax.tree_util.tree_map(jnp.zeros_like, params)

    @jax.jit
    def adam(params, m, v, grads):
        m = jax.tree_util.tree_map(lambda m, g: 0.9 * m + 0.1 * g, m, grads)
        v = jax.tree_util.tree_map(lambda v, g: 0.98 * v + 0.02 * g * g, v, grads)
        params = jax.tree_util.tree_map(
            lambda p, m, v: p - 1e-4 * m / (jnp.sqrt(v) + 1e-9), params, m, v)
        return params, m, v

    results["Adam, all parameters"] = (
        timed(lambda: jax.block_until_ready(adam(params, m, v, grads)), repeats), None)
    print(json.dumps(results))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    parser.add_argument("--config", default="small")
    parser.add_argument("--steps", type=int, default=10, help="tc's profiled steps")
    parser.add_argument("--repeats", type=int, default=20, help="peers' timed calls")
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    c = model_config(args.config)
    if args.child == "torch":
        return torch_child(c, args.repeats, args.threads)
    if args.child == "jax":
        return jax_child(c, args.repeats, args.threads)

    env = environment(args.threads)
    with tempfile.TemporaryDirectory(prefix="tc-micro-") as work:
        env["TC_CACHE_DIR"] = os.path.join(work, "cache")
        tc = tc_times(args.build, args.config, args.steps, env, work)
    peers = {}
    for peer in ("torch", "jax"):
        out, _, _ = child([sys.executable, os.path.abspath(__file__), "--child", peer,
                           "--config", args.config, "--repeats", str(args.repeats),
                           "--threads", str(args.threads)], env)
        peers[peer] = json.loads(out.strip().splitlines()[-1])
    print(f"kernels of the {args.config} configuration, ms per call "
          f"({args.threads} threads; tc inside training steps, peers alone)")
    print(f"{'op':<24}{'pass':<11}{'tc':>8}{'torch':>8}{'jax':>8}{'best/tc':>9}")
    for name, (forward_op, backward_op) in OPS.items():
        mine = [tc[forward_op], tc[forward_op] + tc[backward_op] if backward_op else None]
        for index, label in enumerate(("forward", "fwd+bwd")):
            if mine[index] is None:
                continue
            others = [peers[p][name][index] for p in ("torch", "jax")]
            print(f"{name:<24}{label:<11}{mine[index]:>8.2f}{others[0]:>8.2f}"
                  f"{others[1]:>8.2f}{min(others) / mine[index]:>8.2f}x")


if __name__ == "__main__":
    main()
