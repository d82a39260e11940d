//===- CpuGemm.h - the CPU device's GEMM kernels by type ------------------===//
//
// The CPU device splits a plan GEMM into blocks, one per OpenMP task (a
// batch index, or a block of rows or columns), and runs each with the
// kernel its types choose from this table: f32 operands with f32 compute
// only, as sgemm (Sgemm.h) with the plan's bias and ReLU epilogue around it.
// An executable holding a GEMM of other types is refused when the device is
// made (tcx::checkGemmTypes).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_CPUGEMM_H
#define TC_RUNTIME_CPU_CPUGEMM_H

#include "runtime/cpu/Sgemm.h"
#include "runtime/format/GemmTypes.h"

#include <cstdint>
#include <vector>

namespace tc::rt {

/// One task's part of a plan GEMM, row-major: rows x cols of
/// C = act(alpha op(A) op(B) + beta C + bias), the pointers at the part's
/// first elements (of op(A)'s rows, op(B)'s columns, C and the bias).
struct GemmBlock {
  bool transposeA = false, transposeB = false;
  int64_t rows = 0, cols = 0, k = 0;
  float alpha = 1, beta = 0;
  const void *a = nullptr;
  int64_t lda = 0;
  const void *b = nullptr;
  int64_t ldb = 0;
  void *c = nullptr;
  int64_t ldc = 0;
  const void *bias = nullptr; ///< cols values of C's type, or null
  bool relu = false;
};

/// Runs `block` on the calling thread with `library`.
using GemmKernel = void (*)(SgemmLibrary library, const GemmBlock &block);

/// The kernel for GEMMs of `types`, or null when the CPU device has none.
GemmKernel cpuGemmKernel(const tcx::GemmTypes &types);

/// The types the CPU device runs GEMMs of.
std::vector<tcx::GemmTypes> cpuGemmTypes();

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_CPUGEMM_H
