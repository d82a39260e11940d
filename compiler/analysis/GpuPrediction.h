//===- GpuPrediction.h - tc-compile --stats --gpu=NAME ---------------------===//

#ifndef TC_COMPILER_ANALYSIS_GPUPREDICTION_H
#define TC_COMPILER_ANALYSIS_GPUPREDICTION_H

#include "compiler/analysis/GpuStepModel.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace tc {

/// The predicted time of every training step of `module` on `gpu`, with
/// each GEMM precision the GPU has (compiler/analysis/GpuStepModel.h), as
/// the "gpu_prediction" object of --stats; a table of the same on
/// `summary`.
llvm::json::Object predictTrainingSteps(mlir::ModuleOp module,
                                        const GpuSpec &gpu,
                                        llvm::raw_ostream &summary);

} // namespace tc

#endif // TC_COMPILER_ANALYSIS_GPUPREDICTION_H
