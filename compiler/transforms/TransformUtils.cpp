//===- TransformUtils.cpp - small helpers shared by the tc passes ---------===//

#include "compiler/transforms/TransformUtils.h"
#include "dialects/tc/TcDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

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

bool isSplatConstant(Value v) {
  auto constant = v.getDefiningOp<ConstantOp>();
  auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                        : DenseElementsAttr();
  return dense && dense.isSplat();
}

FusedOp outlineFused(ArrayRef<Operation *> ops) {
  llvm::SmallPtrSet<Operation *, 16> members(ops.begin(), ops.end());
  llvm::SetVector<Value> inputs, outputs;
  for (Operation *op : ops) {
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if ((!def || !members.contains(def)) && !isSplatConstant(operand))
        inputs.insert(operand);
    }
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !members.contains(user);
          }))
        outputs.insert(result);
  }
  OpBuilder b(ops.front());
  SmallVector<Type> resultTypes;
  for (Value v : outputs)
    resultTypes.push_back(v.getType());
  auto fused = FusedOp::create(b, ops.front()->getLoc(), resultTypes,
                               inputs.getArrayRef());
  Block *body = new Block();
  fused.getBody().push_back(body);
  IRMapping mapping;
  for (Value input : inputs)
    mapping.map(input, body->addArgument(input.getType(), input.getLoc()));
  OpBuilder inside = OpBuilder::atBlockEnd(body);
  for (Operation *op : ops) {
    for (Value operand : op->getOperands())
      if (!mapping.contains(operand) && isSplatConstant(operand))
        mapping.map(operand,
                    inside.clone(*operand.getDefiningOp())->getResult(0));
    inside.clone(*op, mapping);
  }
  SmallVector<Value> yielded;
  for (Value v : outputs)
    yielded.push_back(mapping.lookup(v));
  YieldOp::create(inside, fused.getLoc(), yielded);
  for (auto [output, result] : llvm::zip(outputs, fused.getResults())) {
    Value value = output;
    value.replaceUsesWithIf(result, [&](OpOperand &use) {
      return !members.contains(use.getOwner());
    });
  }
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  return fused;
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
