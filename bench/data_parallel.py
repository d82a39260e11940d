"""Data parallelism on this machine's cores (issue 18): the same global batch
trained by one process of 2 threads (accumulating 2 micro-batches per step)
and by 2 ranks of 1 thread each (mpirun -np 2, one micro-batch each, the
gradients summed by MPI), on the small configuration (bench/models/small.toml).

Both do the same arithmetic per step; the ranks add a sum of the gradients
(in buckets, overlapping the backward) and lose the threads' sharing of one
step's kernels. It prints, for each, source+target tokens per second over the
steps after the first two (median of --runs runs and their spread), the ratio
of the ranks' to the process's, and the share of rank 0's profiled time it
waited for the sums (plan.wait, `tc-run --profile`).

    bench/run.sh data-parallel [--runs 3] [--steps 12]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

MPI_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
}


def steady_tokens_per_second(metrics_path, skip=2):
    """Tokens per second over the steps after the first `skip` (whose time
    holds start-up), from the cumulative figures of the metrics file."""
    rows = [json.loads(line) for line in open(metrics_path)]
    first, last = rows[skip - 1], rows[-1]
    tokens = (last["tokens_per_second"] * last["elapsed_seconds"]
              - first["tokens_per_second"] * first["elapsed_seconds"])
    return tokens / (last["elapsed_seconds"] - first["elapsed_seconds"])


def wait_share(profile_path):
    """Rank 0's share of its device time spent in plan.wait."""
    profile = json.load(open(profile_path))
    waited = sum(e["seconds"] for e in profile["entries"]
                 if e["name"] == "allreduce wait")
    return waited / profile["device_seconds"]


def train(build, executable, work, steps, ranks, threads, tag):
    metrics = os.path.join(work, tag + ".jsonl")
    profile = os.path.join(work, tag + ".profile.json")
    for path in (metrics, profile):
        if os.path.exists(path):
            os.remove(path)
    command = [os.path.join(build, "bin", "tc-run"), "train", executable,
               "--steps", str(steps), "--metrics", metrics, "--quiet",
               "--profile", profile]
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), **MPI_ENV)
    if ranks > 1:
        command = ["mpirun", "-np", str(ranks), "--bind-to", "core"] + command
    subprocess.run(command, env=env, check=True, stderr=subprocess.DEVNULL)
    return steady_tokens_per_second(metrics), wait_share(profile)


def describe(values):
    median = statistics.median(values)
    return f"{median:8.0f} ({min(values):.0f}..{max(values):.0f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--steps", type=int, default=12)
    args = parser.parse_args()
    compile_ = os.path.join(args.build, "bin", "tc-compile")
    work = tempfile.mkdtemp(prefix="tc-bench-dp-")
    model = open(os.path.join(HERE, "models", "small.toml")).read()
    accumulating = model.replace("[training]", "[training]\naccumulation_steps = 2")
    paths = {}
    for tag, text in (("k1", model), ("k2", accumulating)):
        description = os.path.join(work, tag + ".toml")
        open(description, "w").write(text)
        paths[tag] = os.path.join(work, tag + ".tcx")
        subprocess.run([compile_, description, "-o", paths[tag]], check=True,
                       stderr=subprocess.DEVNULL)
    results = {"process": [], "ranks": [], "wait": []}
    for run in range(args.runs):
        # Alternated, so that a slow spell of the machine hits both.
        speed, _ = train(args.build, paths["k2"], work, args.steps, 1, 2, "process")
        results["process"].append(speed)
        speed, waited = train(args.build, paths["k1"], work, args.steps, 2, 1, "ranks")
        results["ranks"].append(speed)
        results["wait"].append(waited)
        print(f"run {run + 1}: 1 process x 2 threads {results['process'][-1]:.0f} "
              f"tokens/s; 2 ranks x 1 thread {speed:.0f} tokens/s, "
              f"rank 0 waited {100 * waited:.1f}% of its device time",
              file=sys.stderr)
    ratios = [r / p for r, p in zip(results["ranks"], results["process"])]
    print(f"small configuration, global batch 2 x 32 sentences, {args.steps} "
          f"steps, median of {args.runs} runs (min..max):")
    print(f"  1 process x 2 threads (accumulation 2): {describe(results['process'])} tokens/s")
    print(f"  2 ranks x 1 thread (mpirun):           {describe(results['ranks'])} tokens/s")
    waits = [100 * w for w in results["wait"]]
    print(f"  rank 0 waiting for the sums: {statistics.median(waits):.1f}% "
          f"({min(waits):.1f}..{max(waits):.1f}%) of its device time")
    print(f"ratio_ranks_to_process {statistics.median(ratios):.3f} "
          f"({min(ratios):.3f}..{max(ratios):.3f})")


if __name__ == "__main__":
    main()
