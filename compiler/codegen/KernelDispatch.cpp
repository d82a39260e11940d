//===- KernelDispatch.cpp - the emitter of each op that becomes a kernel ---===//

#include "compiler/codegen/KernelDispatch.h"
#include "compiler/codegen/LoopKernel.h"
#include "compiler/codegen/OpKernels.h"
#include "compiler/codegen/RowKernels.h"
#include "dialects/tc/TcDialect.h"

using namespace mlir;

namespace tc::codegen {

FailureOr<std::string> emitKernel(Operation *op, StringRef name, Target target,
                                  std::string &error) {
  const TargetBackend &backend = targetBackend(target);
  if (auto fused = dyn_cast<FusedOp>(op))
    return emitFusedKernel(fused, name, backend, error);
  if (op->hasTrait<tc::OpTrait::RowWise>())
    return emitRowKernel(op, name, backend, error);
  if (op->hasTrait<tc::OpTrait::Elementwise>() ||
      op->hasTrait<tc::OpTrait::Reduction>())
    return emitElementwiseKernel(op, name, backend, error);
  return emitOpKernel(op, name, backend, error);
}

} // namespace tc::codegen
