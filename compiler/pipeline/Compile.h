//===- Compile.h - tc-compile's driver: input -> module -> pipelines ------===//
//
// What tc-compile does between reading its input and writing its output: a
// model description built into the tc graph (compiler/frontend) and run
// through the pipelines of Pipeline.h, or a tc dialect file lowered as it
// is, as far as the output needs.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_PIPELINE_COMPILE_H
#define TC_COMPILER_PIPELINE_COMPILE_H

#include "compiler/frontend/ModelDescription.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <optional>
#include <set>
#include <string>

namespace tc {

/// How far a compilation lowers.
enum class CompileStage {
  TrainingSteps, ///< the tc graph with its fused training steps
  Plan,          ///< the plan dialect: buffers, kernel launches, GEMM calls
};

/// How to compile a model description.
struct CompileOptions {
  std::set<std::string> fusions; ///< by parseFusions' names
  CompileStage stage = CompileStage::TrainingSteps;
  /// Where to write the IR after the frontend and after every pass
  /// (IRDump.h); empty: nowhere.
  std::string dumpIRDirectory;
};

/// Why compileModelDescription returned no module.
struct CompileError {
  enum class Kind {
    IRDump,       ///< dumpIRDirectory cannot be written; `message` says why
    InvalidGraph, ///< a pass or the verifier failed: a bug of the compiler,
                  ///< which the diagnostics already reported
    MemoryBudget, ///< the training step cannot fit the memory budget;
                  ///< `message` says the smallest that it can
  };
  Kind kind = Kind::InvalidGraph;
  std::string message;
};

/// The tc graph of `description` run through the training pipeline and, for
/// CompileStage::Plan, the plan pipeline with the description's allreduce
/// buckets. Null, with `error`, on failure.
mlir::OwningOpRef<mlir::ModuleOp>
compileModelDescription(mlir::MLIRContext &context,
                        const ModelDescription &description,
                        const CompileOptions &options, CompileError &error);

/// Whether `module` is in the plan dialect already (tc-lower-to-plan's).
bool isPlanModule(mlir::ModuleOp module);

/// A module read from a tc dialect file, put in `precision` when given
/// (tc-apply-precision), for CompileStage::Plan lowered to the plan (every
/// function of it) unless it is a plan already. Fails, with diagnostics,
/// where a pass does.
mlir::LogicalResult
compileTcModule(mlir::ModuleOp module, CompileStage stage,
                std::optional<support::Precision> precision = std::nullopt);

} // namespace tc

#endif // TC_COMPILER_PIPELINE_COMPILE_H
