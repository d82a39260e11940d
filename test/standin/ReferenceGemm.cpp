//===- ReferenceGemm.cpp - cuBLAS's GEMM by its definition ------------------===//

#include "Standin.h"

namespace standin {

void referenceGemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
                   float alpha, const float *a, int64_t lda, const float *b,
                   int64_t ldb, float beta, float *c, int64_t ldc,
                   const float *bias, bool relu) {
  // Column-major: element (i, j) of a matrix with leading dimension ld is
  // at i + j * ld; op(A)(i, l) is A(l, i) when transposed.
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double sum = 0;
      for (int64_t l = 0; l < k; ++l) {
        double x = transA ? a[l + i * lda] : a[i + l * lda];
        double y = transB ? b[j + l * ldb] : b[l + j * ldb];
        sum += x * y;
      }
      double value = alpha * sum;
      if (beta != 0) // with beta 0, C is not read (it may hold NaNs)
        value += double(beta) * c[i + j * ldc];
      if (bias)
        value += bias[i];
      if (relu && value < 0)
        value = 0;
      c[i + j * ldc] = float(value);
    }
}

} // namespace standin
