//===- GemmBlock.h - one task's part of a plan GEMM on the CPU ------------===//
//
// The CPU device splits a plan GEMM into blocks, one per OpenMP task (a
// run of batch indices, one batch index, or a block of rows or columns),
// and each GEMM kernel (CpuGemm.h) runs one block on the calling thread.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_GEMMBLOCK_H
#define TC_RUNTIME_CPU_GEMMBLOCK_H

#include <compare>
#include <cstdint>

namespace tc::rt {

/// The products of a block beyond its first, for a run of a batched plan
/// GEMM's indices: row-major batch dimensions, each with its operands'
/// strides in elements. Rank 0 is one product. A kernel runs a batch as one
/// oneDNN matmul where it can: attention's products are 16 x 16 x 64 to
/// 32 x 32 x 64, where a call per product costs 3x their arithmetic.
struct GemmBatch {
  static constexpr int kMaxRank = 3;
  int rank = 0;
  int64_t extent[kMaxRank] = {};
  int64_t strideA[kMaxRank] = {}, strideB[kMaxRank] = {},
          strideC[kMaxRank] = {};

  /// The number of products: the extents' product.
  int64_t count() const;
  auto operator<=>(const GemmBatch &) const = default;
};

/// One task's part of a plan GEMM, row-major: rows x cols of
/// C = act(alpha op(A) op(B) + beta C + bias), the pointers at the part's
/// first elements (of op(A)'s rows, op(B)'s columns, C and the bias), for
/// each product of `batch`.
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
  GemmBatch batch;
};

/// Product `index` (row-major over the batch, below batch.count()) of
/// `block` as a block of rank 0; `sizeA`, `sizeB` and `sizeC` are the bytes
/// of an element of A, B and C.
GemmBlock productOf(const GemmBlock &block, int64_t index, int64_t sizeA,
                    int64_t sizeB, int64_t sizeC);

/// The epilogue's bias of a block with an f32 C, before its product: C
/// becomes beta C + bias (C is not read when beta is 0), and the product is
/// then added to it. Returns the beta the product runs with: the block's
/// without a bias, 1 with one.
float addBiasBeforeProduct(const GemmBlock &block);

/// The epilogue's ReLU of a block with an f32 C, after its product.
void applyRelu(const GemmBlock &block);

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_GEMMBLOCK_H
