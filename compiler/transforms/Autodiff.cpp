//===- Autodiff.cpp - tc-autodiff: reverse-mode gradient functions --------===//

#include "compiler/transforms/Passes.h"
#include "compiler/transforms/TransformUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseSet.h"

namespace tc {
#define GEN_PASS_DEF_TCAUTODIFF
#include "compiler/transforms/Passes.h.inc"
} // namespace tc

using namespace mlir;
using namespace tc;

namespace {

bool isFloatTensor(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && isa<FloatType>(type.getElementType());
}

/// A loss function: first result a rank-0 float tensor, and parameters; not
/// itself a gradient function (whose results carry tc.grad_of).
bool isLossFunction(func::FuncOp f) {
  if (f.isExternal() || f.getNumResults() == 0)
    return false;
  for (unsigned i = 0; i < f.getNumResults(); ++i)
    if (f.getResultAttr(i, "tc.grad_of"))
      return false;
  auto loss = dyn_cast<RankedTensorType>(f.getResultTypes()[0]);
  if (!loss || loss.getRank() != 0 || !isa<FloatType>(loss.getElementType()))
    return false;
  for (unsigned i = 0; i < f.getNumArguments(); ++i)
    if (f.getArgAttr(i, kParamAttrName))
      return true;
  return false;
}

/// Builds @<f>_grad next to `f`; fails with a diagnostic at an op that has no
/// reverse rule.
LogicalResult buildGradient(func::FuncOp f) {
  OpBuilder b(f);
  b.setInsertionPointAfter(f);
  auto g = cast<func::FuncOp>(b.clone(*f.getOperation()));
  g.setSymName((f.getSymName() + "_grad").str());
  Block &body = g.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());

  // Forward activity: the float values that depend on a parameter.
  llvm::DenseSet<Value> active;
  SmallVector<BlockArgument> params;
  for (BlockArgument arg : body.getArguments())
    if (g.getArgAttr(arg.getArgNumber(), kParamAttrName)) {
      active.insert(arg);
      params.push_back(arg);
    }
  SmallVector<Operation *> forward;
  for (Operation &op : body.without_terminator()) {
    forward.push_back(&op);
    if (llvm::any_of(op.getOperands(),
                     [&](Value v) { return active.contains(v); }))
      for (Value r : op.getResults())
        if (isFloatTensor(r))
          active.insert(r);
  }

  // The backward, built before the return: d loss / d loss = 1.
  b.setInsertionPoint(ret);
  Value loss = ret.getOperand(0);
  llvm::DenseMap<Value, Value> grads;
  auto lossType = cast<RankedTensorType>(loss.getType());
  grads[loss] = ConstantOp::create(b, g.getLoc(), lossType, 1.0);
  for (Operation *op : llvm::reverse(forward)) {
    SmallVector<Value> resultGrads;
    bool any = false;
    for (Value r : op->getResults()) {
      resultGrads.push_back(grads.lookup(r));
      any |= bool(resultGrads.back());
    }
    if (!any || llvm::none_of(op->getOperands(),
                              [&](Value v) { return active.contains(v); }))
      continue;
    if (isa<CachedAttentionOp>(op))
      return op->emitOpError()
             << "is inference-only (the incremental decoder's attention over "
                "its caches) and has no gradient; a training graph attends "
                "with tc.matmul and tc.softmax";
    if (isa<LogSoftmaxOp, LogSoftmaxTopKOp>(op))
      return op->emitOpError()
             << "is inference-only (the incremental decoder's "
                "log-probabilities) and has no gradient; a training graph "
                "takes its loss from tc.cross_entropy";
    auto rule = dyn_cast<ReverseOpInterface>(op);
    if (!rule)
      return op->emitOpError()
             << "has no reverse rule, but the loss depends on it through a "
                "parameter; tc-autodiff cannot differentiate "
             << g.getSymName();
    // The statistics these fused ops save for their backward (mean, rstd,
    // the probabilities) are not differentiated: the loss must not use them.
    if (isa<ResidualLayerNormOp, MaskedSoftmaxOp>(op) &&
        llvm::any_of(llvm::drop_begin(resultGrads),
                     [](Value grad) { return bool(grad); }))
      return op->emitOpError()
             << "saves results for its backward only; the loss must not "
                "depend on them";
    b.setInsertionPoint(ret);
    // A rule may rely on every float result having a gradient: zeros where
    // the loss does not depend on one.
    for (auto [result, grad] : llvm::zip(op->getResults(), resultGrads))
      if (!grad && isFloatTensor(result)) {
        auto type = cast<RankedTensorType>(result.getType());
        grad = ConstantOp::create(b, op->getLoc(), type, 0.0);
      }
    SmallVector<Value> operandGrads;
    rule.buildReverse(b, resultGrads, operandGrads);
    for (auto [operand, grad] : llvm::zip(op->getOperands(), operandGrads)) {
      if (!grad || !active.contains(operand))
        continue;
      Value &sum = grads[operand];
      sum = sum ? AddOp::create(b, op->getLoc(), sum.getType(), sum, grad)
                      .getResult()
                : grad;
    }
  }

  // Results: the original ones, then one gradient per parameter (zeros for a
  // parameter the loss does not depend on).
  SmallVector<Value> results(ret.getOperands());
  for (BlockArgument param : params) {
    Value grad = grads.lookup(param);
    if (!grad) {
      auto type = cast<RankedTensorType>(param.getType());
      grad = ConstantOp::create(b, g.getLoc(), type, 0.0);
    }
    results.push_back(grad);
  }
  func::ReturnOp::create(b, ret.getLoc(), results);
  ret.erase();
  SmallVector<Type> resultTypes;
  for (Value v : results)
    resultTypes.push_back(v.getType());
  g.setType(b.getFunctionType(g.getArgumentTypes(), resultTypes));
  for (auto [index, param] : llvm::enumerate(params))
    g.setResultAttr(f.getNumResults() + index, "tc.grad_of",
                    g.getArgAttr(param.getArgNumber(), kParamAttrName));
  eraseDeadOps(body);
  return success();
}

struct AutodiffPass : public tc::impl::TcAutodiffBase<AutodiffPass> {
  using TcAutodiffBase::TcAutodiffBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> targets;
    for (const std::string &name : functions) {
      auto f = module.lookupSymbol<func::FuncOp>(name);
      if (!f || !isLossFunction(f)) {
        module.emitError() << "tc-autodiff: @" << name
                           << (f ? " is not a loss function: its first "
                                   "result must be a rank-0 float tensor and "
                                   "it needs tc.param arguments"
                                 : " is not a function of this module");
        return signalPassFailure();
      }
      targets.push_back(f);
    }
    if (functions.empty())
      for (func::FuncOp f : module.getOps<func::FuncOp>())
        if (isLossFunction(f) &&
            !module.lookupSymbol((f.getSymName() + "_grad").str()))
          targets.push_back(f);
    for (func::FuncOp f : targets)
      if (failed(buildGradient(f)))
        return signalPassFailure();
  }
};

} // namespace
