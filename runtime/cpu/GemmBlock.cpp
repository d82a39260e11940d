//===- GemmBlock.cpp - one task's part of a plan GEMM on the CPU ----------===//

#include "runtime/cpu/GemmBlock.h"

#include <algorithm>

namespace tc::rt {

int64_t GemmBatch::count() const {
  int64_t products = 1;
  for (int d = 0; d < rank; ++d)
    products *= extent[d];
  return products;
}

GemmBlock productOf(const GemmBlock &block, int64_t index, int64_t sizeA,
                    int64_t sizeB, int64_t sizeC) {
  const GemmBatch &batch = block.batch;
  int64_t oa = 0, ob = 0, oc = 0;
  for (int d = batch.rank; d-- > 0;) { // the batch index, row-major
    int64_t i = index % batch.extent[d];
    index /= batch.extent[d];
    oa += i * batch.strideA[d];
    ob += i * batch.strideB[d];
    oc += i * batch.strideC[d];
  }
  GemmBlock product = block;
  product.batch = {};
  product.a = static_cast<const uint8_t *>(block.a) + oa * sizeA;
  product.b = static_cast<const uint8_t *>(block.b) + ob * sizeB;
  product.c = static_cast<uint8_t *>(block.c) + oc * sizeC;
  return product;
}

// Both loops read the block's fields into locals first: a store through a
// float pointer may alias the block's float beta, which kept the compiler
// from vectorising them (6 ms of small's bf16 step on one Zen 5 thread).

float addBiasBeforeProduct(const GemmBlock &g) {
  if (!g.bias)
    return g.beta;
  auto *out = static_cast<float *>(g.c);
  const auto *bias = static_cast<const float *>(g.bias);
  const float beta = g.beta;
  const int64_t rows = g.rows, cols = g.cols, ldc = g.ldc;
  for (int64_t r = 0; r < rows; ++r) {
    float *row = out + r * ldc;
    if (beta == 0.0f) // C is not read
      for (int64_t j = 0; j < cols; ++j)
        row[j] = bias[j];
    else
      for (int64_t j = 0; j < cols; ++j)
        row[j] = beta * row[j] + bias[j];
  }
  return 1.0f;
}

void applyRelu(const GemmBlock &g) {
  auto *out = static_cast<float *>(g.c);
  const int64_t rows = g.rows, cols = g.cols, ldc = g.ldc;
  for (int64_t r = 0; r < rows; ++r) {
    float *row = out + r * ldc;
    for (int64_t j = 0; j < cols; ++j)
      row[j] = std::max(row[j], 0.0f);
  }
}

} // namespace tc::rt
