//===- TransformUtils.cpp - small helpers shared by the tc passes ---------===//

#include "compiler/transforms/TransformUtils.h"
#include "dialects/tc/TcDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

namespace tc {

std::optional<double> splatValue(Value v) {
  auto constant = v.getDefiningOp<ConstantOp>();
  auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                        : DenseElementsAttr();
  if (!dense || !dense.isSplat() || !isa<FloatType>(dense.getElementType()))
    return std::nullopt;
  return dense.getSplatValue<APFloat>().convertToDouble();
}

DropoutParams dropoutParams(OpBuilder &b, Location loc, DropoutOp dropout) {
  if (dropout)
    return {dropout.getRng(), dropout.getRateAttr(), dropout.getKeyAttr()};
  auto type = RankedTensorType::get({2}, b.getI64Type());
  Value placeholder = ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, ArrayRef<int64_t>{0, 0}));
  return {placeholder, b.getF64FloatAttr(0.0), b.getI64IntegerAttr(0)};
}

bool narrowsToBf16(Operation *op) {
  auto convert = dyn_cast<ConvertOp>(op);
  return convert && typeOf(convert.getInput()).getElementType().isF32() &&
         typeOf(convert.getResult()).getElementType().isBF16();
}

void eraseDeadOps(Block &block) {
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      op->erase();
}

} // namespace tc
