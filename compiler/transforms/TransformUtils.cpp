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

void eraseDeadOps(Block &block) {
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      op->erase();
}

} // namespace tc
