//===- HostKernel.h - C++ for the host: one function per fused group -------===//
//
// The host skeleton around the expression emitter: a loop over the elements
// of the group's shape (OpenMP across threads), loading each input (with its
// broadcast index), computing the body and storing each output. The ABI of
// every kernel is `extern "C" void name(void **buffers)`, buffers holding the
// inputs then the outputs in order.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_CODEGEN_HOSTKERNEL_H
#define TC_COMPILER_CODEGEN_HOSTKERNEL_H

#include "dialects/tc/TcDialect.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace tc::codegen {

/// The skeletons the emitters know.
enum class Target { Host, Cuda };

/// Includes, the Philox RNG (dialects/tc/Philox.h), helpers and the row
/// skeleton's macros (TC_ROWS, TC_ROW, TC_ROW_SUM, TC_ROW_MAX, TC_ROW_LEADER)
/// every host kernel file starts with.
std::string hostKernelPrelude();

/// The same for CUDA: the row macros map rows to blocks and reductions to
/// warp shuffles and shared memory.
std::string cudaKernelPrelude();

/// One loop computing `outputs` from `inputs` (the kernel's buffers, in
/// order) through `ops` (elementwise ops; on the host also reductions as
/// last steps), as a host function or a CUDA kernel named `name`.
mlir::FailureOr<std::string> emitLoop(llvm::ArrayRef<mlir::Value> inputs,
                                      llvm::ArrayRef<mlir::Operation *> ops,
                                      llvm::ArrayRef<mlir::Value> outputs,
                                      llvm::StringRef name, Target target,
                                      std::string &error);

/// The host function or CUDA kernel `name` computing `fused` (one loop over
/// its shape), or failure (saying why in `error`).
mlir::FailureOr<std::string> emitFusedKernel(FusedOp fused,
                                             llvm::StringRef name,
                                             Target target, std::string &error);

/// The same for one elementwise op or one reduction outside any group.
mlir::FailureOr<std::string> emitElementwiseKernel(mlir::Operation *op,
                                                   llvm::StringRef name,
                                                   Target target,
                                                   std::string &error);

/// The host function or CUDA kernel `name` computing a row-wise op
/// (tc.masked_softmax, tc.residual_layer_norm, tc.cross_entropy and their
/// gradients) over rows of its last dimension; buffers hold the operands
/// then the results. Failure (saying why) for any other op, and on CUDA for
/// those with sums across rows (residual_layer_norm_grad, cross_entropy),
/// which have no CUDA skeleton yet.
mlir::FailureOr<std::string> emitRowKernel(mlir::Operation *op,
                                           llvm::StringRef name, Target target,
                                           std::string &error);

/// The host function or CUDA kernel `name` for tc.adam (all parameters in
/// one call), tc.embed, tc.embedding_grad, tc.transpose, tc.concat, tc.slice
/// and the mask and position generators, or failure (saying why) for any
/// other op.
mlir::FailureOr<std::string> emitOpKernel(mlir::Operation *op,
                                          llvm::StringRef name, Target target,
                                          std::string &error);

/// The host function or CUDA kernel of any op that becomes a generated
/// kernel (see compiler/analysis/BufferAssignment.h), dispatching to the
/// emitters above.
mlir::FailureOr<std::string> emitKernel(mlir::Operation *op,
                                        llvm::StringRef name, Target target,
                                        std::string &error);

struct NamedKernelSource {
  std::string name;
  std::string source;
};

/// The host C++ of each kernel function (`plan.kernel`) of a module lowered
/// to the plan dialect, in module order; failure (saying which kernel and
/// why) when a kernel has no host emitter.
mlir::FailureOr<std::vector<NamedKernelSource>>
emitHostKernels(mlir::ModuleOp planModule, std::string &error);

/// The host C++ of every kernel function (`plan.kernel`) of a module lowered
/// to the plan dialect: the prelude, then one `extern "C"` function per
/// kernel, named as the kernel. Failure (saying which kernel and why) when a
/// kernel has no host emitter.
mlir::FailureOr<std::string> emitHostSource(mlir::ModuleOp planModule,
                                            std::string &error);

} // namespace tc::codegen

#endif // TC_COMPILER_CODEGEN_HOSTKERNEL_H
