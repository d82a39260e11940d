//===- Sgemm.h - the CPU device's single-threaded f32 GEMM ----------------===//
//
// One row-major sgemm call on the calling thread, by the library chosen
// when the device is made: oneDNN's (libdnnl) or OpenBLAS's, whichever ran
// the training step's shapes faster on this kind of CPU (defaultSgemm), or
// the one TC_SGEMM names. The CPU device splits products across its
// OpenMP threads itself; each call here runs on one thread.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_SGEMM_H
#define TC_RUNTIME_CPU_SGEMM_H

#include "runtime/cpu/GemmBlock.h"

#include <cstdint>
#include <string>

namespace tc::rt {

enum class SgemmLibrary { OneDnn, OpenBlas };

/// The library for this CPU when TC_SGEMM is unset: oneDNN's where its
/// effective ISA has AVX-512, OpenBLAS's where it does not
/// (docs/performance.md, "The step's own GEMMs").
SgemmLibrary defaultSgemm();

/// The library TC_SGEMM names ("onednn", "openblas"; unset: defaultSgemm),
/// or false with `error` saying what it accepts.
bool chooseSgemm(SgemmLibrary &library, std::string &error);

/// "oneDNN 2.6.3 sgemm" or "OpenBLAS Haswell kernels": for describe().
std::string describeSgemm(SgemmLibrary library);

/// C = alpha op(A) op(B) + beta C, row-major, m x n x k, on this thread.
void sgemm(SgemmLibrary library, bool transposeA, bool transposeB, int64_t m,
           int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
           const float *b, int64_t ldb, float beta, float *c, int64_t ldc);

/// `block`, of f32 operands and an f32 C, as one sgemm call with the bias
/// and ReLU epilogue around it.
void sgemmBlock(SgemmLibrary library, const GemmBlock &block);

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_SGEMM_H
