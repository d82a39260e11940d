//===- Interpreter.h - the reference interpreter of tc IR -----------------===//
//
// Evaluates a function of the tc dialect op by op on host tensors. It is the
// oracle that the backends, the fusion passes and the autodiff pass are
// checked against, so it favours clarity over speed (see Kernels.h).
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_INTERPRETER_INTERPRETER_H
#define TC_COMPILER_INTERPRETER_INTERPRETER_H

#include "compiler/interpreter/Tensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>
#include <vector>

namespace tc {

/// The interpreter's element type for an MLIR element type, if it has one.
std::optional<DType> dtypeOf(mlir::Type elementType);

/// Runs `function` on `args` (one per function argument, with exactly its
/// shape and element type). Calls to other functions of the same module are
/// followed. On failure, emits an error at the failing operation (or at the
/// function, for a wrong argument) and returns failure.
mlir::FailureOr<std::vector<Tensor>> interpret(mlir::func::FuncOp function,
                                               const std::vector<Tensor> &args);

} // namespace tc

#endif // TC_COMPILER_INTERPRETER_INTERPRETER_H
