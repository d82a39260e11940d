//===- IRDump.h - tc-compile --dump-ir: the IR after every pass -----------===//

#ifndef TC_COMPILER_PIPELINE_IRDUMP_H
#define TC_COMPILER_PIPELINE_IRDUMP_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <string>

namespace tc {

/// Writes `module` to `directory/00-<name>.mlir` and makes `pm` write the IR
/// after each of its passes to `directory/NN-<pass argument>.mlir`, numbered
/// in order. Returns false (with `error` set) if the directory cannot be made.
bool enableIRDump(mlir::PassManager &pm, mlir::ModuleOp module,
                  const std::string &directory, const std::string &name,
                  std::string &error);

} // namespace tc

#endif // TC_COMPILER_PIPELINE_IRDUMP_H
