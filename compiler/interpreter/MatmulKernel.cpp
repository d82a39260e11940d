//===- MatmulKernel.cpp - reference batched matrix product ----------------===//

#include "compiler/interpreter/Kernels.h"

namespace tc::ref {

Tensor matmul(const Tensor &lhs, const Tensor &rhs, bool transposeLhs,
              bool transposeRhs, const Shape &resultShape, DType resultType) {
  Tensor out(resultType, resultShape);
  size_t rank = resultShape.size();
  int64_t m = resultShape[rank - 2], n = resultShape[rank - 1];
  int64_t k = transposeLhs ? lhs.shape[lhs.shape.size() - 2] : lhs.shape.back();

  // Each operand is a batch of matrices; its batch dimensions broadcast to the
  // result's. Index the batches by their first element.
  Shape batch(resultShape.begin(), resultShape.end() - 2);
  Shape lhsBatch(lhs.shape.begin(), lhs.shape.end() - 2);
  Shape rhsBatch(rhs.shape.begin(), rhs.shape.end() - 2);
  BroadcastIndex lhsOf(lhsBatch, batch), rhsOf(rhsBatch, batch);
  int64_t lhsRows = lhs.shape[lhs.shape.size() - 2], lhsCols = lhs.shape.back();
  int64_t rhsRows = rhs.shape[rhs.shape.size() - 2], rhsCols = rhs.shape.back();

  for (int64_t b = 0; b < numElements(batch); ++b) {
    int64_t a0 = lhsOf(b) * lhsRows * lhsCols,
            b0 = rhsOf(b) * rhsRows * rhsCols;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0.0;
        for (int64_t p = 0; p < k; ++p) {
          double a = lhs.floats[a0 + (transposeLhs ? p * lhsCols + i
                                                   : i * lhsCols + p)];
          double c = rhs.floats[b0 + (transposeRhs ? j * rhsCols + p
                                                   : p * rhsCols + j)];
          sum += a * c;
        }
        out.set((b * m + i) * n + j, sum);
      }
  }
  return out;
}

} // namespace tc::ref
