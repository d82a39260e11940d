//===- Statistics.h - tc-compile --stats and --emit=params ----------------===//
//
// What tc-compile reports about a compiled module as JSON: its parameters,
// and per function its op counts, kernels and the bytes its generated
// kernels move; for the first bucket's training step, its memory plan and,
// for a datasheet GPU, its predicted time (GpuPrediction.h).
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_ANALYSIS_STATISTICS_H
#define TC_COMPILER_ANALYSIS_STATISTICS_H

#include "compiler/analysis/GpuStepModel.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace tc {

/// The parameters (taken from the first function: every function has the
/// same ones): name, shape, elements and initializer, in argument order.
llvm::json::Array parameterTable(mlir::ModuleOp module);

/// tc-compile --stats: params (scalar count), param_tensors, precision (the
/// module's tc.precision; f32 without one), per function
/// the op counts, kernels and non_gemm_bytes, and those of the first
/// bucket's training step with its memory plan. With `gpu`, each training
/// step's predicted time too (gpu_prediction), and its table on `summary`.
llvm::json::Object moduleStatistics(mlir::ModuleOp module, const GpuSpec *gpu,
                                    llvm::raw_ostream &summary);

} // namespace tc

#endif // TC_COMPILER_ANALYSIS_STATISTICS_H
