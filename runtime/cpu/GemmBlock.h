//===- GemmBlock.h - one task's part of a plan GEMM on the CPU ------------===//
//
// The CPU device splits a plan GEMM into blocks, one per OpenMP task (a
// batch index, or a block of rows or columns), and each GEMM kernel
// (CpuGemm.h) runs one block on the calling thread.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_GEMMBLOCK_H
#define TC_RUNTIME_CPU_GEMMBLOCK_H

#include <cstdint>

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

/// The epilogue's bias of a block with an f32 C, before its product: C
/// becomes beta C + bias (C is not read when beta is 0), and the product is
/// then added to it. Returns the beta the product runs with: the block's
/// without a bias, 1 with one.
float addBiasBeforeProduct(const GemmBlock &block);

/// The epilogue's ReLU of a block with an f32 C, after its product.
void applyRelu(const GemmBlock &block);

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_GEMMBLOCK_H
