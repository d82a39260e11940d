//===- BlasKernels.cpp - make OpenBLAS use the CPU's vector units ---------===//

#include "runtime/BlasKernels.h"

#include <cblas.h>

#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace tc::rt {

const char *blasKernels() { return openblas_get_corename(); }

void useVectorBlasKernels(char **argv) {
  if (std::getenv("OPENBLAS_CORETYPE"))
    return;
  const char *chosen = openblas_get_corename();
  bool generic = chosen && (std::strcmp(chosen, "Prescott") == 0 ||
                            std::strcmp(chosen, "Core2") == 0 ||
                            std::strcmp(chosen, "Nehalem") == 0);
  const char *better = __builtin_cpu_supports("avx512f") ? "SkylakeX"
                       : __builtin_cpu_supports("avx2")  ? "Haswell"
                                                         : nullptr;
  if (!generic || !better)
    return;
  setenv("OPENBLAS_CORETYPE", better, 1);
  execv("/proc/self/exe", argv); // returns only on failure: keep going
}

} // namespace tc::rt
