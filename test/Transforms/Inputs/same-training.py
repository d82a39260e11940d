"""Compiles MODEL.toml plainly and under a memory budget (with any further
tc-compile flags, such as --precision=bf16, for both), trains both for 4
steps with one seed, and says whether their losses and final parameters
are equal bit for bit (memory-budget.test). A bf16 executable runs with
--allow-slow-bf16, so that a CPU without bf16 instructions checks it too.

    same-training.py DIR NAME MODEL.toml BUDGET [TC-COMPILE FLAGS...]
"""
import json
import os
import subprocess
import sys

import numpy as np


def main():
    work, name, model, budget = sys.argv[1:5]
    compile_flags = sys.argv[5:]
    run_flags = (["--allow-slow-bf16"] if "--precision=bf16" in compile_flags
                 else [])
    losses, params = [], []
    for kind, flags in (("plain", []), ("budget", [f"--memory-budget={budget}"])):
        prefix = os.path.join(work, f"{name}-{kind}")
        run = lambda *args: subprocess.run(args, check=True,
                                           stderr=subprocess.DEVNULL)
        run("tc-compile", model, *flags, *compile_flags, "-o", prefix + ".tcx")
        run("tc-run", "train", prefix + ".tcx", *run_flags, "--steps", "4",
            "--seed", "3",
            "--checkpoint-dir", prefix, "--metrics", prefix + ".jsonl",
            "--quiet")
        run("tc-run", "export", prefix + ".tcx", "--checkpoint-dir", prefix,
            "-o", prefix + ".npz")
        losses.append([json.loads(line)["loss"] for line in open(prefix + ".jsonl")])
        params.append(np.load(prefix + ".npz"))
    a, b = params
    same = sorted(a) == sorted(b) and all(np.array_equal(a[k], b[k]) for k in a)
    print("losses", "equal" if losses[0] == losses[1] else f"differ {losses}",
          "parameters", "equal" if same else "differ", f"({len(a)} arrays)")


if __name__ == "__main__":
    main()
