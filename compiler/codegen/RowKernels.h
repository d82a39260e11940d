//===- RowKernels.h - the row-wise ops, a block per row --------------------===//

#ifndef TC_COMPILER_CODEGEN_ROWKERNELS_H
#define TC_COMPILER_CODEGEN_ROWKERNELS_H

#include "compiler/codegen/TargetBackend.h"

#include "mlir/IR/Operation.h"

#include <string>

namespace tc::codegen {

/// The kernel `name` computing a row-wise op (tc::OpTrait::RowWise:
/// tc.masked_softmax, tc.log_softmax, tc.residual_layer_norm,
/// tc.cross_entropy and their gradients) over rows of its last dimension;
/// buffers hold the operands then the results. Failure (saying why) for any
/// other op.
mlir::FailureOr<std::string> emitRowKernel(mlir::Operation *op,
                                           llvm::StringRef name,
                                           const TargetBackend &backend,
                                           std::string &error);

} // namespace tc::codegen

#endif // TC_COMPILER_CODEGEN_ROWKERNELS_H
