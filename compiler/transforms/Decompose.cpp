//===- Decompose.cpp - tc-decompose: composite ops -> primitives ----------===//

#include "compiler/transforms/Passes.h"
#include "support/Broadcast.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace tc {
#define GEN_PASS_DEF_TCDECOMPOSE
#include "compiler/transforms/Passes.h.inc"
} // namespace tc

using namespace mlir;
using namespace tc;

namespace {

/// `type` with dimension `axis` set to 1.
RankedTensorType keepDimsType(RankedTensorType type, int64_t axis) {
  return type.clone(
      withUnitAxes(std::span<const int64_t>(type.getShape()), {axis}));
}

/// softmax(x) = exp(x - max(x)) / sum(exp(x - max(x))) along the axis.
Value expandSoftmax(OpBuilder &b, SoftmaxOp op) {
  Location loc = op.getLoc();
  Value x = op.getInput();
  auto type = cast<RankedTensorType>(x.getType());
  auto reducedType = keepDimsType(type, int64_t(op.getAxis()));
  SmallVector<int64_t> axes = {int64_t(op.getAxis())};
  Value max = ReduceMaxOp::create(b, loc, reducedType, x, axes, true);
  Value shifted = SubOp::create(b, loc, type, x, max);
  Value exp = ExpOp::create(b, loc, shifted);
  Value sum = ReduceSumOp::create(b, loc, reducedType, exp, axes, true);
  return DivOp::create(b, loc, type, exp, sum);
}

/// layer_norm(x) = (x - mean) * rsqrt(var + eps) * gamma + beta over the last
/// axis, with the biased variance.
Value expandLayerNorm(OpBuilder &b, LayerNormOp op) {
  Location loc = op.getLoc();
  Value x = op.getInput();
  auto type = cast<RankedTensorType>(x.getType());
  int64_t last = type.getRank() - 1;
  auto reducedType = keepDimsType(type, last);
  SmallVector<int64_t> axes = {last};
  Value mean = ReduceMeanOp::create(b, loc, reducedType, x, axes, true);
  Value centered = SubOp::create(b, loc, type, x, mean);
  Value squared = MulOp::create(b, loc, type, centered, centered);
  Value var = ReduceMeanOp::create(b, loc, reducedType, squared, axes, true);
  auto scalarType = RankedTensorType::get({}, type.getElementType());
  Value eps =
      ConstantOp::create(b, loc, scalarType, op.getEpsilon().convertToDouble());
  Value varEps = AddOp::create(b, loc, reducedType, var, eps);
  Value rstd = RsqrtOp::create(b, loc, varEps);
  Value normed = MulOp::create(b, loc, type, centered, rstd);
  Value scaled = MulOp::create(b, loc, type, normed, op.getGamma());
  return AddOp::create(b, loc, type, scaled, op.getBeta());
}

struct DecomposePass : public tc::impl::TcDecomposeBase<DecomposePass> {
  using TcDecomposeBase::TcDecomposeBase;

  LogicalResult initialize(MLIRContext *context) override {
    for (const std::string &name : ops)
      if (name != "softmax" && name != "layer_norm")
        return emitError(UnknownLoc::get(context))
               << "tc-decompose: unknown op '" << name
               << "' in ops=; expected softmax or layer_norm";
    return success();
  }

  bool selected(StringRef name) const {
    return ops.empty() || llvm::is_contained(ops, name.str());
  }

  void runOnOperation() override {
    SmallVector<Operation *> targets;
    getOperation().walk([&](Operation *op) {
      if ((isa<SoftmaxOp>(op) && selected("softmax")) ||
          (isa<LayerNormOp>(op) && selected("layer_norm")))
        targets.push_back(op);
    });
    for (Operation *op : targets) {
      OpBuilder b(op);
      Value replacement = isa<SoftmaxOp>(op)
                              ? expandSoftmax(b, cast<SoftmaxOp>(op))
                              : expandLayerNorm(b, cast<LayerNormOp>(op));
      op->getResult(0).replaceAllUsesWith(replacement);
      op->erase();
    }
  }
};

} // namespace
