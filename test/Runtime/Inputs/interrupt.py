"""Runs a command, sends it a signal after some seconds, and prints its exit
status as `exit N` (128 + signal for a process ended by one) once it is
done; its stdout and stderr go to LOG. SIGINT is at its default in the
command (a shell's background jobs ignore it). Kills the command if it is
not done within two minutes of the signal.

    interrupt.py INT|TERM SECONDS LOG COMMAND...
"""
import signal
import subprocess
import sys
import time

name, seconds, log, command = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4:]
with open(log, "w") as out:
    process = subprocess.Popen(
        command, stdout=out, stderr=subprocess.STDOUT,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(seconds)
    process.send_signal(getattr(signal, "SIG" + name))
    try:
        status = process.wait(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        status = process.wait()
print("exit", 128 - status if status < 0 else status)
