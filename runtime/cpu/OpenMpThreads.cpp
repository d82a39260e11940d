//===- OpenMpThreads.cpp - the CPU device's threads, per calling thread ----===//

#include "runtime/cpu/OpenMpThreads.h"

#include <omp.h>

namespace tc::rt {

int openMpThreads() { return omp_get_max_threads(); }

void setOpenMpThreads(int threads) { omp_set_num_threads(threads); }

} // namespace tc::rt
