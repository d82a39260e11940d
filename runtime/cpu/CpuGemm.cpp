//===- CpuGemm.cpp - the CPU device's GEMM kernels by type ----------------===//

#include "runtime/cpu/CpuGemm.h"

#include <algorithm>

namespace tc::rt {
namespace {

/// f32 x f32 -> f32 with f32 compute: one sgemm call.
void f32Gemm(SgemmLibrary library, const GemmBlock &g) {
  auto *out = static_cast<float *>(g.c);
  auto *bias = static_cast<const float *>(g.bias);
  float beta = g.beta;
  if (bias) { // the epilogue's bias: C becomes beta * C + bias first
    for (int64_t r = 0; r < g.rows; ++r)
      for (int64_t j = 0; j < g.cols; ++j)
        out[r * g.ldc + j] =
            (beta == 0.0f ? 0.0f : beta * out[r * g.ldc + j]) + bias[j];
    beta = 1.0f;
  }
  sgemm(library, g.transposeA, g.transposeB, g.rows, g.cols, g.k, g.alpha,
        static_cast<const float *>(g.a), g.lda, static_cast<const float *>(g.b),
        g.ldb, beta, out, g.ldc);
  if (g.relu)
    for (int64_t r = 0; r < g.rows; ++r)
      for (int64_t j = 0; j < g.cols; ++j)
        out[r * g.ldc + j] = std::max(out[r * g.ldc + j], 0.0f);
}

struct Entry {
  tcx::GemmTypes types;
  GemmKernel kernel;
};

constexpr Entry kKernels[] = {
    {{tcx::DType::F32, tcx::DType::F32, tcx::DType::F32, tcx::GemmCompute::F32},
     f32Gemm},
};

} // namespace

GemmKernel cpuGemmKernel(const tcx::GemmTypes &types) {
  const Entry *entry = tcx::rowFor(kKernels, types);
  return entry ? entry->kernel : nullptr;
}

std::vector<tcx::GemmTypes> cpuGemmTypes() { return tcx::typesOf(kKernels); }

} // namespace tc::rt
