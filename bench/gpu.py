"""tc's CUDA device against PyTorch on the same GPU, in f32, TF32 and bf16
mixed precision: the training step of a configuration of bench/models, tc
through `tc-run train --device=cuda` (compiled with `tc-compile
--precision=f32|tf32|bf16`), PyTorch through bench/torch_transformer.py.

Each system runs in its own process: the warm-up steps, then --runs windows
of --steps steps, timed apart (the median window and the spread). Under each
configuration, each tc row's speed against the fastest peer of its
precision and the fastest of all. The last line is `ratio_gpu`, the fastest
f32 peer's step time over tc's f32 step, the least over the configurations
(ratio_gpu_tf32 and ratio_gpu_bf16 likewise). Beside
each tc row: what `tc-compile --stats --target=cuda --gpu=NAME
--precision=P` predicts for the GPU (compiler/analysis/GpuStepModel.h),
when it is one the model knows.

    bench/gpu.py --configs base_short,base_gpu,base_paper  # compiles for this GPU
    bench/gpu.py --prebuilt DIR                         # DIR/NAME-P-cuda.tcx and
                                                        # DIR/NAME-P-stats-GPU.json
    bench/gpu.py --dry-run                              # no GPU: every peer's
                                                        # model, one step on the CPU

With --prebuilt, make the executables and predictions where tc-compile is
(scripts/gpu-bundle.sh makes them for h100 and h200, each precision).
"""

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run import batch, model_config, step_flops  # noqa: E402

PRECISIONS = ["f32", "tf32", "bf16"]
# PyTorch's peers: name -> (precision, options, what it is). All use fused
# Adam on f32 master weights.
PEERS = {
    "torch": ("f32", [], "eager, f32 GEMMs (no TF32)"),
    "torch-compile": ("f32", ["compiled"], "torch.compile (inductor), f32 GEMMs"),
    "torch-tf32": ("tf32", [], "eager, torch.backends.cuda.matmul.allow_tf32"),
    "torch-tf32-compile": ("tf32", ["compiled"], "torch.compile, TF32 GEMMs"),
    "torch-bf16": ("bf16", [], "eager, autocast to bf16, scaled_dot_product_attention"),
    "torch-bf16-compile": ("bf16", ["compiled"], "torch.compile of torch-bf16"),
    "torch-bf16-max-autotune": ("bf16", ["compiled", "max-autotune"],
                                "torch.compile(mode='max-autotune') of torch-bf16: CUDA "
                                "graphs, GEMMs tuned by trial (minutes to compile)"),
}
# tc in each precision: system -> precision.
TC = {"tc": "f32", "tc-tf32": "tf32", "tc-bf16": "bf16"}
# A tc row with --eager-launches (bench/gpu.py --eager): SYSTEM + EAGER.
EAGER = "-eager"


def is_tc(system):
    return system.removesuffix(EAGER) in TC


def precision_of(system):
    return TC[system.removesuffix(EAGER)] if is_tc(system) else PEERS[system][0]


def gpu_arch():
    """sm_XY of GPU 0, from nvidia-smi."""
    out = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                         capture_output=True, text=True, check=True).stdout
    return "sm_" + out.split()[0].replace(".", "")


def model_gpu(product):
    """The --gpu name of tc-compile's step-time model for nvidia-smi's GPU
    name ("NVIDIA H100 80GB HBM3" -> "h100"), or None. The model has one
    part of each (the SXM ones, and the P100 PCIe); the line printed names
    the datasheet it used."""
    for name in ("p100", "a100", "h100", "h200"):
        if name in product.lower():
            return name
    return None


def precision_flags(precision):
    """tc-compile's flags for `precision` (f32 is the default: bench/models
    name none)."""
    return [] if precision == "f32" else [f"--precision={precision}"]


def error_line(stderr, last=False):
    """The first non-blank line of a tool's stderr (its error; notes
    follow), or the last (a Python traceback's exception)."""
    lines = [l.strip() for l in stderr.splitlines() if l.strip()]
    return (lines[-1] if last else lines[0]) if lines else ""


def predicted_step_seconds(stats, c, precision, eager=False):
    """The step time tc-compile --stats --gpu=NAME --precision=P predicts for
    the training step of configuration `c`'s bucket (replayed as a CUDA
    graph; `eager`: each launch issued in turn), or None."""
    step = f"train_step_{c['batch']}x{c['source_length']}x{c['target_length']}"
    entry = stats["gpu_prediction"]["steps"].get(step, {}).get(precision)
    milliseconds = entry and entry.get("eager_step_ms" if eager else "step_ms")
    return milliseconds / 1e3 if milliseconds else None


def gpu_stats(build, name, gpu, precision, prebuilt):
    """tc-compile --stats --gpu=GPU of configuration `name` in `precision`
    (with --prebuilt, DIR/NAME-P-stats-GPU.json, made so where tc-compile
    is), or why there is none (a string)."""
    if prebuilt:
        path = os.path.join(prebuilt, f"{name}-{precision}-stats-{gpu}.json")
        return json.load(open(path)) if os.path.exists(path) else f"no {path}"
    out = subprocess.run([os.path.join(build, "bin", "tc-compile"),
                          os.path.join(HERE, "models", name + ".toml"), "--stats",
                          "--target=cuda", "--gpu=" + gpu] + precision_flags(precision),
                         capture_output=True, text=True)
    return json.loads(out.stdout) if out.returncode == 0 else error_line(out.stderr)


def tc_executable(args, name, precision, work):
    """The path of configuration `name`'s CUDA executable in `precision`,
    or the reason there is none (a string starting "not run")."""
    if args.prebuilt:
        tcx = os.path.join(args.prebuilt, f"{name}-{precision}-cuda.tcx")
        return tcx if os.path.exists(tcx) else f"not run: no {tcx}"
    tcx = os.path.join(work, f"{name}-{precision}.tcx")
    out = subprocess.run([os.path.join(args.build, "bin", "tc-compile"),
                          os.path.join(HERE, "models", name + ".toml"), "-o", tcx,
                          "--target=cuda", "--arch=" + gpu_arch()] + precision_flags(precision),
                         capture_output=True, text=True)
    return tcx if out.returncode == 0 else f"not run: {error_line(out.stderr)}"


def run_tc(build, tcx, warmup, steps, runs, work, eager=False):
    """The step times of --runs windows, or the reason tc-run failed;
    `eager`: every step launched a call at a time (--eager-launches), not
    replayed as a CUDA graph."""
    metrics = os.path.join(work, "tc.jsonl")
    if os.path.exists(metrics):
        os.remove(metrics)
    out = subprocess.run(
        [os.path.join(build, "bin", "tc-run"), "train", tcx, "--device=cuda", "--quiet",
         "--steps", str(warmup + runs * steps), "--metrics", metrics, "--checkpoint-dir",
         os.path.join(work, "checkpoints-" + os.path.basename(tcx) + ("-eager" if eager else "")),
         "--checkpoint-every", "0"]
        + (["--eager-launches"] if eager else []),
        capture_output=True, text=True)
    if out.returncode != 0:
        return f"not run: {error_line(out.stderr)}"
    # A step's line holds its loss (validation lines do not); window r
    # runs from the end of step warmup + r * steps (warmup >= 1).
    elapsed = [line["elapsed_seconds"] for line in map(json.loads, open(metrics))
               if "loss" in line]
    return [(elapsed[warmup + (r + 1) * steps - 1] - elapsed[warmup + r * steps - 1]) / steps
            for r in range(runs)]


def torch_child(name, peer, warmup, steps, runs, device):
    """One peer's step times on `device` ("cuda", or "cpu" for --dry-run:
    torch.compile's aot_eager backend there, the graph capture and autograd
    of inductor's path without its device code), and the last step's loss,
    as a JSON line."""
    import torch
    from torch_transformer import make_train_step
    precision, options, _ = PEERS[peer]
    if device == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = precision == "tf32"
        torch.backends.cudnn.allow_tf32 = precision == "tf32"
    torch.set_default_device(device)
    torch.manual_seed(0)
    c = model_config(name)
    # max-autotune's CUDA graphs need a GPU; the dry run checks the rest.
    mode = "max-autotune" if "max-autotune" in options and device == "cuda" else None
    step = make_train_step(c, fused=True, compiled="compiled" in options,
                           bf16=precision == "bf16", device=device,
                           backend="inductor" if device == "cuda" else "aot_eager", mode=mode)
    src, tgt_in, tgt_out = (torch.from_numpy(x).long().to(device) for x in batch(c, 0))
    for _ in range(warmup):
        loss = step(src, tgt_in, tgt_out)
    times = []
    for _ in range(runs):
        if device == "cuda":
            torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(steps):
            loss = step(src, tgt_in, tgt_out)  # returns the loss: synchronises
        times.append((time.perf_counter() - start) / steps)
    print(json.dumps({"times": times, "loss": loss,
                      "version": torch.__version__.split("+")[0]}))


def run_peer(peer, name, args, device):
    """torch_child's result in a process of its own, or the reason it
    failed (its stderr's end goes to ours)."""
    out = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--child", peer, "--device", device,
         "--configs", name, "--warmup", str(args.warmup), "--steps", str(args.steps),
         "--runs", str(args.runs)], capture_output=True, text=True)
    if out.returncode != 0:
        print(f"bench: peer {peer} failed ({out.returncode}):\n{out.stderr[-3000:]}",
              file=sys.stderr)
        return f"not run: {error_line(out.stderr, last=True)}"
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(args, name, gpu, work):
    """system -> step times (a reason string for a tc system that did not
    run), versions, and tc's predicted step times."""
    c = model_config(name)
    times, versions, predicted = {}, {}, {}
    modelled = model_gpu(gpu)
    launch_modes = [False, True] if args.eager else [False]  # True: --eager-launches
    for precision in args.precisions:
        system = next(s for s, p in TC.items() if p == precision)
        tcx = tc_executable(args, name, precision, work)
        for eager in launch_modes:
            row = system + (EAGER if eager else "")
            times[row] = tcx if tcx.startswith("not run") else run_tc(
                args.build, tcx, args.warmup, args.steps, args.runs, work, eager)
            versions[row] = ""
        stats = modelled and gpu_stats(args.build, name, modelled, precision, args.prebuilt)
        if isinstance(stats, dict):
            for eager in launch_modes:
                predicted[system + (EAGER if eager else "")] = (
                    predicted_step_seconds(stats, c, precision, eager),
                    stats["gpu_prediction"]["product"])
    for peer in args.peers:
        result = run_peer(peer, name, args, "cuda")
        failed = isinstance(result, str)
        times[peer] = result if failed else result["times"]
        versions[peer] = "" if failed else result["version"]
    return times, versions, predicted


def print_rows(name, times, versions, predicted):
    """The table's rows of one configuration; returns the median step times
    of the systems that ran."""
    c = model_config(name)
    tokens = c["batch"] * (c["source_length"] + c["target_length"])
    median = {s: statistics.median(t) for s, t in times.items() if not isinstance(t, str)}
    for system, t in times.items():
        label = (system + " " + versions[system]).strip()
        if isinstance(t, str):
            print(f"{name:<11} {label:<31}{precision_of(system):<5} {t}")
            continue
        seconds = median[system]
        row = (f"{name:<11} {label:<31}{precision_of(system):<5}{tokens / seconds:>10.0f}"
               f"{seconds * 1e3:>10.2f}{f'{min(t) * 1e3:.2f}..{max(t) * 1e3:.2f}':>15}"
               f"{step_flops(c) / seconds / 1e12:>9.1f}")
        if predicted.get(system, (None,))[0]:
            row += f"{predicted[system][0] * 1e3:>11.2f}{seconds / predicted[system][0]:>8.2f}"
        print(row)
    return median


def summarise(name, median, predicted):
    """Each tc row against the fastest peer of its precision and the
    fastest of all (a peer's step time over tc's: above 1, tc is faster);
    returns precision -> that first ratio."""
    c = model_config(name)
    peers = {s: t for s, t in median.items() if not is_tc(s)}
    ratios = {}
    if not peers:
        return ratios
    overall = min(peers, key=peers.get)
    for system in (s for s in median if is_tc(s)):
        precision = precision_of(system)
        same = min((s for s in peers if precision_of(s) == precision), key=peers.get,
                   default=None)
        notes = [f"the fastest peer ({overall}) {peers[overall] / median[system]:.2f}x"]
        if same:
            ratio = peers[same] / median[system]
            if system in TC:
                ratios[precision] = ratio
            notes.insert(0, f"the fastest {precision} peer ({same}) {ratio:.2f}x")
        print(f"{name:<11} {system} against " + "; ".join(notes))
    print(f"{name:<11} model FLOPs/step {step_flops(c) / 1e9:.1f} G, "
          f"{c['batch'] * (c['source_length'] + c['target_length'])} tokens/step" +
          "".join(f"; predicted by tc-compile --gpu for the {product}"
                  for product in sorted({p for _, p in predicted.values()})))
    return ratios


def dry_run(args):
    """Every peer's model built on the CPU at the tiny configuration and
    trained one step in its own process (the path a GPU run takes, no
    timing), then checks that SdpaTransformer computes ReferenceTransformer's
    loss, and tc's predictions of each precision where tc-compile is."""
    failed = False
    for peer in args.peers:
        result = run_peer(peer, "tiny", args, "cpu")
        ok = not isinstance(result, str) and math.isfinite(result["loss"])
        failed |= not ok
        print(f"dry run: {peer} ({PEERS[peer][0]}): " + (
            f"one step of tiny on the CPU with torch {result['version']}, loss "
            f"{result['loss']:.4f}{'' if ok else ' NOT FINITE'}"
            if not isinstance(result, str) else f"FAILED: {result}"))
    failed |= not sdpa_matches_reference()
    compiler = os.path.join(args.build, "bin", "tc-compile")
    for precision in args.precisions if os.path.exists(compiler) else []:
        stats = gpu_stats(args.build, "tiny", "h100", precision, None)
        seconds = isinstance(stats, dict) and predicted_step_seconds(
            stats, model_config("tiny"), precision)
        failed |= not seconds
        command = " ".join(["tc-compile", "--gpu=h100"] + precision_flags(precision))
        print(f"dry run: {command} predicts tiny's step " +
              (f"at {seconds * 1e3:.3f} ms" if seconds else f"FAILED: {stats}"))
    print("dry run: " + ("FAILED" if failed else "ok"))
    return 1 if failed else 0


def sdpa_matches_reference():
    """bf16 peers train SdpaTransformer: its loss in f32 with dropout off is
    ReferenceTransformer's on the same parameters (bound 1e-5 relative,
    f32 round-off of a different summation order), and under bf16 autocast
    within 2% of it (bf16's 8-bit significand, rounding at each GEMM)."""
    import torch
    from torch_transformer import make_model
    c = dict(model_config("tiny"), dropout=0.0)
    torch.manual_seed(0)
    reference, sdpa = make_model(c), make_model(c, sdpa=True)
    sdpa.load_state_dict(reference.state_dict())
    inputs = [torch.from_numpy(x).long() for x in batch(c, 0)]
    want = reference(*inputs)[0].item()
    got = sdpa(*inputs)[0].item()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        got_bf16 = sdpa(*inputs)[0].item()
    ok = abs(got - want) <= 1e-5 * abs(want) and abs(got_bf16 - want) <= 2e-2 * abs(want)
    print(f"dry run: SdpaTransformer's loss {got:.6f} (bf16 autocast {got_bf16:.6f}), "
          f"ReferenceTransformer's {want:.6f}: {'ok' if ok else 'DIFFERENT'}")
    return ok


def parse_arguments():
    peers = "\n".join(f"  {name:<20} {precision:<5} {about}"
                      for name, (precision, _, about) in PEERS.items())
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="peers (PyTorch, fused Adam on f32 master weights):\n" + peers)
    parser.add_argument("--build", default=os.path.join(HERE, "..", "build"),
                        help="tc's build directory (bin/tc-compile, bin/tc-run)")
    parser.add_argument("--configs", default="base_short,base_gpu,base_paper",
                        help="comma-separated configurations of bench/models")
    parser.add_argument("--prebuilt", help="take DIR/NAME-P-cuda.tcx instead of compiling "
                                           "(for a GPU machine without tc-compile)")
    parser.add_argument("--precisions", default=",".join(PRECISIONS),
                        help="tc's rows, comma-separated: " + ", ".join(PRECISIONS))
    parser.add_argument("--warmup", type=int, default=5, help="unmeasured steps first (2 or more)")
    parser.add_argument("--steps", type=int, default=10, help="steps per timed window")
    parser.add_argument("--runs", type=int, default=3, help="timed windows per system")
    parser.add_argument("--peers", default=",".join(PEERS),
                        help="comma-separated, of those below (default: all)")
    parser.add_argument("--eager", action="store_true",
                        help="also each tc row with --eager-launches (rows NAME-eager): "
                             "one call per step instead of a CUDA graph's replay")
    parser.add_argument("--dry-run", action="store_true",
                        help="no GPU: each peer's model one step on the CPU (tiny), "
                             "the SDPA model against the reference, tc's predictions")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--device", default="cuda", help=argparse.SUPPRESS)
    args = parser.parse_args()
    # A child (one peer's process) takes what its parent passes: 1 in a dry run.
    if (args.warmup < 2 and not args.child) or args.warmup < 1 or args.steps < 1 \
            or args.runs < 1:
        parser.error("--warmup takes 2 or more (tc's first step loads the kernels, its "
                     "second captures the CUDA graph), --steps and --runs 1 or more")
    args.configs, args.peers = args.configs.split(","), args.peers.split(",")
    args.precisions = args.precisions.split(",")
    for given, known in ((args.peers, PEERS), (args.precisions, PRECISIONS)):
        unknown = [x for x in given if x not in known]
        if unknown:
            parser.error(f"unknown: {', '.join(unknown)} (known: {', '.join(known)})")
    if args.dry_run:
        args.warmup = args.steps = args.runs = 1
    return args


def main():
    args = parse_arguments()
    if args.child:
        return torch_child(args.configs[0], args.child, args.warmup, args.steps, args.runs,
                           args.device)
    if args.dry_run:
        return dry_run(args)

    gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                         capture_output=True, text=True, check=True).stdout.strip()
    print(f"GPU: {gpu}; medians of {args.runs} windows of {args.steps} steps "
          f"(min..max of the step time); pred.: tc-compile --stats --gpu; Nx: a peer's "
          f"step time over tc's (above 1, tc is faster)")
    header = (f"{'config':<11} {'system':<31}{'prec':<5}{'tokens/s':>10}{'step ms':>10}"
              f"{'spread ms':>15}{'TFLOP/s':>9}{'pred. ms':>11}{'/ pred':>8}")
    print(header)
    print("-" * len(header))
    ratios = {}
    with tempfile.TemporaryDirectory(prefix="tc-gpu-bench-") as work:
        for name in args.configs:
            times, versions, predicted = measure(args, name, gpu, work)
            median = print_rows(name, times, versions, predicted)
            # The least over the configurations: the goal holds at each.
            for precision, ratio in summarise(name, median, predicted).items():
                ratios[precision] = min(ratio, ratios.get(precision, ratio))
    for precision in ("tf32", "bf16"):
        if precision in ratios:
            print(f"ratio_gpu_{precision} {ratios[precision]:.3f}")
    if "f32" in ratios:
        print(f"ratio_gpu {ratios['f32']:.3f}")


if __name__ == "__main__":
    sys.exit(main())
