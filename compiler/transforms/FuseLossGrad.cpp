//===- FuseLossGrad.cpp - tc-fuse-loss-grad --------------------------------===//
//
// A training step's loss and its gradient: tc.cross_entropy and the
// tc.cross_entropy_grad of the same logits -> one
// tc.cross_entropy_with_grad, which computes each row's softmax once. It
// joins a forward op and a backward one, so it runs after autodiff.
//
//===----------------------------------------------------------------------===//

#include "compiler/transforms/Passes.h"
#include "compiler/transforms/TransformUtils.h"

#include "mlir/IR/Builders.h"

namespace tc {
#define GEN_PASS_DEF_TCFUSELOSSGRAD
#include "compiler/transforms/Passes.h.inc"
} // namespace tc

using namespace mlir;
using namespace tc;

namespace {

/// The loss whose gradient `grad` is, when the two can become one op at
/// the gradient's place: the same logits, targets, smoothing and ignored
/// index, in one block, the loss first, and nothing reading the loss or
/// its count before the gradient or by it (its seed then depends on the
/// loss).
CrossEntropyOp lossOf(CrossEntropyGradOp grad) {
  for (Operation *user : grad.getLogits().getUsers()) {
    auto loss = dyn_cast<CrossEntropyOp>(user);
    if (!loss || loss.getTargets() != grad.getTargets() ||
        loss.getLabelSmoothing() != grad.getLabelSmoothing() ||
        loss.getIgnoreIndex() != grad.getIgnoreIndex() ||
        loss->getBlock() != grad->getBlock() || !loss->isBeforeInBlock(grad))
      continue;
    bool readBefore = llvm::any_of(loss->getUsers(), [&](Operation *reader) {
      Operation *at = grad->getBlock()->findAncestorOpInBlock(*reader);
      return !at || at == grad.getOperation() || at->isBeforeInBlock(grad);
    });
    if (!readBefore)
      return loss;
  }
  return nullptr;
}

void fuse(CrossEntropyOp loss, CrossEntropyGradOp grad) {
  OpBuilder b(grad);
  auto fused = CrossEntropyWithGradOp::create(
      b, grad.getLoc(), grad.getResult().getType(), loss.getLoss().getType(),
      loss.getTokens().getType(), grad.getLogits(), grad.getTargets(),
      grad.getLossGrad(), grad.getLabelSmoothingAttr(),
      grad.getIgnoreIndexAttr());
  grad.getResult().replaceAllUsesWith(fused.getGrad());
  loss.getLoss().replaceAllUsesWith(fused.getLoss());
  loss.getTokens().replaceAllUsesWith(fused.getTokens());
  grad->erase();
  loss->erase();
}

struct FuseLossGradPass
    : public tc::impl::TcFuseLossGradBase<FuseLossGradPass> {
  void runOnOperation() override {
    SmallVector<std::pair<CrossEntropyOp, CrossEntropyGradOp>> pairs;
    llvm::DenseSet<Operation *> claimed; // a loss fuses with one gradient
    getOperation().walk([&](CrossEntropyGradOp grad) {
      if (CrossEntropyOp loss = lossOf(grad);
          loss && claimed.insert(loss).second)
        pairs.push_back({loss, grad});
    });
    for (auto [loss, grad] : pairs)
      fuse(loss, grad);
  }
};

} // namespace
