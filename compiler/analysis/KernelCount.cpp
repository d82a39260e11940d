//===- KernelCount.cpp - how many kernels a function becomes ---------------===//

#include "compiler/analysis/KernelCount.h"
#include "compiler/analysis/BufferAssignment.h"
#include "dialects/tc/TcDialect.h"

using namespace mlir;

namespace tc {

int64_t bytesOf(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type)
    return 0;
  int64_t bits = type.getElementType().getIntOrFloatBitWidth();
  return type.getNumElements() * std::max<int64_t>(bits / 8, 1);
}

KernelCount countKernels(func::FuncOp function) {
  KernelCount count;
  if (function.isExternal())
    return count;
  BufferAssignment assignment(function);
  for (Operation &op : function.getBody().front()) {
    switch (assignment.stepOf(&op)) {
    case StepKind::None:
    case StepKind::Collective:
      break;
    case StepKind::Gemm:
      ++count.gemm;
      break;
    case StepKind::Kernel: {
      ++count.generated;
      int64_t bytes = 0;
      for (Value v : op.getOperands())
        bytes += bytesOf(v);
      for (Value v : op.getResults())
        bytes += bytesOf(v);
      count.nonGemmBytes += bytes;
      count.bytesByOp[op.getName().getStringRef().str()] += bytes;
      break;
    }
    }
  }
  return count;
}

} // namespace tc
