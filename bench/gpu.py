"""tc's CUDA device against PyTorch on the same GPU: the training step of a
configuration of bench/models (f32 GEMMs, no TF32, on both), tc through
`tc-run train --device=cuda`, PyTorch eager (fused Adam) and torch.compile
through bench/torch_transformer.py.

Each system runs in its own process: the warm-up steps, then --runs windows
of --steps steps, timed apart (the median window and the spread). The last
line is `ratio_gpu`, the fastest peer's step time over tc's on the last
configuration. Beside the measurement: what `tc-compile --stats --gpu=NAME`
predicts for the GPU (compiler/analysis/GpuStepModel.h), when it is one the
model knows.

    bench/gpu.py --configs base_short,base_gpu          # compiles for this GPU
    bench/gpu.py --prebuilt DIR                         # DIR/NAME-cuda.tcx and
                                                        # DIR/NAME-stats-GPU.json

With --prebuilt, make the prediction where tc-compile is: `tc-compile
bench/models/NAME.toml --stats --gpu=GPU > DIR/NAME-stats-GPU.json` for
the GPU the machine has (scripts/gpu-bundle.sh makes h100 and h200).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run import batch, model_config, step_flops  # noqa: E402

PEERS = {"torch": [], "torch-compile": ["compiled"]}


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


def predicted_step_seconds(stats, c):
    """The f32 step time tc-compile --stats --gpu=NAME predicts for the
    training step of configuration `c`'s bucket."""
    step = f"train_step_{c['batch']}x{c['source_length']}x{c['target_length']}"
    return stats["gpu_prediction"]["steps"][step]["f32"]["step_ms"] / 1e3


def gpu_stats(build, name, gpu, prebuilt):
    """tc-compile --stats --gpu=GPU of configuration `name` (with --prebuilt,
    DIR/NAME-stats-GPU.json, made so where tc-compile is)."""
    if prebuilt:
        path = os.path.join(prebuilt, f"{name}-stats-{gpu}.json")
        return json.load(open(path)) if os.path.exists(path) else None
    out = subprocess.run([os.path.join(build, "bin", "tc-compile"),
                          os.path.join(HERE, "models", name + ".toml"), "--stats",
                          "--gpu=" + gpu], capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def run_tc(build, tcx, warmup, steps, runs, work):
    metrics = os.path.join(work, "tc.jsonl")
    if os.path.exists(metrics):
        os.remove(metrics)
    subprocess.run([os.path.join(build, "bin", "tc-run"), "train", tcx, "--device=cuda",
                    "--quiet", "--steps", str(warmup + runs * steps), "--metrics", metrics,
                    "--checkpoint-dir", os.path.join(work, "checkpoints-" + os.path.basename(tcx)),
                    "--checkpoint-every", "0"], check=True)
    # A step's line holds its loss (validation lines do not); window r
    # runs from the end of step warmup + r * steps (warmup >= 1).
    elapsed = [line["elapsed_seconds"] for line in map(json.loads, open(metrics))
               if "loss" in line]
    return [(elapsed[warmup + (r + 1) * steps - 1] - elapsed[warmup + r * steps - 1]) / steps
            for r in range(runs)]


def torch_child(name, warmup, steps, runs, options):
    import torch
    from torch_transformer import make_train_step
    torch.backends.cuda.matmul.allow_tf32 = False  # f32 GEMMs, as tc's
    torch.backends.cudnn.allow_tf32 = False
    torch.set_default_device("cuda")
    torch.manual_seed(0)
    c = model_config(name)
    step = make_train_step(c, fused=True, compiled="compiled" in options)
    src, tgt_in, tgt_out = (torch.from_numpy(x).long().cuda() for x in batch(c, 0))
    for _ in range(warmup):
        step(src, tgt_in, tgt_out)
    times = []
    for _ in range(runs):
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(steps):
            step(src, tgt_in, tgt_out)  # returns the loss: synchronises
        times.append((time.perf_counter() - start) / steps)
    print(json.dumps({"times": times, "version": torch.__version__.split("+")[0]}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(HERE, "..", "build"),
                        help="tc's build directory (bin/tc-compile, bin/tc-run)")
    parser.add_argument("--configs", default="base_short,base_gpu",
                        help="comma-separated configurations of bench/models")
    parser.add_argument("--prebuilt", help="take DIR/NAME-cuda.tcx instead of compiling "
                                           "(for a GPU machine without tc-compile)")
    parser.add_argument("--warmup", type=int, default=5, help="unmeasured steps first")
    parser.add_argument("--steps", type=int, default=10, help="steps per timed window")
    parser.add_argument("--runs", type=int, default=3, help="timed windows per system")
    parser.add_argument("--peers", default=",".join(PEERS),
                        help="comma-separated: " + ", ".join(PEERS))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.warmup < 1 or args.steps < 1 or args.runs < 1:
        parser.error("--warmup, --steps and --runs take 1 or more (the first step "
                     "includes loading the kernels)")
    configs = args.configs.split(",")
    if args.child:
        return torch_child(configs[0], args.warmup, args.steps, args.runs, PEERS[args.child])

    gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                         capture_output=True, text=True, check=True).stdout.strip()
    print(f"GPU: {gpu}; medians of {args.runs} windows of {args.steps} steps "
          f"(min..max of the step time); f32 GEMMs (no TF32)")
    header = (f"{'config':<11} {'system':<22}{'tokens/s':>10}{'step ms':>10}"
              f"{'spread ms':>15}{'/ tc':>7}{'TFLOP/s':>9}")
    print(header)
    print("-" * len(header))
    ratio = None
    with tempfile.TemporaryDirectory(prefix="tc-gpu-bench-") as work:
        for name in configs:
            c = model_config(name)
            tokens = c["batch"] * (c["source_length"] + c["target_length"])
            if args.prebuilt:
                tcx = os.path.join(args.prebuilt, name + "-cuda.tcx")
            else:
                tcx = os.path.join(work, name + ".tcx")
                subprocess.run([os.path.join(args.build, "bin", "tc-compile"),
                                os.path.join(HERE, "models", name + ".toml"), "-o", tcx,
                                "--target=cuda", "--arch=" + gpu_arch()], check=True)
            times = {"tc": run_tc(args.build, tcx, args.warmup, args.steps, args.runs, work)}
            versions = {"tc": ""}
            for peer in args.peers.split(","):
                out = subprocess.run(
                    [sys.executable, os.path.abspath(__file__), "--child", peer,
                     "--configs", name, "--warmup", str(args.warmup), "--steps",
                     str(args.steps), "--runs", str(args.runs)],
                    capture_output=True, text=True, check=True).stdout
                result = json.loads(out.strip().splitlines()[-1])
                times[peer], versions[peer] = result["times"], result["version"]
            median = {system: statistics.median(t) for system, t in times.items()}
            for system, t in times.items():
                seconds = median[system]
                print(f"{name:<11} {(system + ' ' + versions[system]).strip():<22}"
                      f"{tokens / seconds:>10.0f}{seconds * 1e3:>10.2f}"
                      f"{f'{min(t) * 1e3:.2f}..{max(t) * 1e3:.2f}':>15}"
                      f"{seconds / median['tc']:>7.2f}{step_flops(c) / seconds / 1e12:>9.1f}")
            ratio = min(s for system, s in median.items() if system != "tc") / median["tc"]
            print(f"{name:<11} tc / the fastest peer: {ratio:.2f}x; "
                  f"model FLOPs/step {step_flops(c) / 1e9:.1f} G, {tokens} tokens/step")
            modelled = model_gpu(gpu)
            stats = modelled and gpu_stats(args.build, name, modelled, args.prebuilt)
            if stats:
                predicted = predicted_step_seconds(stats, c)
                print(f"{name:<11} tc-compile --gpu={modelled} "
                      f"({stats['gpu_prediction']['product']}) predicts "
                      f"{predicted * 1e3:.2f} ms (f32 GEMMs); tc measured / predicted: "
                      f"{median['tc'] / predicted:.2f}")
    print(f"ratio_gpu {ratio:.3f}")


if __name__ == "__main__":
    main()
