//===- BlasKernels.h - make OpenBLAS use the CPU's vector units -----------===//
//
// OpenBLAS picks its kernels from the CPUID model at load time. Debian 12's
// 0.3.21 does not know recent Xeons (a virtualised "Intel(R) Xeon(R)
// Processor" with AVX-512) and falls back to its SSE3 "Prescott" kernels,
// about 3x slower here. The choice can only be overridden by
// OPENBLAS_CORETYPE before the library loads, so a tool that finds the
// fallback on a CPU with AVX2 or AVX-512 sets it and re-executes itself once.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_BLASKERNELS_H
#define TC_RUNTIME_BLASKERNELS_H

namespace tc::rt {

/// Re-executes the program (argv) with OPENBLAS_CORETYPE set when OpenBLAS
/// chose generic kernels on a CPU with AVX2 or AVX-512; returns otherwise
/// (also when OPENBLAS_CORETYPE is already set: the user's choice stands).
void useVectorBlasKernels(char **argv);

/// OpenBLAS's kernel family ("SkylakeX", "Haswell", "Prescott", ...).
const char *blasKernels();

} // namespace tc::rt

#endif // TC_RUNTIME_BLASKERNELS_H
