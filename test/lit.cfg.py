# lit configuration of tc's regression tests. ctest runs each test file as one
# ctest test (see test/CMakeLists.txt); `lit-22 build/test` runs them all.
import os
import lit.formats

config.name = "tc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tc_binary_dir, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

# tc's tools first, then LLVM's FileCheck, not, count, split-file.
config.environment["PATH"] = os.pathsep.join(
    [config.tc_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
# Numeric references use Debian's Python, which has python3-torch and numpy.
config.substitutions.append(("%python", config.python_reference))
# The real sacreBLEU (PyPI, pinned) lives in a venv of the build tree that
# scripts/test-venv.sh makes; score-sacrebleu.test fails, saying so, without it.
config.substitutions.append(("%venv-python", os.path.join(
    config.tc_binary_dir, "test-venv", "bin", "python3")))
config.substitutions.append(("%tc_src", config.tc_source_dir))
# ctest runs tests in parallel, one per core: each test's kernels and GEMMs
# run on one OpenMP thread, so that threads of different tests do not
# spin-wait against each other for the cores (which made a one-minute test
# take ten). The GoogleTest suites keep the default thread count.
config.environment["OMP_NUM_THREADS"] = os.environ.get("TC_TEST_THREADS", "1")
# Compiled kernels are cached per test tree, not in the user's home.
config.environment["TC_CACHE_DIR"] = os.path.join(config.tc_binary_dir, "test", "kernel-cache")
# The CUDA device plug-in exists when tc was built with the CUDA toolkit; a
# GPU is there when the driver created its device nodes.
if os.path.exists(os.path.join(config.tc_binary_dir, "lib", "tc-cuda-device.so")):
    config.available_features.add("cuda-device")
# The stand-in CUDA libraries (test/standin) run the real plug-in without a
# GPU: %standin puts them first on the library path; %simt-kernels builds a
# model's kernels for them.
import glob
standin = os.path.join(config.tc_binary_dir, "test", "standin", "lib")
if glob.glob(os.path.join(standin, "libcudart.so.*")):
    config.available_features.add("cuda-standin")
config.substitutions.append(("%standin", "env LD_LIBRARY_PATH=" + os.pathsep.join(
    [standin] + ([os.environ["LD_LIBRARY_PATH"]] if os.environ.get("LD_LIBRARY_PATH") else []))))
config.substitutions.append(("%tc_lib", os.path.join(config.tc_binary_dir, "lib")))
config.substitutions.append(("%simt-kernels", os.path.join(
    config.tc_source_dir, "test", "standin", "simt-kernels.sh")))
if os.path.exists("/dev/nvidia0"):
    config.available_features.add("gpu")
if os.path.exists("/dev/nvidia1"):
    config.available_features.add("gpus-2")
# Data-parallel tests run ranks with Open MPI's mpirun when the MPI plug-in
# was built: as root too (CI runs as root), never bound to cores (ctest runs
# other tests beside them), and without the single-copy shared-memory path,
# which containers' ptrace rules refuse.
import shutil
if shutil.which("mpirun") and os.path.exists(
        os.path.join(config.tc_binary_dir, "lib", "tc-mpi-collective.so")):
    config.available_features.add("mpi")
config.substitutions.append(("%mpirun", "mpirun --bind-to none"))
for name, value in [("OMPI_ALLOW_RUN_AS_ROOT", "1"),
                    ("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"),
                    ("OMPI_MCA_rmaps_base_oversubscribe", "1"),
                    ("OMPI_MCA_btl_vader_single_copy_mechanism", "none")]:
    config.environment[name] = value
# bench/gpu.py --dry-run needs the current PyTorch of build/bench-peers-venv
# (bench/run.sh makes it; test/bench/gpu-dry-run.test is unsupported without).
bench_peers = os.path.join(config.tc_binary_dir, "bench-peers-venv")
if glob.glob(os.path.join(bench_peers, "lib", "python3*", "site-packages", "torch",
                          "__init__.py")):
    config.available_features.add("bench-peers")
config.substitutions.append(("%bench-peers-python", os.path.join(bench_peers, "bin", "python")))
# The two-host test makes network namespaces: root and iproute2.
if os.geteuid() == 0 and shutil.which("ip"):
    config.available_features.add("root")
# tc-run translate --compute-type bf16 needs bf16 GEMM instructions
# (AVX512-BF16 or AMX); the tests that run it are unsupported elsewhere.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        flags = next((line.split(":", 1)[1].split() for line in cpuinfo
                      if line.startswith("flags")), [])
except OSError:
    flags = []
if "avx512_bf16" in flags or "amx_bf16" in flags:
    config.available_features.add("cpu-bf16")
# The CPU device's default sgemm library follows AVX-512 (runtime/cpu/Sgemm.h).
if "avx512f" in flags:
    config.available_features.add("cpu-avx512")
# int8 weight GEMMs run on tc's AVX2 panels where oneDNN 2.6 keeps no packed
# weight: on AVX2 without AVX-512 (runtime/cpu/PreparedGemms.h). With
# AVX-512 oneDNN's brgemm may keep one, shape by shape.
if "avx2" in flags and "fma" in flags and "avx512f" not in flags:
    config.available_features.add("int8-panels")
