//===- GpuStepModel.cpp - a training step's predicted time on a GPU ---------===//

#include "compiler/analysis/GpuStepModel.h"
#include "compiler/analysis/BufferAssignment.h"
#include "compiler/analysis/KernelCount.h"

#include <algorithm>

using namespace mlir;

namespace tc {

// NVIDIA's datasheets (dense rates: the tensor-core figures printed "with
// sparsity" halved): Tesla P100 PCIe 16 GB (the paper's GPU; the SXM2 part
// has 10.6 TFLOP/s), A100 SXM4 80 GB, H100 SXM5 80 GB ("NVIDIA H100 80GB
// HBM3", lent on 2026-11-24), H200 SXM 141 GB ("NVIDIA H200", lent on
// 2026-11-26: the H100's arithmetic with HBM3e at 4.8 TB/s).
static const GpuSpec kGpus[] = {
    {"p100", "Tesla P100 PCIe 16 GB", 9.3e12, 0, 0, 732e9},
    {"a100", "A100 SXM4 80 GB", 19.5e12, 156e12, 312e12, 2039e9},
    {"h100", "H100 SXM5 80 GB", 66.9e12, 494.7e12, 989.4e12, 3350e9},
    {"h200", "H200 SXM 141 GB", 66.9e12, 494.7e12, 989.4e12, 4800e9},
};

llvm::ArrayRef<GpuSpec> knownGpus() { return kGpus; }

const GpuSpec *findGpu(llvm::StringRef name) {
  for (const GpuSpec &gpu : kGpus)
    if (gpu.name == name)
      return &gpu;
  return nullptr;
}

double peakFlops(const GpuSpec &gpu, support::Precision precision) {
  switch (precision) {
  case support::Precision::F32:
    return gpu.f32Flops;
  case support::Precision::TF32:
    return gpu.tf32Flops;
  case support::Precision::BF16:
    return gpu.bf16Flops;
  }
  llvm_unreachable("a GEMM precision");
}

/// The precision a GEMM op runs in: bf16 for bf16 operands (a function
/// compiled in bf16), else `asked`.
static support::Precision gemmPrecision(Operation *gemm,
                                        support::Precision asked) {
  auto lhs = cast<ShapedType>(gemm->getOperand(0).getType());
  return lhs.getElementType().isBF16() ? support::Precision::BF16 : asked;
}

StepPrediction predictStep(func::FuncOp function, const GpuSpec &gpu,
                           support::Precision precision) {
  StepPrediction step;
  if (function.isExternal())
    return step;
  BufferAssignment assignment(function);
  // Without graphs: when the host has issued the launch, and when the GPU
  // is done with the ones before it.
  double issued = 0, gpuDone = 0;
  for (Operation &op : function.getBody().front()) {
    double flops, bytes, peak;
    std::string group;
    switch (assignment.stepOf(&op)) {
    case StepKind::None:
    case StepKind::Collective:
      continue;
    case StepKind::Gemm: {
      support::Precision gemm = gemmPrecision(&op, precision);
      // Asked of an f32 GEMM: bf16 would move its elements in 2 bytes.
      bool asked = gemm == support::Precision::BF16 &&
                   gemm != gemmPrecision(&op, support::Precision::F32);
      flops = double(gemmFlops(&op));
      bytes = double(trafficBytes(&op)) * (asked ? 0.5 : 1.0);
      peak = peakFlops(gpu, gemm) * kGemmEfficiency;
      group = "gemm";
      step.gemmFlops += flops;
      break;
    }
    case StepKind::Kernel:
      flops = double(kernelFlops(&op));
      bytes = double(trafficBytes(&op));
      peak = gpu.f32Flops;
      group = op.getName().getStringRef().str();
      break;
    }
    double memorySeconds = bytes / gpu.bandwidth;
    double computeSeconds = flops / peak;
    double seconds =
        std::max({memorySeconds, computeSeconds, kMinimumLaunchSeconds});
    if (seconds == kMinimumLaunchSeconds)
      ++step.launchBound;
    else if (memorySeconds >= computeSeconds)
      ++step.memoryBound;
    ++step.launches;
    step.seconds += seconds;
    issued += assignment.stepOf(&op) == StepKind::Gemm ? kHostGemmSeconds
                                                        : kHostKernelSeconds;
    gpuDone = std::max(gpuDone, issued) + seconds;
    step.secondsByOp[group] += seconds;
    if (assignment.stepOf(&op) == StepKind::Gemm)
      step.gemmSeconds += seconds;
  }
  step.eagerSeconds = gpuDone;
  step.seconds += kHostKernelSeconds; // cudaGraphLaunch
  return step;
}

} // namespace tc
