//===- OpKernels.h - kernels of their own for the other ops ----------------===//

#ifndef TC_COMPILER_CODEGEN_OPKERNELS_H
#define TC_COMPILER_CODEGEN_OPKERNELS_H

#include "compiler/codegen/TargetBackend.h"

#include "dialects/tc/TcDialect.h"

#include "mlir/IR/Operation.h"

#include <string>

namespace tc::codegen {

/// Whether tc.cached_attention's CUDA kernel gives a warp to each (row,
/// head): where a row's scores (the cache's positions, f32) fit a block's
/// 48 KiB of shared memory; longer caches keep a thread per (row, head),
/// its scores in local memory.
bool cachedAttentionOnWarps(CachedAttentionOp attention);

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
