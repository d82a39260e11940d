"""tc against PyTorch (eager) and JAX (XLA's jit), training the same
Transformer on this machine's CPU (issue 9).

For each configuration (bench/models/*.toml) it compiles the model with
tc-compile and trains it with tc-run (the CPU device), then trains the same
architecture, shapes, dropout, label smoothing, Adam and schedule in PyTorch
and in JAX, each in a process of its own with the same thread count and the
same OpenBLAS kernels. It prints source+target tokens per second (padded
slots of the batch, the same for all), the ratio to tc, each one's model
FLOP utilisation against the sgemm rate OpenBLAS reaches here (measured
first), compile time (tc-compile; JAX's first step less a steady one) and
peak resident memory. The last line is `ratio_small <tc tokens/s / the
fastest peer's, small configuration>`.

    bench/run.sh                      # installs JAX in a venv, then this
    python bench/run.py --build build --configs small --steps 20
"""

import argparse
import ctypes
import json
import os
import subprocess
import sys
import tempfile
import time
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIGS = ["tiny", "small", "base_short"]


def model_config(name):
    """The .toml's model and training settings, with tc's defaults."""
    text = tomllib.load(open(os.path.join(HERE, "models", name + ".toml"), "rb"))
    c = dict(text["model"])
    bucket = text["training"]["buckets"][0]
    c.update(batch=bucket["batch"], source_length=bucket["source_length"],
             target_length=bucket["target_length"])
    t = text["training"]
    c.update(adam_beta1=t.get("adam_beta1", 0.9), adam_beta2=t.get("adam_beta2", 0.98),
             adam_epsilon=t.get("adam_epsilon", 1e-9), warmup_steps=t.get("warmup_steps", 4000))
    return c


def step_flops(c):
    """Model FLOPs of one training step: the matrix products of the forward
    pass (projections, attention scores and sums, feed-forward, output
    layer), three times (the backward pass is two of them)."""
    B, S, T = c["batch"], c["source_length"], c["target_length"]
    d, dff, V = c["d_model"], c["d_ff"], c["vocab_size"]
    encoder = 2 * B * S * 4 * d * d + 4 * B * S * d * dff + 4 * B * S * S * d
    decoder = (2 * B * T * 4 * d * d + 4 * B * T * T * d            # self-attention
               + 2 * B * T * 2 * d * d + 2 * B * S * 2 * d * d       # cross: q, o; k, v
               + 4 * B * T * S * d + 4 * B * T * d * dff)
    forward = (c["encoder_layers"] * encoder + c["decoder_layers"] * decoder
               + 2 * B * T * d * V)
    return 3 * forward


def child(command, env):
    """Runs `command` and returns (stdout, wall seconds, peak RSS MiB) using
    wait4 for the child's own resource usage."""
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    # Read everything, then reap the child ourselves to get its rusage.
    out = process.stdout.read()
    err = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    if process.returncode != 0:
        sys.exit(f"bench: {' '.join(command)} failed ({process.returncode}):\n"
                 f"{err.decode()[-3000:]}")
    return out.decode(), seconds, usage.ru_maxrss / 1024.0


def environment(threads):
    env = dict(os.environ)
    env.update(OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads),
               XLA_FLAGS=f"--xla_cpu_multi_thread_eigen=true "
                         f"intra_op_parallelism_threads={threads}")
    # Debian's OpenBLAS picks its generic kernels on CPUs it does not know;
    # tc-run corrects that (runtime/cpu/ProcessEnvironment.cpp); so do we, for
    # PyTorch (whose BLAS is OpenBLAS here) and the sgemm measurement.
    if "OPENBLAS_CORETYPE" not in env:
        flags = open("/proc/cpuinfo").read()
        env["OPENBLAS_CORETYPE"] = ("SkylakeX" if " avx512f" in flags
                                    else "Haswell" if " avx2" in flags else "")
    return env


# --- children: one framework, one configuration, in a process of its own ---

def sgemm_child(threads):
    blas = ctypes.CDLL("libopenblas.so.0")
    blas.openblas_set_num_threads(threads)
    blas.openblas_get_corename.restype = ctypes.c_char_p
    import numpy as np
    best = 0.0
    for n in (1024, 2048):
        a = np.random.rand(n, n).astype(np.float32)
        b = np.random.rand(n, n).astype(np.float32)
        c = np.zeros((n, n), np.float32)
        ptr = ctypes.c_void_p
        args = (101, 111, 111, n, n, n, ctypes.c_float(1.0), a.ctypes.data_as(ptr), n,
                b.ctypes.data_as(ptr), n, ctypes.c_float(0.0), c.ctypes.data_as(ptr), n)
        blas.cblas_sgemm(*args)  # warm-up
        repeats = 3 if n == 2048 else 10
        start = time.perf_counter()
        for _ in range(repeats):
            blas.cblas_sgemm(*args)
        best = max(best, 2.0 * n ** 3 * repeats / (time.perf_counter() - start))
    print(json.dumps({"flops": best, "kernels": blas.openblas_get_corename().decode()}))


def batch(c, seed):
    import numpy as np
    rng = np.random.default_rng(seed)
    B, S, T, V = c["batch"], c["source_length"], c["target_length"], c["vocab_size"]
    src = rng.integers(1, V, (B, S)).astype(np.int32)
    tgt = rng.integers(1, V, (B, T + 1)).astype(np.int32)
    return src, tgt[:, :-1], tgt[:, 1:]


def torch_child(name, steps, warmup, threads):
    import torch
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    sys.path.insert(0, HERE)
    from torch_transformer import make_train_step
    c = model_config(name)
    step = make_train_step(c)
    src, tgt_in, tgt_out = (torch.from_numpy(x).long() for x in batch(c, 0))
    for _ in range(warmup):
        step(src, tgt_in, tgt_out)
    start = time.perf_counter()
    for _ in range(steps):
        loss = step(src, tgt_in, tgt_out)
    seconds = (time.perf_counter() - start) / steps
    print(json.dumps({"step_seconds": seconds, "compile_seconds": 0.0, "loss": loss}))


def jax_child(name, steps, warmup, threads):
    import jax
    import jax.numpy as jnp
    sys.path.insert(0, HERE)
    from jax_transformer import init, make_train_step
    c = model_config(name)
    params = init(jax.random.PRNGKey(0), c)
    m = jax.tree_util.tree_map(jnp.zeros_like, params)
    v = jax.tree_util.tree_map(jnp.zeros_like, params)
    count = jnp.zeros((), jnp.int32)
    train_step = make_train_step(c)
    src, tgt_in, tgt_out = (jnp.asarray(x) for x in batch(c, 0))
    key = jax.random.PRNGKey(1)
    start = time.perf_counter()
    params, m, v, count, loss = train_step(params, m, v, count, key, src, tgt_in, tgt_out)
    loss.block_until_ready()
    first = time.perf_counter() - start
    for i in range(warmup):
        params, m, v, count, loss = train_step(params, m, v, count,
                                               jax.random.fold_in(key, i), src, tgt_in, tgt_out)
    loss.block_until_ready()
    start = time.perf_counter()
    for i in range(steps):
        params, m, v, count, loss = train_step(params, m, v, count,
                                               jax.random.fold_in(key, 100 + i),
                                               src, tgt_in, tgt_out)
    loss.block_until_ready()
    seconds = (time.perf_counter() - start) / steps
    print(json.dumps({"step_seconds": seconds, "compile_seconds": max(first - seconds, 0.0),
                      "loss": float(loss)}))


# --- the parent: tc, the peers, the table ---

def run_tc(build, name, steps, warmup, env, work):
    model = os.path.join(HERE, "models", name + ".toml")
    tcx = os.path.join(work, name + ".tcx")
    metrics = os.path.join(work, name + ".jsonl")
    compile_env = dict(env, TC_CACHE_DIR=os.path.join(work, "cache"))  # uncached
    _, compile_seconds, compile_rss = child(
        [os.path.join(build, "bin", "tc-compile"), model, "-o", tcx], compile_env)
    _, _, run_rss = child(
        [os.path.join(build, "bin", "tc-run"), "train", tcx, "--device=cpu", "--quiet",
         "--steps", str(warmup + steps), "--metrics", metrics], compile_env)
    lines = [json.loads(line) for line in open(metrics)]
    seconds = (lines[-1]["elapsed_seconds"] - lines[warmup - 1]["elapsed_seconds"]) / steps
    return {"step_seconds": seconds, "compile_seconds": compile_seconds,
            "compile_rss": compile_rss, "rss": run_rss, "loss": lines[-1]["loss"]}


def run_peer(peer, name, steps, warmup, threads, env):
    out, _, rss = child([sys.executable, os.path.abspath(__file__), "--child", peer,
                         "--configs", name, "--steps", str(steps), "--warmup", str(warmup),
                         "--threads", str(threads)], env)
    result = json.loads(out.strip().splitlines()[-1])
    result["rss"] = rss
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(HERE, "..", "build"),
                        help="tc's build directory (bin/tc-compile, bin/tc-run)")
    parser.add_argument("--configs", default=",".join(CONFIGS),
                        help="comma-separated: " + ", ".join(CONFIGS))
    parser.add_argument("--steps", type=int, default=0,
                        help="measured steps per run (default: by configuration)")
    parser.add_argument("--warmup", type=int, default=3, help="unmeasured steps first")
    parser.add_argument("--threads", type=int, default=os.cpu_count(),
                        help="threads for every system (default: all cores)")
    parser.add_argument("--peers", default="torch,jax", help="comma-separated: torch, jax")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    configs = args.configs.split(",")

    if args.child == "sgemm":
        return sgemm_child(args.threads)
    if args.child == "torch":
        return torch_child(configs[0], args.steps, args.warmup, args.threads)
    if args.child == "jax":
        return jax_child(configs[0], args.steps, args.warmup, args.threads)

    env = environment(args.threads)
    out, _, _ = child([sys.executable, os.path.abspath(__file__), "--child", "sgemm",
                       "--threads", str(args.threads)], env)
    sgemm = json.loads(out)
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), "?")
    print(f"machine: {cpu}, {os.cpu_count()} cores; {args.threads} threads for every system")
    print(f"OpenBLAS sgemm ({sgemm['kernels']} kernels, {args.threads} threads): "
          f"{sgemm['flops'] / 1e9:.1f} GFLOP/s — the MFU denominator")
    default_steps = {"tiny": 200, "small": 20, "base_short": 5}
    ratios = {}
    with tempfile.TemporaryDirectory(prefix="tc-bench-") as work:
        header = (f"{'config':<11}{'system':<8}{'tokens/s':>10}{'step ms':>10}"
                  f"{'tc/this':>9}{'MFU':>7}{'compile s':>11}{'peak MiB':>10}")
        print(header)
        print("-" * len(header))
        for name in configs:
            c = model_config(name)
            steps = args.steps or default_steps.get(name, 10)
            tokens = c["batch"] * (c["source_length"] + c["target_length"])
            results = {"tc": run_tc(args.build, name, steps, args.warmup, env, work)}
            for peer in args.peers.split(","):
                results[peer] = run_peer(peer, name, steps, args.warmup, args.threads, env)
            flops = step_flops(c)
            for system, r in results.items():
                rate = tokens / r["step_seconds"]
                mfu = flops / r["step_seconds"] / sgemm["flops"]
                ratio = results["tc"]["step_seconds"] and r["step_seconds"] / results["tc"]["step_seconds"]
                rss = r["rss"] if system != "tc" else max(r["rss"], r["compile_rss"])
                print(f"{name:<11}{system:<8}{rate:>10.0f}{r['step_seconds'] * 1e3:>10.1f}"
                      f"{ratio:>9.2f}{mfu:>7.1%}{r['compile_seconds']:>11.1f}{rss:>10.0f}")
            fastest_peer = min(r["step_seconds"] for s, r in results.items() if s != "tc")
            ratios[name] = fastest_peer / results["tc"]["step_seconds"]
            print(f"{'':<11}model FLOPs/step {flops / 1e9:.2f} G, {tokens} tokens/step; "
                  f"tc peak: compile {results['tc']['compile_rss']:.0f} MiB, "
                  f"train {results['tc']['rss']:.0f} MiB")
    for name, ratio in ratios.items():
        if name != "small":
            print(f"ratio_{name} {ratio:.3f}")
    if "small" in ratios:
        print(f"ratio_small {ratios['small']:.3f}")


if __name__ == "__main__":
    main()
