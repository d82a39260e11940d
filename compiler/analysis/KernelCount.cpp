//===- KernelCount.cpp - how many kernels a function becomes ---------------===//

#include "compiler/analysis/KernelCount.h"
#include "compiler/analysis/BufferAssignment.h"
#include "dialects/tc/TcDialect.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace tc {

int64_t bytesOf(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type)
    return 0;
  int64_t bits = type.getElementType().getIntOrFloatBitWidth();
  return type.getNumElements() * std::max<int64_t>(bits / 8, 1);
}

int64_t trafficBytes(Operation *op) {
  // A cache update reads its new values and positions and writes the values
  // into the cache: the cache ([R, T, C]) is neither read nor written whole.
  if (auto update = dyn_cast<CacheUpdateOp>(op))
    return 2 * bytesOf(update.getValue()) + bytesOf(update.getPosition());
  int64_t bytes = 0;
  for (Value v : op->getOperands())
    bytes += bytesOf(v);
  for (Value v : op->getResults())
    bytes += bytesOf(v);
  return bytes;
}

static int64_t elementsOf(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type ? type.getNumElements() : 0;
}

int64_t gemmFlops(Operation *op) {
  Value lhs;
  bool transposeLhs = false;
  int64_t epilogueOps = 0; // per output
  if (auto matmul = dyn_cast<MatmulOp>(op)) {
    lhs = matmul.getLhs();
    transposeLhs = matmul.getTransposeLhs();
  } else if (auto linear = dyn_cast<LinearOp>(op)) {
    lhs = linear.getInput();
    epilogueOps = 1 + linear.getRelu(); // the bias (always), the ReLU
  } else {
    return 0;
  }
  ArrayRef<int64_t> a = cast<RankedTensorType>(lhs.getType()).getShape();
  int64_t k = transposeLhs ? a[a.size() - 2] : a.back();
  int64_t outputs = elementsOf(op->getResult(0));
  return (2 * k + epilogueOps) * outputs;
}

/// Arithmetic per element of the named ops' kernels, counted from their
/// emitted loops and rounded (exp, log and sqrt as one op each).
static int64_t flopsPerElement(Operation *op) {
  return llvm::TypeSwitch<Operation *, int64_t>(op)
      .Case<AdamOp>([](auto) { return 14; })
      .Case<ResidualLayerNormOp, LayerNormOp>([](auto) { return 9; })
      .Case<ResidualLayerNormGradOp, LayerNormGradOp>([](auto) { return 14; })
      .Case<MaskedSoftmaxOp, SoftmaxOp>([](auto) { return 6; })
      .Case<MaskedSoftmaxGradOp, SoftmaxGradOp>([](auto) { return 4; })
      .Case<CrossEntropyOp>([](auto) { return 8; })
      .Case<LogSoftmaxOp>([](auto) { return 5; })
      .Case<LogSoftmaxTopKOp>([](auto) { return 6; }) // and the addend
      // Per key element a multiply-add for the score and one for the
      // context. Its largest operand is the whole cache: the compiler sees
      // only shapes, while a step reads the filled prefix (or the source).
      .Case<CachedAttentionOp>([](auto) { return 4; })
      .Case<CrossEntropyGradOp>([](auto) { return 6; })
      // The two above, the row's max, exponentials and sums counted once.
      .Case<CrossEntropyWithGradOp>([](auto) { return 10; })
      .Case<DropoutOp, EmbedOp>([](auto) { return 3; })
      .Case<FusedOp>([](FusedOp fused) {
        // The body's ops, yield excluded.
        return int64_t(fused.getBody().front().getOperations().size()) - 1;
      })
      .Default([](auto) { return 1; });
}

int64_t kernelFlops(Operation *op) {
  if (auto adam = dyn_cast<AdamOp>(op)) { // its parameters, one at a time
    int64_t parameters = 0;
    for (Value p : adam.getParams())
      parameters += elementsOf(p);
    return parameters * flopsPerElement(op);
  }
  int64_t largest = 0;
  for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
    largest = std::max(largest, elementsOf(v));
  return largest * flopsPerElement(op);
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
      int64_t bytes = trafficBytes(&op);
      count.nonGemmBytes += bytes;
      count.bytesByOp[op.getName().getStringRef().str()] += bytes;
      break;
    }
    }
  }
  return count;
}

} // namespace tc
