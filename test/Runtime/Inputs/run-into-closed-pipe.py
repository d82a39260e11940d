#!/usr/bin/env python3
"""Runs a command whose standard output is a pipe nobody reads any more,
and prints its exit status and its standard error.

    run-into-closed-pipe.py COMMAND [ARGS...]
"""
import os
import subprocess
import sys

read_end, write_end = os.pipe()
os.close(read_end)
# restore_signals (the default) gives the child SIGPIPE's default action.
result = subprocess.run(sys.argv[1:], stdout=write_end, stderr=subprocess.PIPE)
print(f"exit {result.returncode}")
sys.stdout.write(result.stderr.decode())
