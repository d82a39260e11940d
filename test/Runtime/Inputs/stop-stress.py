"""Stops training runs with SIGTERM, many times, and checks each stop.

usage: stop-stress.py [--ranks N] [--mpirun CMD] [--delay LOW HIGH] [--seed S]
                      RUNS MODEL.tcx CHECKPOINT_DIR [-- TRAIN_ARGS...]

Runs `tc-run train MODEL.tcx --checkpoint-dir CHECKPOINT_DIR TRAIN_ARGS`
RUNS times (the first fresh, the others with --resume; with --ranks N as N
ranks under mpirun). Each run gets SIGTERM after a random delay (uniform in
[LOW, HIGH] seconds; to every rank for a data-parallel job, as a scheduler
sends it); a run must then end within 60 s with exit status 143 and the line
"stopped at step K; checkpoint written", and the checkpoint must hold step K
(`tc-run eval` loads it: header, fingerprint and checksums). Prints one line
a run and a summary line "clean: C of RUNS"; exits 1 unless every run was
clean. A crash (a signal such as SIGSEGV or SIGABRT, glibc's heap messages)
shows as a wrong exit status and the run's last output.
"""
import argparse
import os
import random
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

parser = argparse.ArgumentParser()
parser.add_argument("--ranks", type=int, default=1)
parser.add_argument("--mpirun", default="mpirun --bind-to none")
parser.add_argument("--delay", type=float, nargs=2, default=(1.0, 4.0))
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("runs", type=int)
parser.add_argument("model")
parser.add_argument("checkpoint_dir")
parser.add_argument("train_args", nargs=argparse.REMAINDER)
args = parser.parse_args()
train_args = [a for a in args.train_args if a != "--"]
random.seed(args.seed)
pid_dir = tempfile.mkdtemp(prefix="stop-stress-")
# A rank writes its PID before it becomes tc-run, so each can be signalled.
rank_sh = os.path.join(pid_dir, "rank.sh")
with open(rank_sh, "w") as f:
    f.write('#!/bin/sh\necho $$ > "$RANK_PIDS/pid.$OMPI_COMM_WORLD_RANK"\n'
            'exec "$@"\n')
os.chmod(rank_sh, 0o755)


def rank_pids():
    pids = []
    for rank in range(args.ranks):
        try:
            pids.append(int(open(os.path.join(pid_dir, f"pid.{rank}")).read()))
        except (OSError, ValueError):
            return None
    return pids


def one_run(index):
    train = ["tc-run", "train", args.model, "--checkpoint-dir",
             args.checkpoint_dir] + train_args
    if index > 0:
        train.append("--resume")
    for name in os.listdir(pid_dir):
        if name.startswith("pid."):
            os.remove(os.path.join(pid_dir, name))
    if args.ranks > 1:
        command = shlex.split(args.mpirun) + ["-np", str(args.ranks),
                                              rank_sh] + train
    else:
        command = train
    job = subprocess.Popen(command, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True,
                           env=dict(os.environ, RANK_PIDS=pid_dir),
                           start_new_session=True)
    delay = random.uniform(*args.delay)
    time.sleep(delay)
    if args.ranks > 1:
        pids = rank_pids()
        while pids is None and job.poll() is None:
            time.sleep(0.05)
            pids = rank_pids()
        for pid in pids or []:
            os.kill(pid, signal.SIGTERM)
    elif job.poll() is None:
        job.send_signal(signal.SIGTERM)
    try:
        output, _ = job.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(job.pid, signal.SIGKILL)
        output, _ = job.communicate()
        return False, f"HUNG 60 s after SIGTERM at {delay:.2f} s", output
    status = job.returncode
    stopped = re.search(r"stopped at step (\d+); checkpoint written", output)
    if status != 143 or not stopped:
        return False, f"exit {status} after SIGTERM at {delay:.2f} s", output
    step = int(stopped.group(1))
    check = subprocess.run(
        ["tc-run", "eval", args.model, "--checkpoint-dir",
         args.checkpoint_dir, "--synthetic", "copy", "--sequences", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    loaded = re.search(r"checkpoint at step (\d+)", check.stdout)
    if check.returncode != 0 or not loaded or int(loaded.group(1)) != step:
        return False, f"stopped at step {step}, checkpoint unusable", \
            check.stdout
    return True, f"exit 143 at step {step} after SIGTERM at {delay:.2f} s", ""


clean = 0
for index in range(args.runs):
    ok, summary, output = one_run(index)
    clean += ok
    print(f"run {index + 1}: {'clean' if ok else 'FAILED'}: {summary}",
          flush=True)
    if not ok:
        print("  " + "\n  ".join(output.strip().splitlines()[-8:]), flush=True)
        if not os.path.exists(os.path.join(args.checkpoint_dir,
                                           "checkpoint.tcck")):
            break  # nothing to resume from
print(f"clean: {clean} of {args.runs}")
sys.exit(0 if clean == args.runs else 1)
