"""tc against PyTorch and JAX, training the same Transformer on this
machine's CPU (issues 9 and 19).

For each configuration (bench/models/*.toml) it compiles the model with
tc-compile and trains it with tc-run (the CPU device), then trains the same
architecture, shapes, dropout, label smoothing, Adam and schedule with each
peer, each in a process of its own with the same thread count and the same
OpenBLAS kernels:

- torch-debian, jax-debian: Debian's PyTorch 1.13 (eager) and JAX 0.4.30
  (jit), pinned to Debian's numpy (bench-venv);
- torch, torch-compile, jax: the current PyPI releases (bench-peers-venv,
  which sees none of Debian's packages): PyTorch eager with fused Adam,
  PyTorch under torch.compile (inductor), JAX jit with its fastest PRNG
  (rbg) for the dropout masks.

A row per configuration, thread count (1 and all cores) and system: source
+ target tokens per second and the step time (medians of --runs runs, the
spread of the step time), the step time over tc's, model FLOP utilisation
against the sgemm rate OpenBLAS reaches at that thread count (measured
first), compile time and peak resident memory. Under each configuration and
thread count: tc's speed over the fastest peer's. The last line is
`ratio_small <the fastest peer's step time / tc's, small configuration, all
cores>`.

    bench/run.sh                      # makes both venvs, then this
    python bench/run.py --build build --configs small --threads 2 --runs 1
"""

import argparse
import ctypes
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIGS = ["tiny", "small", "small_long", "base_short"]


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
    """The square sgemm rate (1024^3 and 2048^3, the best) of each library
    tc's CPU device can call (runtime/cpu/Sgemm.h): the best is the MFU
    denominator."""
    import numpy as np
    from gemm_shapes import library
    ptr = ctypes.c_void_p
    rates = {}
    for name in ("OpenBLAS", "oneDNN"):
        sgemm = library(name, threads)
        rates[name] = 0.0
        for n in (1024, 2048):
            a, b = (np.random.rand(n, n).astype(np.float32) for _ in range(2))
            c = np.zeros((n, n), np.float32)
            args = (False, False, n, n, n, a.ctypes.data_as(ptr), n, b.ctypes.data_as(ptr),
                    n, c.ctypes.data_as(ptr), n)
            sgemm(*args)  # warm-up
            repeats = 3 if n == 2048 else 10
            start = time.perf_counter()
            for _ in range(repeats):
                sgemm(*args)
            rates[name] = max(rates[name],
                              2.0 * n ** 3 * repeats / (time.perf_counter() - start))
    print(json.dumps(rates))


def batch(c, seed):
    import numpy as np
    rng = np.random.default_rng(seed)
    B, S, T, V = c["batch"], c["source_length"], c["target_length"], c["vocab_size"]
    src = rng.integers(1, V, (B, S)).astype(np.int32)
    tgt = rng.integers(1, V, (B, T + 1)).astype(np.int32)
    return src, tgt[:, :-1], tgt[:, 1:]


def torch_child(name, steps, warmup, threads, options):
    import torch
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    sys.path.insert(0, HERE)
    from torch_transformer import make_train_step
    c = model_config(name)
    step = make_train_step(c, fused="fused" in options, compiled="compiled" in options)
    src, tgt_in, tgt_out = (torch.from_numpy(x).long() for x in batch(c, 0))
    start = time.perf_counter()
    step(src, tgt_in, tgt_out)
    first = time.perf_counter() - start
    for _ in range(warmup):
        step(src, tgt_in, tgt_out)
    start = time.perf_counter()
    for _ in range(steps):
        loss = step(src, tgt_in, tgt_out)
    seconds = (time.perf_counter() - start) / steps
    compile_seconds = max(first - seconds, 0.0) if "compiled" in options else 0.0
    print(json.dumps({"step_seconds": seconds, "compile_seconds": compile_seconds,
                      "loss": loss, "version": torch.__version__.split("+")[0]}))


def jax_child(name, steps, warmup, threads, options):
    import jax
    if "rbg" in options:  # the fastest of JAX's PRNGs (dropout masks)
        jax.config.update("jax_default_prng_impl", "rbg")
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
                      "loss": float(loss), "version": jax.__version__}))


# --- the parent: tc, the peers, the table ---

# The peers: Debian's PyTorch and the JAX pinned to Debian's numpy, run by the
# Python of bench-venv (which sees Debian's packages); the current releases
# from PyPI (bench-peers-venv, which sees none): PyTorch eager with fused
# Adam, PyTorch under torch.compile, JAX with its fastest PRNG.
PEERS = {
    "torch-debian": ("debian", "torch", []),
    "jax-debian": ("debian", "jax", []),
    "torch": ("pypi", "torch", ["fused"]),
    "torch-compile": ("pypi", "torch", ["fused", "compiled"]),
    "jax": ("pypi", "jax", ["rbg"]),
}


def compile_tc(build, name, env, work):
    model = os.path.join(HERE, "models", name + ".toml")
    tcx = os.path.join(work, name + ".tcx")
    compile_env = dict(env, TC_CACHE_DIR=os.path.join(work, "cache-" + name))  # uncached
    _, seconds, rss = child(
        [os.path.join(build, "bin", "tc-compile"), model, "-o", tcx], compile_env)
    return tcx, seconds, rss


def run_tc(build, tcx, steps, warmup, env, work):
    metrics = os.path.join(work, "tc.jsonl")
    if os.path.exists(metrics):
        os.remove(metrics)
    _, _, rss = child(
        [os.path.join(build, "bin", "tc-run"), "train", tcx, "--device=cpu", "--quiet",
         "--steps", str(warmup + steps), "--metrics", metrics], env)
    lines = [json.loads(line) for line in open(metrics)]
    seconds = (lines[-1]["elapsed_seconds"] - lines[warmup - 1]["elapsed_seconds"]) / steps
    return {"step_seconds": seconds, "rss": rss, "loss": lines[-1]["loss"]}


def run_peer(python, peer, name, steps, warmup, threads, env):
    _, kind, options = PEERS[peer]
    out, _, rss = child([python, os.path.abspath(__file__), "--child", kind,
                         "--options", ",".join(options),
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
    parser.add_argument("--threads", default=f"1,{os.cpu_count()}",
                        help="comma-separated thread counts, each a row for every "
                             "system (default: 1 and all cores)")
    parser.add_argument("--runs", type=int, default=3,
                        help="runs of each system per row: the median and the spread")
    parser.add_argument("--peers", default=",".join(PEERS),
                        help="comma-separated: " + ", ".join(PEERS))
    parser.add_argument("--peers-python", default=os.environ.get("TC_BENCH_PEERS_PYTHON", ""),
                        help="the Python with the PyPI peers (bench/run.sh makes it)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--options", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    configs = args.configs.split(",")
    options = [o for o in args.options.split(",") if o]

    if args.child == "sgemm":
        return sgemm_child(int(args.threads))
    if args.child == "torch":
        return torch_child(configs[0], args.steps, args.warmup, int(args.threads), options)
    if args.child == "jax":
        return jax_child(configs[0], args.steps, args.warmup, int(args.threads), options)

    pythons = {"debian": sys.executable, "pypi": args.peers_python}
    peers = [p for p in args.peers.split(",") if pythons[PEERS[p][0]]]
    if len(peers) < len(args.peers.split(",")):
        print("note: no --peers-python: the PyPI peers are left out")
    thread_counts = sorted({int(t) for t in args.threads.split(",")})
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), "?")
    print(f"machine: {cpu}, {os.cpu_count()} cores; medians of {args.runs} runs "
          f"(min..max of the step time)")
    sgemm = {}
    for threads in thread_counts:
        out, _, _ = child([sys.executable, os.path.abspath(__file__), "--child", "sgemm",
                           "--threads", str(threads)], environment(threads))
        rates = json.loads(out)
        sgemm[threads] = {"flops": max(rates.values())}
        print(f"sgemm, {threads} threads: " +
              ", ".join(f"{name} {rate / 1e9:.1f}" for name, rate in rates.items()) +
              f" GFLOP/s; the best is the MFU denominator")
    default_steps = {"tiny": 200, "small": 20, "small_long": 10, "base_short": 5}
    ratios = {}
    versions = {}
    with tempfile.TemporaryDirectory(prefix="tc-bench-") as work:
        header = (f"{'config':<11}{'thr':>4} {'system':<22}{'tokens/s':>10}{'step ms':>10}"
                  f"{'spread ms':>15}{'/ tc':>7}{'MFU':>7}{'compile s':>11}{'peak MiB':>10}")
        print(header)
        print("-" * len(header))
        for name in configs:
            c = model_config(name)
            steps = args.steps or default_steps.get(name, 10)
            tokens = c["batch"] * (c["source_length"] + c["target_length"])
            flops = step_flops(c)
            tcx, tc_compile, tc_compile_rss = compile_tc(args.build, name,
                                                         environment(thread_counts[-1]), work)
            for threads in thread_counts:
                env = environment(threads)
                runs = {system: [] for system in ["tc"] + peers}
                # Alternated, so that a slow spell of the machine hits all.
                for _ in range(args.runs):
                    runs["tc"].append(run_tc(args.build, tcx, steps, args.warmup, env, work))
                    for peer in peers:
                        result = run_peer(pythons[PEERS[peer][0]], peer, name, steps,
                                          args.warmup, threads, env)
                        versions[peer] = result.get("version", "?")
                        runs[peer].append(result)
                median = {system: statistics.median(r["step_seconds"] for r in rs)
                          for system, rs in runs.items()}
                for system, rs in runs.items():
                    seconds = median[system]
                    times = [r["step_seconds"] * 1e3 for r in rs]
                    compile_s = (tc_compile if system == "tc"
                                 else statistics.median(r["compile_seconds"] for r in rs))
                    rss = max(r["rss"] for r in rs)
                    if system == "tc":
                        rss = max(rss, tc_compile_rss)
                    label = system if system == "tc" else f"{system} {versions[system]}"
                    print(f"{name:<11}{threads:>4} {label:<22}{tokens / seconds:>10.0f}"
                          f"{seconds * 1e3:>10.1f}{f'{min(times):.1f}..{max(times):.1f}':>15}"
                          f"{seconds / median['tc']:>7.2f}"
                          f"{flops / seconds / sgemm[threads]['flops']:>7.1%}"
                          f"{compile_s:>11.1f}{rss:>10.0f}")
                fastest = min(s for system, s in median.items() if system != "tc")
                ratios[(name, threads)] = fastest / median["tc"]
                print(f"{'':<11}{threads:>4} tc / the fastest peer: "
                      f"{ratios[(name, threads)]:.2f}x; model FLOPs/step {flops / 1e9:.2f} G, "
                      f"{tokens} tokens/step")
    for (name, threads), ratio in ratios.items():
        if (name, threads) != ("small", thread_counts[-1]):
            print(f"ratio_{name}_{threads}_threads {ratio:.3f}")
    if ("small", thread_counts[-1]) in ratios:
        print(f"ratio_small {ratios[('small', thread_counts[-1])]:.3f}")


if __name__ == "__main__":
    main()
