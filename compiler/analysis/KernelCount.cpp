//===- KernelCount.cpp - how many kernels a function becomes ---------------===//

#include "compiler/analysis/KernelCount.h"
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

namespace {

/// A slice that is one contiguous run of its input: after the first
/// dimension it cuts, every dimension is whole, and before it every result
/// dimension is 1.
bool isContiguousSlice(SliceOp slice) {
  ArrayRef<int64_t> in = slice.getInput().getType().getShape();
  ArrayRef<int64_t> out = slice.getResult().getType().getShape();
  size_t d = 0;
  while (d < in.size() && out[d] == 1)
    ++d; // leading single rows
  if (d < in.size() && out[d] != in[d])
    ++d; // the one dimension cut in a range
  for (; d < in.size(); ++d)
    if (out[d] != in[d])
      return false;
  return true;
}

/// Pieces along the outermost dimension that is not 1 are contiguous runs.
bool isContiguousSplit(SplitOp split) {
  ArrayRef<int64_t> in = split.getInput().getType().getShape();
  for (int64_t d = 0; d < int64_t(split.getAxis()); ++d)
    if (in[d] != 1)
      return false;
  return true;
}

/// A concat along axis 0 of consecutive parameters: the runtime must keep
/// the parameters in one flat buffer in argument order (the design's flat
/// parameter buffers), which makes the concat a view of that buffer.
bool isConcatOfAdjacentParameters(ConcatOp concat) {
  if (concat.getAxis() != 0)
    return false;
  std::optional<unsigned> previous;
  for (Value input : concat.getInputs()) {
    auto arg = dyn_cast<BlockArgument>(input);
    auto function =
        arg ? dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()) : nullptr;
    if (!function || !function.getArgAttr(arg.getArgNumber(), kParamAttrName) ||
        (previous && arg.getArgNumber() != *previous + 1))
      return false;
    previous = arg.getArgNumber();
  }
  return true;
}

} // namespace

KernelKind kernelKindOf(Operation *op) {
  return TypeSwitch<Operation *, KernelKind>(op)
      .Case<ConstantOp, ReshapeOp, func::ReturnOp>(
          [](auto) { return KernelKind::None; })
      .Case<SliceOp>([](SliceOp s) {
        return isContiguousSlice(s) ? KernelKind::None : KernelKind::Generated;
      })
      .Case<SplitOp>([](SplitOp s) {
        return isContiguousSplit(s) ? KernelKind::None : KernelKind::Generated;
      })
      .Case<ConcatOp>([](ConcatOp c) {
        return isConcatOfAdjacentParameters(c) ? KernelKind::None
                                              : KernelKind::Generated;
      })
      .Case<MatmulOp, LinearOp>([](auto) { return KernelKind::Gemm; })
      .Default([](Operation *o) {
        return isa<TcDialect>(o->getDialect()) ? KernelKind::Generated
                                               : KernelKind::None;
      });
}

KernelCount countKernels(func::FuncOp function) {
  KernelCount count;
  if (function.isExternal())
    return count;
  for (Operation &op : function.getBody().front()) {
    switch (kernelKindOf(&op)) {
    case KernelKind::None:
      break;
    case KernelKind::Gemm:
      ++count.gemm;
      break;
    case KernelKind::Generated: {
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
