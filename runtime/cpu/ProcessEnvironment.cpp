//===- ProcessEnvironment.cpp - settings OpenBLAS and OpenMP read at load --===//

#include "runtime/cpu/ProcessEnvironment.h"

#include <cblas.h>

#include <cstdlib>
#include <cstring>
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
  if (!changed)
    return;
  setenv(kDone, "1", 1);
  execv("/proc/self/exe", argv); // returns only on failure: keep going
}

} // namespace tc::rt
