//===- GpuStepModel.h - a training step's predicted time on a GPU -----------===//
//
// `tc-compile --stats --gpu=NAME`: what a function's steps would take on a
// datasheet GPU, before any GPU runs it. Each step the buffer assignment
// makes (compiler/analysis/BufferAssignment.h) is one launch on one stream,
// timed as the largest of
//
//   * its bytes (KernelCount.h's trafficBytes) over the memory bandwidth,
//   * its FLOPs over the peak rate: a GEMM's at kGemmEfficiency of the peak
//     of its precision, a generated kernel's at the f32 (CUDA core) peak,
//   * kMinimumLaunchSeconds, what one launch costs on a stream however
//     little it does,
//
// and the step is their sum (tc's CUDA device runs them in order) plus the
// host's one call that replays them as a CUDA graph (a kernel launch's).
// Without graphs (tc-run --eager-launches, a data-parallel job) the host
// issues each launch in turn (kHostKernelSeconds, kHostGemmSeconds), and a
// launch starts once it is issued and the one before it has ended: a step of
// many short launches is the host's time (eagerSeconds). Bytes
// come from the values' real element types, so a function compiled in bf16
// (support/Precision.h) is timed with its bf16 operands, f32 results and
// conversion kernels, and its GEMMs at the bf16 rate. For a function
// compiled in f32, `precision` asks what its GEMMs alone would take in
// TF32 or bf16 (operands and results then taken as 16 bits, the kernels
// unchanged): an estimate for choosing, not mixed precision as a whole.
// docs/performance.md sets the predictions beside measurements and
// published throughputs.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_ANALYSIS_GPUSTEPMODEL_H
#define TC_COMPILER_ANALYSIS_GPUSTEPMODEL_H

#include "support/Precision.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <string>

namespace tc {

/// One GPU's datasheet figures (dense rates, no structured sparsity).
struct GpuSpec {
  llvm::StringLiteral name;    ///< --gpu's spelling: "h100"
  llvm::StringLiteral product; ///< the datasheet's: "H100 SXM5 80 GB"
  double f32Flops;             ///< CUDA cores, FLOP/s
  double tf32Flops;            ///< tensor cores; 0 where there are none
  double bf16Flops;            ///< tensor cores; 0 where there are none
  double bandwidth;            ///< device memory, bytes/s
};

/// Every GPU --gpu knows, in one table (GpuStepModel.cpp).
llvm::ArrayRef<GpuSpec> knownGpus();

/// The GPU named `name` ("a100", "h100", "h200", "p100"), or null.
const GpuSpec *findGpu(llvm::StringRef name);

/// The fraction of a precision's peak that cuBLAS's GEMMs are taken to
/// reach at a Transformer's shapes. A stated assumption, not a fit:
/// docs/performance.md compares it with the H100's measured GEMMs.
inline constexpr double kGemmEfficiency = 0.7;

/// The least time a launch takes on one stream, back to back: a kernel's
/// start-up and drain, a few microseconds on every recent GPU.
inline constexpr double kMinimumLaunchSeconds = 3e-6;

/// What the host spends issuing a launch without graphs: a generated kernel
/// (cudaLaunchKernel) and a GEMM (a cuBLAS or cuBLASLt call, which picks
/// its algorithm each time). Fitted to one H100 machine (2026-11-27:
/// base_short's bf16 step, 379 kernels and 309 GEMMs, took 9.7 ms eager
/// and 5.7 ms replayed; its f32 step, 143 kernels fewer, 0.6 ms less eager),
/// so a host's speed, not a GPU's: docs/performance.md.
inline constexpr double kHostKernelSeconds = 4e-6;
inline constexpr double kHostGemmSeconds = 26e-6;

/// The peak FLOP/s of `precision`'s GEMMs on `gpu` (0: it has none).
double peakFlops(const GpuSpec &gpu, support::Precision precision);

struct StepPrediction {
  double seconds = 0;       ///< the whole step, replayed as a graph
  double eagerSeconds = 0;  ///< the whole step, each launch issued in turn
  double gemmSeconds = 0;   ///< of which GEMMs
  double gemmFlops = 0;     ///< the model FLOPs of MFU
  int64_t launches = 0;     ///< GEMMs and generated kernels
  int64_t memoryBound = 0;  ///< launches whose bytes set their time
  int64_t launchBound = 0;  ///< launches at kMinimumLaunchSeconds
  /// Seconds by op ("gemm" for the GEMMs, "tc.adam", "tc.fused", ...).
  std::map<std::string, double> secondsByOp;
};

/// The predicted time of one call of `function` on `gpu`, its GEMMs of f32
/// operands in `precision` (a GEMM of bf16 operands is bf16 whatever it
/// says). Collectives are left out (one GPU).
StepPrediction predictStep(mlir::func::FuncOp function, const GpuSpec &gpu,
                           support::Precision precision);

} // namespace tc

#endif // TC_COMPILER_ANALYSIS_GPUSTEPMODEL_H
