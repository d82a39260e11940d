"""Which of the CUDA runtime, cuBLAS, cuBLASLt and NCCL entry points that
tc's CUDA plug-in imports (nm -D --undefined-only) the stand-in libraries
saw called (the TC_STANDIN_CALLS logs: "NAME COUNT" lines, appended by
every process). Prints each with its calls; fails when one was never
called.

    standin-coverage.py tc-cuda-device.so CALLS...
"""
import collections
import subprocess
import sys

plugin, logs = sys.argv[1], sys.argv[2:]
symbols = subprocess.run(["nm", "-D", "--undefined-only", plugin], check=True,
                         capture_output=True, text=True).stdout.split()
imported = sorted({s.split("@")[0] for s in symbols
                   if s.startswith(("cuda", "cublas", "nccl"))})
calls = collections.Counter()
for log in logs:
    for line in open(log):
        name, count = line.split()
        calls[name] += int(count)
for name in imported:
    print(f"{name} {calls[name]}")
missing = [name for name in imported if calls[name] == 0]
print(f"{len(imported) - len(missing)} of {len(imported)} entry points called"
      + (f"; never: {', '.join(missing)}" if missing else ""))
sys.exit(1 if missing else 0)
