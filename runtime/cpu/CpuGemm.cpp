//===- CpuGemm.cpp - the CPU device's GEMM kernels by type ----------------===//

#include "runtime/cpu/CpuGemm.h"

namespace tc::rt {
namespace {

/// f32 x f32 -> f32 with f32 compute: one sgemm call a product. (A batch
/// as one oneDNN matmul, as bf16 runs, measured no faster in f32 on a
/// Zen 5: its f32 kernel for attention's strided operands is a gemm a
/// product, as sgemm is.)
void f32Gemm(const GemmLibraries &libraries, const GemmBlock &g) {
  for (int64_t i = 0, n = g.batch.count(); i < n; ++i)
    sgemmBlock(libraries.sgemm,
               productOf(g, i, sizeof(float), sizeof(float), sizeof(float)));
}

/// bf16 x bf16 -> f32 with f32 compute (an f32 bias).
void bf16Gemm(const GemmLibraries &libraries, const GemmBlock &g) {
  libraries.bf16->run(g);
}

/// bf16 x bf16 -> bf16 with f32 compute: the sums rounded as they are
/// stored (no bias).
void bf16NarrowedGemm(const GemmLibraries &libraries, const GemmBlock &g) {
  libraries.bf16->runNarrowed(g);
}

struct Entry {
  tcx::GemmTypes types;
  GemmKernel kernel;
};

using tcx::DType;
constexpr Entry kKernels[] = {
    {{DType::F32, DType::F32, DType::F32, tcx::GemmCompute::F32}, f32Gemm},
    {{DType::BF16, DType::BF16, DType::F32, tcx::GemmCompute::F32}, bf16Gemm},
    {{DType::BF16, DType::BF16, DType::BF16, tcx::GemmCompute::F32},
     bf16NarrowedGemm},
};

} // namespace

GemmKernel cpuGemmKernel(const tcx::GemmTypes &types) {
  const Entry *entry = tcx::rowFor(kKernels, types);
  return entry ? entry->kernel : nullptr;
}

std::vector<tcx::GemmTypes> cpuGemmTypes() { return tcx::typesOf(kKernels); }

} // namespace tc::rt
