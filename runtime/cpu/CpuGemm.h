//===- CpuGemm.h - the CPU device's GEMM kernels by type ------------------===//
//
// The CPU device splits a plan GEMM into blocks (GemmBlock.h), one per
// OpenMP task, and runs each with the kernel its types choose from this
// table: f32 x f32 -> f32 as sgemm (Sgemm.h), bf16 x bf16 -> f32 by
// oneDNN's matmul or widened to f32 (Bf16Gemm.h), both with f32 compute and
// the plan's bias and ReLU epilogue, and bf16 x bf16 -> bf16 (f32 sums
// rounded as they are stored, no bias). An executable holding a GEMM of other
// types is refused when the device is made (tcx::checkGemmTypes).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_CPUGEMM_H
#define TC_RUNTIME_CPU_CPUGEMM_H

#include "runtime/cpu/Bf16Gemm.h"
#include "runtime/cpu/GemmBlock.h"
#include "runtime/cpu/Sgemm.h"
#include "runtime/format/GemmTypes.h"

#include <vector>

namespace tc::rt {

/// What the kernels run with: the device's sgemm library and its bf16
/// GEMMs (their cached oneDNN primitives).
struct GemmLibraries {
  SgemmLibrary sgemm = SgemmLibrary::OneDnn;
  Bf16Gemm *bf16 = nullptr;
};

/// Runs `block` on the calling thread with `libraries`.
using GemmKernel = void (*)(const GemmLibraries &libraries,
                            const GemmBlock &block);

/// The kernel for GEMMs of `types`, or null when the CPU device has none.
GemmKernel cpuGemmKernel(const tcx::GemmTypes &types);

/// The types the CPU device runs GEMMs of.
std::vector<tcx::GemmTypes> cpuGemmTypes();

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_CPUGEMM_H
