"""Hurts one rank of a running data-parallel job and reports how it ended.

usage: fault.py kill|stop|terminate CHECKPOINT PIDS -- COMMAND...

Starts COMMAND (an mpirun job whose ranks run through rank.sh with
RANK_PIDS=PIDS), waits until CHECKPOINT exists (the job is training), then
sends rank 1 SIGKILL (it dies) or SIGSTOP (it hangs), or every rank
SIGTERM (a request to stop), and waits for the job to end. Prints the seconds it took (as "under 60 s" or "HUNG"), the exit
status, and what the job printed.
"""
import os
import signal
import subprocess
import sys
import time

action, checkpoint, pids = sys.argv[1:4]
command = sys.argv[sys.argv.index("--") + 1:]
os.makedirs(pids, exist_ok=True)
env = dict(os.environ, RANK_PIDS=pids)
job = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True,
                       start_new_session=True)
deadline = time.time() + 120
pid_file = os.path.join(pids, "pid.1")
while not (os.path.exists(checkpoint) and os.path.exists(pid_file)):
    if time.time() > deadline or job.poll() is not None:
        os.killpg(job.pid, signal.SIGKILL)
        print("the job did not start training:", job.communicate()[0])
        sys.exit(1)
    time.sleep(0.1)
victim = int(open(pid_file).read())
if action == "terminate":
    for rank in (0, 1):
        os.kill(int(open(os.path.join(pids, f"pid.{rank}")).read()),
                signal.SIGTERM)
else:
    os.kill(victim, signal.SIGKILL if action == "kill" else signal.SIGSTOP)
hurt = time.time()
try:
    output, _ = job.communicate(timeout=60)
    print("the job ended under 60 s after the signal")
except subprocess.TimeoutExpired:
    os.killpg(job.pid, signal.SIGKILL)
    output, _ = job.communicate()
    print("HUNG: the job still ran 60 s after the signal")
if action == "stop":
    try:
        os.kill(victim, signal.SIGKILL)  # never leave a stopped process
    except ProcessLookupError:
        pass
print("exit status", job.returncode)
print(output)
