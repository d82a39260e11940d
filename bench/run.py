"""tc against PyTorch and JAX, training the same Transformer on this
machine's CPU (issues 9, 19 and 31).

For each configuration (bench/models/*.toml) it compiles the model with
tc-compile and trains it with tc-run (the CPU device), then trains the same
architecture, shapes, dropout, label smoothing, Adam and schedule with each
peer, each in a process of its own with the same thread count and the same
OpenBLAS kernels. In f32:

- torch-debian, jax-debian: Debian's PyTorch 1.13 (eager) and JAX 0.4.30
  (jit), pinned to Debian's numpy (bench-venv);
- torch, torch-compile, jax: the current PyPI releases (bench-peers-venv,
  which sees none of Debian's packages): PyTorch eager with fused Adam,
  PyTorch under torch.compile (inductor), JAX jit with its fastest PRNG
  (rbg) for the dropout masks.

In bf16 (mixed precision: bf16 GEMM operands, f32 accumulation, f32 master
weights and Adam): tc-bf16 (`tc-compile --precision=bf16`) against
torch-bf16 and torch-bf16-compile (the PyPI PyTorch's CPU autocast to bf16,
attention through scaled_dot_product_attention, fused Adam; eager and
torch.compile) and jax-bf16 (every matrix product with bf16 operands and an
f32 result). tc-run refuses a bf16 executable on a CPU without bf16
instructions (avx512_bf16, amx_bf16) unless told --allow-slow-bf16
(--tc-allow-slow-bf16 here): its row then says why it did not run. The
peers run bf16 on any CPU, in software where the CPU has no bf16
instructions: their rows say "emulated" there.

A row per configuration, thread count (1 and all cores) and system: source
+ target tokens per second and the step time (medians of --runs runs, the
spread of the step time), the step time over tc's in the same precision,
model FLOP utilisation (f32 rows: against the best square sgemm rate
measured first at that thread count; bf16 rows: against the bf16 GEMM rate
PyTorch's matmul reaches at the configuration's own GEMM shapes, measured
before the table, or the sgemm rate where bf16 is emulated), compile
time and peak resident memory. Under each configuration and thread count:
tc's speed over the fastest peer's of its precision, the fastest of all,
and tc-bf16's over tc's. The last line
is `ratio_small <the fastest f32 peer's step time / tc's, small
configuration, all cores>`.

    bench/run.sh                      # makes both venvs, then this
    python bench/run.py --build build --configs small --threads 2 --runs 1
    bench/run.sh --precisions bf16 --configs small,base_short
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


def model_gemms(c):
    """The matrix products of the forward pass, as (count, batch, m, n, k):
    `count` products of `batch` (m x k) @ (k x n) each. The backward pass
    has two products of the same FLOPs for each: (m x n) @ (n x k) and
    (k x m) @ (m x n)."""
    B, S, T = c["batch"], c["source_length"], c["target_length"]
    d, dff, V, h = c["d_model"], c["d_ff"], c["vocab_size"], c["heads"]
    E, D = c["encoder_layers"], c["decoder_layers"]
    return [
        (4 * E + 2 * D, 1, B * S, d, d),     # encoder q, k, v, o; cross-attention k, v
        (6 * D, 1, B * T, d, d),             # decoder self q, k, v, o; cross q, o
        (E, 1, B * S, dff, d), (E, 1, B * S, d, dff),      # feed-forward
        (D, 1, B * T, dff, d), (D, 1, B * T, d, dff),
        (E, B * h, S, S, d // h), (E, B * h, S, d // h, S),  # attention: scores, sums
        (D, B * h, T, T, d // h), (D, B * h, T, d // h, T),
        (D, B * h, T, S, d // h), (D, B * h, T, d // h, S),
        (1, 1, B * T, V, d),                 # output layer
    ]


def step_flops(c):
    """Model FLOPs of one training step: the matrix products of the forward
    pass (projections, attention scores and sums, feed-forward, output
    layer), three times (the backward pass is two of them)."""
    return 3 * sum(2 * count * batch * m * n * k for count, batch, m, n, k in model_gemms(c))


def try_child(command, env):
    """Runs `command` and returns (stdout, wall seconds, peak RSS MiB, None),
    or (stdout, seconds, RSS, its stderr's last 3000 characters) when it
    fails, using wait4 for the child's own resource usage."""
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    # Read everything, then reap the child ourselves to get its rusage.
    out = process.stdout.read()
    err = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    error = f"({returncode}):\n{err.decode()[-3000:]}" if returncode != 0 else None
    return out.decode(), seconds, usage.ru_maxrss / 1024.0, error


def child(command, env):
    """try_child's (stdout, seconds, peak RSS MiB); exits when it fails."""
    out, seconds, rss, error = try_child(command, env)
    if error:
        sys.exit(f"bench: {' '.join(command)} failed {error}")
    return out, seconds, rss


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


def gemm_rate_child(name, threads):
    """torch.matmul's rate in bf16 and in f32 at configuration `name`'s
    GEMM shapes (model_gemms: each forward product and the backward's two,
    contiguous operands), each the best of 2 calls after a warm-up (a first
    call over 0.5 s alone: emulated bf16 runs at about 1 GFLOP/s), summed
    with the step's counts: the bf16 one is the bf16 rows' MFU denominator."""
    import torch
    torch.set_num_threads(threads)

    def seconds_of(a, b):
        start = time.perf_counter()
        torch.matmul(a, b)
        return time.perf_counter() - start

    rates = {}
    for dtype in ("bfloat16", "float32"):
        flops = seconds = 0.0
        for count, batch_count, m, n, k in model_gemms(model_config(name)):
            for rows, cols, inner in ((m, n, k), (m, k, n), (k, n, m)):
                a = torch.randn(batch_count, rows, inner).to(getattr(torch, dtype))
                b = torch.randn(batch_count, inner, cols).to(getattr(torch, dtype))
                best = seconds_of(a, b)
                if best < 0.5:
                    best = min(seconds_of(a, b) for _ in range(2))
                flops += count * 2.0 * batch_count * rows * cols * inner
                seconds += count * best
        rates[dtype] = flops / seconds
    print(json.dumps({"bf16": rates["bfloat16"], "f32": rates["float32"],
                      "version": torch.__version__.split("+")[0]}))


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
    step = make_train_step(c, fused="fused" in options, compiled="compiled" in options,
                           bf16="bf16" in options)
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
    train_step = make_train_step(c, bf16="bf16" in options)
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
# Adam, PyTorch under torch.compile, JAX with its fastest PRNG; and the same
# three in bf16 mixed precision. Name -> (venv, child, options).
PEERS = {
    "torch-debian": ("debian", "torch", []),
    "jax-debian": ("debian", "jax", []),
    "torch": ("pypi", "torch", ["fused"]),
    "torch-compile": ("pypi", "torch", ["fused", "compiled"]),
    "jax": ("pypi", "jax", ["rbg"]),
    "torch-bf16": ("pypi", "torch", ["fused", "bf16"]),
    "torch-bf16-compile": ("pypi", "torch", ["fused", "compiled", "bf16"]),
    "jax-bf16": ("pypi", "jax", ["rbg", "bf16"]),
}
# tc in each precision: system -> precision.
TC = {"tc": "f32", "tc-bf16": "bf16"}
PRECISIONS = ["f32", "bf16"]


def precision_of(system):
    return TC[system] if system in TC else "bf16" if "bf16" in PEERS[system][2] else "f32"


def cpu_name():
    return next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                 if l.startswith("model name")), "?")


def missing_bf16():
    """Why this CPU cannot run bf16 GEMMs in hardware, or None where it can
    (the instructions oneDNN's bf16 kernels need)."""
    flags = next((l.split(":", 1)[1].split() for l in open("/proc/cpuinfo")
                  if l.startswith("flags")), [])
    if "avx512_bf16" in flags or "amx_bf16" in flags:
        return None
    return f"this CPU ({cpu_name()}) has neither avx512_bf16 nor amx_bf16"


def error_line(error):
    """The first non-blank line of try_child's error after its exit status
    (a tool's error; notes follow)."""
    return next((l.strip() for l in error.splitlines()[1:] if l.strip()), error)


def compile_tc(build, name, precision, env, work):
    """(tcx, compile seconds, peak RSS MiB, None), or (..., why it failed).
    f32 is tc's default (bench/models name no precision)."""
    model = os.path.join(HERE, "models", name + ".toml")
    tcx = os.path.join(work, f"{name}-{precision}.tcx")
    flags = [] if precision == "f32" else [f"--precision={precision}"]
    compile_env = dict(env, TC_CACHE_DIR=os.path.join(work, "cache-" + name))  # uncached
    _, seconds, rss, error = try_child(
        [os.path.join(build, "bin", "tc-compile"), model, "-o", tcx] + flags, compile_env)
    return tcx, seconds, rss, error and error_line(error)  # the line names tc-compile


def run_tc(build, tcx, steps, warmup, env, work, flags):
    """The step time and peak RSS of `tc-run train`, or a dict with the
    reason it failed."""
    metrics = os.path.join(work, "tc.jsonl")
    if os.path.exists(metrics):
        os.remove(metrics)
    _, _, rss, error = try_child(
        [os.path.join(build, "bin", "tc-run"), "train", tcx, "--device=cpu", "--quiet",
         "--steps", str(warmup + steps), "--metrics", metrics] + flags, env)
    if error:
        return {"not_run": error_line(error)}  # the line names tc-run
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


def compile_all(args, name, precisions, env, work):
    """tc's executables of configuration `name`: system -> (tcx, compile
    seconds, RSS) or, for a system that will not run, the reason."""
    compiled = {}
    for system, precision in TC.items():
        if precision not in precisions or args.no_tc:
            continue
        if precision == "bf16" and missing_bf16() and not args.tc_allow_slow_bf16:
            compiled[system] = (f"not run: {missing_bf16()}: tc-run refuses bf16 there "
                                f"(--tc-allow-slow-bf16: its portable path, operands "
                                f"widened to f32)")
            continue
        if args.prebuilt:  # compiled elsewhere: no compile time or memory here
            tcx = os.path.join(args.prebuilt, f"{name}-{precision}-cpu.tcx")
            compiled[system] = (tcx, None, 0.0) if os.path.exists(tcx) else \
                f"not run: no {tcx} (scripts/cpu-bf16-bundle.sh makes it)"
            continue
        tcx, seconds, rss, error = compile_tc(args.build, name, precision, env, work)
        compiled[system] = f"not run: {error}" if error else (tcx, seconds, rss)
    return compiled


def progress(name, threads, run, system, result):
    """One line on stderr per run as it ends: a run cut off by a time limit
    still leaves the ones before it."""
    print(f"  {name}, {threads} threads, run {run + 1}: {system} "
          f"{result['step_seconds'] * 1e3:.1f} ms a step", file=sys.stderr, flush=True)


def measure(args, name, threads, steps, compiled, peers, pythons, work):
    """system -> its runs' results, the systems alternated run by run so
    that a slow spell of the machine hits all; a tc system that fails
    becomes the reason (a string) in `compiled`. Emulated bf16 peers run
    once, one warm-up step and one measured (their steps take minutes)."""
    env = environment(threads)
    runs = {system: [] for system in list(compiled) + peers}
    slow_bf16 = ["--allow-slow-bf16"] if args.tc_allow_slow_bf16 and missing_bf16() else []
    for run in range(args.runs):
        for system, executable in compiled.items():
            if isinstance(executable, str):
                continue
            flags = slow_bf16 if TC[system] == "bf16" else []
            result = run_tc(args.build, executable[0], steps, args.warmup, env, work, flags)
            if "not_run" in result:
                compiled[system], runs[system] = "not run: " + result["not_run"], []
            else:
                runs[system].append(result)
                progress(name, threads, run, system, result)
        for peer in peers:
            if precision_of(peer) == "bf16" and missing_bf16():
                if run == 0:
                    runs[peer].append(run_peer(pythons[PEERS[peer][0]], peer, name, 1, 1,
                                               threads, env))
                continue
            runs[peer].append(run_peer(pythons[PEERS[peer][0]], peer, name, steps,
                                       args.warmup, threads, env))
            progress(name, threads, run, peer, runs[peer][-1])
    return {system: rs for system, rs in runs.items() if rs}


def print_rows(name, threads, c, runs, compiled, rates):
    """One row per system; `rates`: precision -> the MFU denominator."""
    tokens = c["batch"] * (c["source_length"] + c["target_length"])
    median = {system: statistics.median(r["step_seconds"] for r in rs)
              for system, rs in runs.items()}
    emulated = "*" if missing_bf16() else ""
    for system in list(compiled) + [s for s in runs if s not in compiled]:
        if isinstance(compiled.get(system), str):
            print(f"{name:<11}{threads:>4} {system:<28}{TC[system]:<5} {compiled[system]}")
            continue
        rs = runs[system]
        seconds, precision = median[system], precision_of(system)
        times = [r["step_seconds"] * 1e3 for r in rs]
        label = system if system in TC else f"{system} {rs[0].get('version', '?')}"
        label += emulated if precision == "bf16" else ""
        tc = next((s for s, p in TC.items() if p == precision and s in median), None)
        over_tc = f"{seconds / median[tc]:>7.2f}" if tc else f"{'-':>7}"
        mfu = (f" {step_flops(c) / seconds / rates[precision]:>6.1%}"
               if rates.get(precision) else f"{'-':>7}")
        compile_s = (compiled[system][1] if system in TC
                     else statistics.median(r["compile_seconds"] for r in rs))
        rss = max([r["rss"] for r in rs] + ([compiled[system][2]] if system in TC else []))
        compile_s = "-" if compile_s is None else f"{compile_s:.1f}"
        print(f"{name:<11}{threads:>4} {label:<28}{precision:<5}{tokens / seconds:>10.0f}"
              f"{seconds * 1e3:>10.1f} {f'{min(times):.1f}..{max(times):.1f}':>16}"
              f"{over_tc}{mfu}{compile_s:>11}{rss:>10.0f}")
    return median


def summarise(name, threads, c, median):
    """The ratios under a configuration's rows (a peer's step time over tc's:
    above 1, tc is faster); returns them by name."""
    ratios = {}
    fastest = {p: min(((s, t) for s, t in median.items()
                       if s not in TC and precision_of(s) == p), key=lambda st: st[1],
                      default=None) for p in PRECISIONS}
    notes = []
    for system, precision in TC.items():
        if not fastest[precision]:
            continue
        peer, seconds = fastest[precision]
        if system in median:
            ratios[precision] = seconds / median[system]
            notes.append(f"{system} / the fastest {precision} peer ({peer}): "
                         f"{ratios[precision]:.2f}x")
        else:
            notes.append(f"the fastest {precision} peer: {peer} ({seconds * 1e3:.1f} ms)")
    if "tc" in median and "tc-bf16" in median:
        ratios["speedup"] = median["tc"] / median["tc-bf16"]
        notes.append(f"tc-bf16 / tc: {ratios['speedup']:.2f}x")
    overall = min(median, key=median.get)
    notes.append(f"the fastest of all: {overall} ({median[overall] * 1e3:.1f} ms)")
    print(f"{'':<11}{threads:>4} " + "; ".join(notes))
    print(f"{'':<11}{threads:>4} model FLOPs/step {step_flops(c) / 1e9:.2f} G, "
          f"{c['batch'] * (c['source_length'] + c['target_length'])} tokens/step")
    return ratios


def sgemm_rate(threads):
    """The f32 MFU denominator at `threads`: the best square sgemm rate (None
    where the libraries are not there: the f32 rows show no MFU)."""
    out, _, _, error = try_child([sys.executable, os.path.abspath(__file__), "--child",
                                  "sgemm", "--threads", str(threads)], environment(threads))
    if error:
        print(f"sgemm, {threads} threads: not measured {error_line(error)}")
        return None
    rates = json.loads(out)
    print(f"sgemm, {threads} threads: " +
          ", ".join(f"{name} {rate / 1e9:.1f}" for name, rate in rates.items()) +
          " GFLOP/s; the best is the f32 MFU denominator")
    return max(rates.values())


def bf16_rate(python, name, threads):
    """PyTorch's bf16 matmul rate at configuration `name`'s GEMM shapes."""
    out, _, _ = child([python, os.path.abspath(__file__), "--child", "gemm-rate",
                       "--configs", name, "--threads", str(threads)], environment(threads))
    rates = json.loads(out.strip().splitlines()[-1])
    print(f"{name}'s GEMM shapes, {threads} threads, torch {rates['version']} matmul: "
          f"bf16 {rates['bf16'] / 1e9:.1f} GFLOP/s{'*' if missing_bf16() else ''}, "
          f"f32 {rates['f32'] / 1e9:.1f}; " +
          ("emulated: the bf16 rows' MFU is against the best sgemm rate" if missing_bf16()
           else "bf16 is the bf16 rows' MFU denominator"))
    return rates["bf16"]


def print_ratios(ratios, thread_counts):
    """The machine-readable lines; `ratio_small` (f32, all cores) last."""
    last = ("small", thread_counts[-1])
    for (name, threads), r in ratios.items():
        if "bf16" in r:
            print(f"ratio_bf16_{name}_{threads}_threads {r['bf16']:.3f}")
        if "speedup" in r:
            print(f"speedup_bf16_{name}_{threads}_threads {r['speedup']:.3f}")
        if "f32" in r and (name, threads) != last:
            print(f"ratio_{name}_{threads}_threads {r['f32']:.3f}")
    if "f32" in ratios.get(last, {}):
        print(f"ratio_small {ratios[last]['f32']:.3f}")


def record(path, name, threads, runs, compiled):
    """Appends a JSON line per system of one configuration and thread count
    to `path` (--json): its step times, or why it did not run."""
    with open(path, "a") as f:
        for system in list(compiled) + [s for s in runs if s not in compiled]:
            line = {"config": name, "threads": threads, "system": system,
                    "precision": precision_of(system)}
            if isinstance(compiled.get(system), str):
                line["not_run"] = compiled[system]
            else:
                line["step_ms"] = [r["step_seconds"] * 1e3 for r in runs[system]]
                line["version"] = runs[system][0].get("version", "")
            f.write(json.dumps(line) + "\n")


def markdown_table(paths):
    """The --json lines of one or more runs as one markdown table: ms per
    step of each system (median of its runs, min..max) by configuration and
    thread count, tc-bf16's speed-up over tc, and the fastest bf16 peer's
    step time over tc-bf16's (above 1, tc is faster). A system measured in
    several files: the file with the most runs."""
    found = {}
    for path in paths:
        for line in map(json.loads, open(path)):
            key = (line["config"], line["threads"], line["system"])
            if len(line.get("step_ms", [])) > len(found.get(key, {}).get("step_ms", [])) \
                    or key not in found:
                found[key] = line
    systems = list(dict.fromkeys(key[2] for key in found))
    print("| config | threads | " + " | ".join(f"{s} ms" for s in systems) +
          " | tc-bf16 / tc | tc-bf16 / fastest torch bf16 |")
    print("|---|---:|" + "---:|" * (len(systems) + 2))
    for config, threads in dict.fromkeys(key[:2] for key in found):
        lines = {s: found.get((config, threads, s)) for s in systems}
        median = {s: statistics.median(l["step_ms"]) for s, l in lines.items()
                  if l and l.get("step_ms")}
        cells = [("-" if not l else l["not_run"] if "not_run" in l else
                  f"{median[s]:.1f} ({min(l['step_ms']):.1f}..{max(l['step_ms']):.1f})")
                 for s, l in lines.items()]
        speedup = (f"**{median['tc'] / median['tc-bf16']:.2f}x**"
                   if {"tc", "tc-bf16"} <= set(median) else "-")
        peers = [s for s in median if s not in TC and lines[s]["precision"] == "bf16"]
        fastest = min(peers, key=median.get, default=None)
        over_peer = (f"**{median[fastest] / median['tc-bf16']:.2f}x** ({fastest})"
                     if fastest and "tc-bf16" in median else "-")
        print(f"| {config} | {threads} | " + " | ".join(cells) +
              f" | {speedup} | {over_peer} |")


def parse_arguments():
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
    parser.add_argument("--precisions", default=",".join(PRECISIONS),
                        help="comma-separated: f32 (tc and the f32 peers), bf16 (tc-bf16 "
                             "and the bf16 peers)")
    parser.add_argument("--peers", default="",
                        help="comma-separated (default: those of --precisions): "
                             + ", ".join(PEERS))
    parser.add_argument("--tc-allow-slow-bf16", action="store_true",
                        help="on a CPU without bf16 instructions, run tc-bf16 anyway "
                             "(tc-run --allow-slow-bf16: its portable path, emulated)")
    parser.add_argument("--peers-python", default=os.environ.get("TC_BENCH_PEERS_PYTHON", ""),
                        help="the Python with the PyPI peers (bench/run.sh makes it)")
    parser.add_argument("--prebuilt",
                        help="take DIR/NAME-P-cpu.tcx (scripts/cpu-bf16-bundle.sh) instead "
                        "of compiling: for a machine without tc-compile")
    parser.add_argument("--no-tc", action="store_true", help="the peers alone")
    parser.add_argument("--no-mfu", action="store_true",
                        help="skip the GEMM-rate measurements that the MFU column divides by "
                             "(minutes on a many-core machine); the column shows -")
    parser.add_argument("--json", help="append each row's step times to FILE (JSON lines)")
    parser.add_argument("--table", nargs="+", metavar="FILE",
                        help="print --json FILEs as one markdown table, and run nothing")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--options", default="", help=argparse.SUPPRESS)
    return parser.parse_args()


def main():
    args = parse_arguments()
    configs = args.configs.split(",")
    options = [o for o in args.options.split(",") if o]
    if args.child:
        children = {"sgemm": lambda: sgemm_child(int(args.threads)),
                    "gemm-rate": lambda: gemm_rate_child(configs[0], int(args.threads)),
                    "torch": lambda: torch_child(configs[0], args.steps, args.warmup,
                                                 int(args.threads), options),
                    "jax": lambda: jax_child(configs[0], args.steps, args.warmup,
                                             int(args.threads), options)}
        return children[args.child]()
    if args.table:
        return markdown_table(args.table)

    precisions = args.precisions.split(",")
    pythons = {"debian": sys.executable, "pypi": args.peers_python}
    wanted = (args.peers.split(",") if args.peers else
              [p for p in PEERS if precision_of(p) in precisions])
    peers = [p for p in wanted if pythons[PEERS[p][0]]]
    if len(peers) < len(wanted):
        print("note: no --peers-python: the PyPI peers are left out")
    thread_counts = sorted({int(t) for t in args.threads.split(",")})
    print(f"machine: {cpu_name()}, {os.cpu_count()} cores; medians of {args.runs} runs "
          f"(min..max of the step time)")
    if "bf16" in precisions and missing_bf16():
        print(f"note: {missing_bf16()}: bf16 marked * is emulated (the library's "
              f"software path, not bf16 hardware); the bf16 peers run once, one warm-up "
              f"step and one measured")
    sgemm = {t: None if args.no_mfu else sgemm_rate(t) for t in thread_counts}
    rates = {(name, t): {"f32": sgemm[t]} for name in configs for t in thread_counts}
    if "bf16" in precisions and args.peers_python and not args.no_mfu:
        for (name, t), rate in rates.items():
            # Emulated bf16 computes with f32 instructions: f32's rate bounds
            # it (and measuring emulated products takes minutes).
            rate["bf16"] = rate["f32"] if missing_bf16() else \
                bf16_rate(args.peers_python, name, t)
    default_steps = {"tiny": 200, "small": 20, "small_long": 10, "base_short": 5}
    ratios = {}
    with tempfile.TemporaryDirectory(prefix="tc-bench-") as work:
        header = (f"{'config':<11}{'thr':>4} {'system':<28}{'prec':<5}{'tokens/s':>10}"
                  f"{'step ms':>10}{'spread ms':>17}{'/ tc':>7}{'MFU':>7}{'compile s':>11}"
                  f"{'peak MiB':>10}")
        print(header)
        print("-" * len(header))
        for name in configs:
            c = model_config(name)
            steps = args.steps or default_steps.get(name, 10)
            compiled = compile_all(args, name, precisions, environment(thread_counts[-1]),
                                   work)
            for threads in thread_counts:
                row = dict(compiled)  # measure() marks a tc system that fails
                runs = measure(args, name, threads, steps, row, peers, pythons, work)
                median = print_rows(name, threads, c, runs, row, rates[(name, threads)])
                if args.json:
                    record(args.json, name, threads, runs, row)
                ratios[(name, threads)] = summarise(name, threads, c, median)
    print_ratios(ratios, thread_counts)


if __name__ == "__main__":
    main()
