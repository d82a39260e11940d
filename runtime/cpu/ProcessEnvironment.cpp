//===- ProcessEnvironment.cpp - settings OpenBLAS and OpenMP read at load --===//

#include "runtime/cpu/ProcessEnvironment.h"

#include <cblas.h>

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

namespace tc::rt {
namespace {

/// The kernels OpenBLAS should use instead of its generic ones, or null.
const char *betterBlasKernels() {
  if (std::getenv("OPENBLAS_CORETYPE"))
    return nullptr; // the user's choice stands
  const char *chosen = openblas_get_corename();
  bool generic = chosen && (std::strcmp(chosen, "Prescott") == 0 ||
                            std::strcmp(chosen, "Core2") == 0 ||
                            std::strcmp(chosen, "Nehalem") == 0);
  if (!generic)
    return nullptr;
  return __builtin_cpu_supports("avx512f") ? "SkylakeX"
         : __builtin_cpu_supports("avx2")  ? "Haswell"
                                           : nullptr;
}

/// OpenMP threads for one of several ranks mpirun started on this host,
/// when the user did not choose: the cores this process may run on, shared
/// by those ranks (at least one); 0 when not started so.
int threadsPerLocalRank() {
  if (std::getenv("OMP_NUM_THREADS"))
    return 0;
  const char *local = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  int ranks = local ? std::atoi(local) : 0;
  cpu_set_t cpus;
  if (ranks < 2 || sched_getaffinity(0, sizeof cpus, &cpus) != 0)
    return 0;
  // Bound to its own cores (mpirun's default for 2 ranks), a rank uses them
  // all; bound to a socket or not at all, it shares them with the other
  // ranks there: the host's cores divided by its ranks, at most its own.
  int cores = CPU_COUNT(&cpus);
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (online > 0)
    cores = std::min<long>(cores, online / ranks);
  return std::max(cores, 1);
}

} // namespace

void configureProcessEnvironment(char **argv) {
  constexpr const char *kDone = "TC_PROCESS_ENVIRONMENT";
  if (std::getenv(kDone))
    return; // already re-executed once
  bool changed = false;
  if (const char *kernels = betterBlasKernels()) {
    setenv("OPENBLAS_CORETYPE", kernels, 1);
    changed = true;
  }
  if (!std::getenv("GOMP_SPINCOUNT") && !std::getenv("OMP_WAIT_POLICY")) {
    setenv("GOMP_SPINCOUNT", "10000", 1);
    changed = true;
  }
  if (int threads = threadsPerLocalRank()) {
    setenv("OMP_NUM_THREADS", std::to_string(threads).c_str(), 1);
    changed = true;
  }
  if (!changed)
    return;
  setenv(kDone, "1", 1);
  execv("/proc/self/exe", argv); // returns only on failure: keep going
}

} // namespace tc::rt
