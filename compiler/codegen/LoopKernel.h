//===- LoopKernel.h - elementwise groups as one loop over their shape ------===//
//
// The loop skeleton around the expression emitter: a loop over the elements
// of the group's shape (OpenMP threads on the host, a grid-stride loop on
// CUDA), loading each input (with its broadcast index), computing the body
// and storing each output; reductions as the group's last steps. The ABI of
// every kernel is `name(void **buffers)`, the inputs then the outputs.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_CODEGEN_LOOPKERNEL_H
#define TC_COMPILER_CODEGEN_LOOPKERNEL_H

#include "compiler/codegen/TargetBackend.h"
#include "dialects/tc/TcDialect.h"

#include <string>

namespace tc::codegen {

/// One loop computing `outputs` from `inputs` (the kernel's buffers, in
/// order) through `ops` (elementwise ops; reductions as last steps), as a
/// host function or a CUDA kernel named `name`.
mlir::FailureOr<std::string> emitLoop(llvm::ArrayRef<mlir::Value> inputs,
                                      llvm::ArrayRef<mlir::Operation *> ops,
                                      llvm::ArrayRef<mlir::Value> outputs,
                                      llvm::StringRef name,
                                      const TargetBackend &backend,
                                      std::string &error);

/// The kernel `name` computing `fused` (one loop over its shape), or
/// failure (saying why in `error`).
mlir::FailureOr<std::string> emitFusedKernel(FusedOp fused,
                                             llvm::StringRef name,
                                             const TargetBackend &backend,
                                             std::string &error);

/// The same for one elementwise op or one reduction outside any group.
mlir::FailureOr<std::string> emitElementwiseKernel(mlir::Operation *op,
                                                   llvm::StringRef name,
                                                   const TargetBackend &backend,
                                                   std::string &error);

} // namespace tc::codegen

#endif // TC_COMPILER_CODEGEN_LOOPKERNEL_H
