//===- FuseMaskedSoftmax.cpp - tc-fuse-masked-softmax ----------------------===//

#include "compiler/transforms/Passes.h"
#include "compiler/transforms/TransformUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace tc {
#define GEN_PASS_DEF_TCFUSEMASKEDSOFTMAX
#include "compiler/transforms/Passes.h.inc"
} // namespace tc

using namespace mlir;
using namespace tc;

namespace {

struct FuseMaskedSoftmaxPass
    : public tc::impl::TcFuseMaskedSoftmaxBase<FuseMaskedSoftmaxPass> {
  void runOnOperation() override {
    SmallVector<SoftmaxOp> softmaxes;
    getOperation().walk([&](SoftmaxOp s) { softmaxes.push_back(s); });
    for (SoftmaxOp softmax : softmaxes) {
      // softmax(select(mask, scores * c, fill)) over the last axis.
      if (int64_t(softmax.getAxis()) !=
          typeOf(softmax.getInput()).getRank() - 1)
        continue;
      auto select = softmax.getInput().getDefiningOp<SelectOp>();
      if (!select || !select->hasOneUse() ||
          select.getType() != select.getOnTrue().getType())
        continue;
      std::optional<double> fill = splatValue(select.getOnFalse());
      auto scaled = select.getOnTrue().getDefiningOp<MulOp>();
      std::optional<double> scale =
          scaled ? splatValue(scaled.getRhs()) : std::nullopt;
      if (!fill || !scaled || !scale || !scaled->hasOneUse() ||
          scaled.getType() != scaled.getLhs().getType())
        continue;
      DropoutOp dropout;
      if (softmax->hasOneUse())
        dropout = dyn_cast<DropoutOp>(*softmax->getUsers().begin());

      OpBuilder b(dropout ? dropout.getOperation() : softmax.getOperation());
      Location loc = softmax.getLoc();
      DropoutParams drop = dropoutParams(b, loc, dropout);
      Value scores = scaled.getLhs();
      auto fused = MaskedSoftmaxOp::create(
          b, loc, scores.getType(), scores.getType(), scores,
          select.getCondition(), drop.rng, b.getF64FloatAttr(*scale),
          b.getF64FloatAttr(*fill), drop.rate, drop.key);
      if (dropout) {
        dropout.getResult().replaceAllUsesWith(fused.getResult());
        dropout->erase();
      } else {
        softmax.getResult().replaceAllUsesWith(fused.getResult());
      }
      softmax->erase();
      select->erase();
      scaled->erase();
    }
    for (func::FuncOp function : getOperation().getOps<func::FuncOp>())
      if (!function.isExternal()) // the scale and fill constants
        eraseDeadOps(function.getBody().front());
  }
};

} // namespace
