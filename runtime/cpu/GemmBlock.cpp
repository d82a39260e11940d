//===- GemmBlock.cpp - one task's part of a plan GEMM on the CPU ----------===//

#include "runtime/cpu/GemmBlock.h"

#include <algorithm>

namespace tc::rt {

float addBiasBeforeProduct(const GemmBlock &g) {
  if (!g.bias)
    return g.beta;
  auto *out = static_cast<float *>(g.c);
  auto *bias = static_cast<const float *>(g.bias);
  for (int64_t r = 0; r < g.rows; ++r)
    for (int64_t j = 0; j < g.cols; ++j)
      out[r * g.ldc + j] =
          (g.beta == 0.0f ? 0.0f : g.beta * out[r * g.ldc + j]) + bias[j];
  return 1.0f;
}

void applyRelu(const GemmBlock &g) {
  auto *out = static_cast<float *>(g.c);
  for (int64_t r = 0; r < g.rows; ++r)
    for (int64_t j = 0; j < g.cols; ++j)
      out[r * g.ldc + j] = std::max(out[r * g.ldc + j], 0.0f);
}

} // namespace tc::rt
