#!/usr/bin/env python3
"""Points every output flag of every tc command at every file of a run's
checkpoint directory (and at names the run will write there), each with
--overwrite where the command has it, and checks that each is refused with
exit 2 and that the directory is byte for byte as it was (issue 29: one
output policy). Prints one line per command that was not refused, then
`refused N of N`.

    try-outputs.py RUN_DIR COMMAND_TEMPLATE...

Each template is a shell command in which {out} is replaced by the path.
"""
import hashlib
import os
import subprocess
import sys

run, templates = sys.argv[1], sys.argv[2:]


def snapshot():
    files = {}
    for name in sorted(os.listdir(run)):
        path = os.path.join(run, name)
        with open(path, "rb") as f:
            files[name] = (os.stat(path).st_ino,
                           hashlib.sha256(f.read()).hexdigest())
    return files


# Every file there now, and names the run writes later: a numbered
# checkpoint of a future step and a temporary of a checkpoint write.
names = sorted(os.listdir(run)) + ["checkpoint-00009999.tcck",
                                   "checkpoint.tcck.tmp.1"]
before = snapshot()
tried = refused = 0
for template in templates:
    for name in names:
        out = os.path.join(run, name)
        command = template.replace("{out}", out)
        done = subprocess.run(command, shell=True, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        tried += 1
        after = snapshot()
        if done.returncode == 2 and "error:" in done.stderr and after == before:
            refused += 1
        else:
            print(f"not refused (exit {done.returncode}): {command}")
            before = after
print(f"refused {refused} of {tried}")
