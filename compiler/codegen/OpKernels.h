//===- OpKernels.h - kernels of their own for the other ops ----------------===//

#ifndef TC_COMPILER_CODEGEN_OPKERNELS_H
#define TC_COMPILER_CODEGEN_OPKERNELS_H

#include "compiler/codegen/TargetBackend.h"

#include "mlir/IR/Operation.h"

#include <string>

namespace tc::codegen {

/// The kernel `name` for tc.adam (all parameters in one call), tc.embed,
/// tc.embedding, tc.cache_update (in place), tc.top_k, tc.prefix_mask,
/// tc.embedding_grad, the copies (tc.transpose, tc.concat, tc.slice) and
/// the mask and position generators, or failure (saying why) for any other
/// op.
mlir::FailureOr<std::string> emitOpKernel(mlir::Operation *op,
                                          llvm::StringRef name,
                                          const TargetBackend &backend,
                                          std::string &error);

} // namespace tc::codegen

#endif // TC_COMPILER_CODEGEN_OPKERNELS_H
