//===- KernelDispatch.h - the emitter of each op that becomes a kernel -----===//
//
// Every op that becomes a generated kernel (compiler/analysis/
// BufferAssignment.h) goes to one emitter, chosen by its category
// (dialects/tc/TcTraits.h): fused groups, elementwise ops and reductions to
// the loop emitter, row-wise ops to the row emitter, the rest to their own.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_CODEGEN_KERNELDISPATCH_H
#define TC_COMPILER_CODEGEN_KERNELDISPATCH_H

#include "compiler/codegen/Target.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace tc::codegen {

/// The host function or CUDA kernel `name` computing `op`, or failure
/// (saying why in `error`).
mlir::FailureOr<std::string> emitKernel(mlir::Operation *op,
                                        llvm::StringRef name, Target target,
                                        std::string &error);

struct NamedKernelSource {
  std::string name;
  std::string source;
};

} // namespace tc::codegen

#endif // TC_COMPILER_CODEGEN_KERNELDISPATCH_H
