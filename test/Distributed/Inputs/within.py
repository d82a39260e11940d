"""Runs a command and fails, saying so, when it has not ended within SECONDS.

usage: within.py SECONDS COMMAND...  (exit status: the command's, or 124)
"""
import os
import signal
import subprocess
import sys

seconds = float(sys.argv[1])
job = subprocess.Popen(sys.argv[2:], start_new_session=True)
try:
    sys.exit(job.wait(timeout=seconds))
except subprocess.TimeoutExpired:
    os.killpg(job.pid, signal.SIGKILL)
    job.wait()
    print(f"within.py: the command did not end within {seconds:.0f} s",
          flush=True)
    sys.exit(124)
