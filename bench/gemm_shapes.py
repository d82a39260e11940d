"""The truthful limit of a training step (issue 19): every GEMM of a
configuration's compiled training step, at its own shape, timed with each
sgemm this machine has — OpenBLAS and oneDNN (libdnnl-dev; tc's CPU
device uses one of the two, by the CPU: runtime/cpu/Sgemm.h) and BLIS
(Debian's libblis-dev) — at 1 and all threads. Prints each
library's time for the step's GEMMs and the rate it reaches on them (model
FLOPs of those GEMMs / time): the fastest is the best any step could do
with that library, the honest denominator of MFU.

A batched product (attention's batch x heads) is timed as its batch
entries one after another, each a call with the library's own threads.
Leading dimensions are the step's; transposes too.

    bench/run.sh gemm [--configs small,base_short] [--threads 1,2]
"""

import argparse
import collections
import ctypes
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run import environment  # noqa: E402
GEMM = re.compile(r"gemm m=(\d+) n=(\d+) k=(\d+) ([NT])([NT]) lda=(\d+) ldb=(\d+) "
                  r"ldc=(\d+) batch=\[([0-9,]*)\]")


def step_gemms(build, config, work):
    """(m, n, k, ta, tb, lda, ldb, ldc, batch count) -> calls, of the
    configuration's training step."""
    tcx = os.path.join(work, config + ".tcx")
    subprocess.run([os.path.join(build, "bin", "tc-compile"),
                    os.path.join(HERE, "models", config + ".toml"), "-o", tcx],
                   check=True, stderr=subprocess.DEVNULL)
    listing = subprocess.run([os.path.join(build, "bin", "tc-inspect"), tcx, "--steps"],
                             check=True, capture_output=True, text=True).stdout
    step = listing.split("train_step_", 1)[1].split("\n  encode_", 1)[0]
    shapes = collections.Counter()
    for m in GEMM.finditer(step):
        batch = 1
        for extent in filter(None, m.group(9).split(",")):
            batch *= int(extent)
        shapes[(int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4) == "T",
                m.group(5) == "T", int(m.group(6)), int(m.group(7)), int(m.group(8)),
                batch)] += 1
    return shapes


def library(name, threads):
    """A function sgemm(ta, tb, m, n, k, a, lda, b, ldb, c, ldc) (row-major)."""
    float_p = ctypes.POINTER(ctypes.c_float)
    if name in ("OpenBLAS", "BLIS"):
        lib = ctypes.CDLL("libopenblas.so.0" if name == "OpenBLAS" else "libblis.so.4")
        if name == "OpenBLAS":
            lib.openblas_set_num_threads(threads)
        else:
            lib.bli_thread_set_num_threads(ctypes.c_long(threads))

        def sgemm(ta, tb, m, n, k, a, lda, b, ldb, c, ldc):
            lib.cblas_sgemm(101, 112 if ta else 111, 112 if tb else 111, m, n, k,
                            ctypes.c_float(1.0), a, lda, b, ldb, ctypes.c_float(0.0), c, ldc)
        return sgemm
    lib = ctypes.CDLL("libdnnl.so.2")  # threads: OMP_NUM_THREADS (set by the parent)

    def sgemm(ta, tb, m, n, k, a, lda, b, ldb, c, ldc):
        lib.dnnl_sgemm(ctypes.c_char(b"T" if ta else b"N"), ctypes.c_char(b"T" if tb else b"N"),
                       ctypes.c_int64(m), ctypes.c_int64(n), ctypes.c_int64(k),
                       ctypes.c_float(1.0), a, ctypes.c_int64(lda), b, ctypes.c_int64(ldb),
                       ctypes.c_float(0.0), c, ctypes.c_int64(ldc))
    return sgemm


def time_shapes(name, threads, shapes):
    """Seconds of one step's GEMMs with library `name` (best of 3)."""
    import numpy as np
    sgemm = library(name, threads)
    total = 0.0
    ptr = ctypes.c_void_p
    for (m, n, k, ta, tb, lda, ldb, ldc, batch), calls in shapes.items():
        a = np.random.rand((k if ta else m) * lda + 64).astype(np.float32)
        b = np.random.rand((n if tb else k) * ldb + 64).astype(np.float32)
        c = np.zeros(m * ldc + 64, np.float32)
        args = (ta, tb, m, n, k, a.ctypes.data_as(ptr), lda, b.ctypes.data_as(ptr), ldb,
                c.ctypes.data_as(ptr), ldc)
        sgemm(*args)  # warm-up
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            for _ in range(batch):
                sgemm(*args)
            best = min(best, time.perf_counter() - start)
        total += best * calls
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", required=True)
    parser.add_argument("--configs", default="small,small_long,base_short")
    parser.add_argument("--threads", default=f"1,{os.cpu_count()}")
    parser.add_argument("--libraries", default="OpenBLAS,BLIS,oneDNN")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)  # library threads config
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tc-gemm-") as work:
        if args.child:
            name, threads, config = args.child
            shapes = step_gemms(args.build, config, work)
            print(time_shapes(name, int(threads), shapes))
            return
        print(f"{'config':<11}{'threads':>8} {'library':<9}{'GEMM ms/step':>13}{'GFLOP/s':>9}")
        for config in args.configs.split(","):
            shapes = step_gemms(args.build, config, work)
            flops = sum(2.0 * m * n * k * batch * calls
                        for (m, n, k, _, _, _, _, _, batch), calls in shapes.items())
            for threads in sorted({int(t) for t in args.threads.split(",")}):
                for name in args.libraries.split(","):
                    # run.py's: OMP_NUM_THREADS, and OpenBLAS's kernels
                    # for this CPU, as tc-run picks them.
                    env = dict(environment(threads), BLIS_NUM_THREADS=str(threads))
                    # Each library in a process of its own: no thread pool
                    # of one disturbs another's.
                    out = subprocess.run([sys.executable, os.path.abspath(__file__),
                                          "--build", args.build, "--child", name,
                                          str(threads), config],
                                         env=env, check=True, capture_output=True,
                                         text=True).stdout
                    seconds = float(out.strip().splitlines()[-1])
                    print(f"{config:<11}{threads:>8} {name:<9}{seconds * 1e3:>13.1f}"
                          f"{flops / seconds / 1e9:>9.1f}", flush=True)


if __name__ == "__main__":
    main()
