//===- FuseResidualLayerNorm.cpp - tc-fuse-residual-layer-norm -------------===//

#include "compiler/transforms/Passes.h"
#include "compiler/transforms/TransformUtils.h"
#include "support/Broadcast.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace tc {
#define GEN_PASS_DEF_TCFUSERESIDUALLAYERNORM
#include "compiler/transforms/Passes.h.inc"
} // namespace tc

using namespace mlir;
using namespace tc;

namespace {

struct FuseResidualLayerNormPass
    : public tc::impl::TcFuseResidualLayerNormBase<FuseResidualLayerNormPass> {
  void runOnOperation() override {
    SmallVector<LayerNormOp> norms;
    getOperation().walk([&](LayerNormOp norm) { norms.push_back(norm); });
    for (LayerNormOp norm : norms) {
      auto add = norm.getInput().getDefiningOp<AddOp>();
      if (!add || !add->hasOneUse() ||
          add.getLhs().getType() != add.getRhs().getType())
        continue;
      // The sub-layer side is the one behind a dropout, else the rhs.
      Value residual = add.getLhs(), branch = add.getRhs();
      if (add.getLhs().getDefiningOp<DropoutOp>() &&
          !add.getRhs().getDefiningOp<DropoutOp>())
        std::swap(residual, branch);
      auto dropout = branch.getDefiningOp<DropoutOp>();
      if (dropout && !dropout->hasOneUse())
        dropout = DropoutOp();

      OpBuilder b(norm);
      Location loc = norm.getLoc();
      DropoutParams drop = dropoutParams(b, loc, dropout);
      auto statType = typeOf(residual).clone(withUnitAxes(
          std::span<const int64_t>(typeOf(residual).getShape()), {-1}));
      auto fused = ResidualLayerNormOp::create(
          b, loc, typeOf(residual), statType, statType, /*result_bf16=*/Type(),
          residual,
          dropout ? dropout.getInput() : branch, norm.getGamma(),
          norm.getBeta(), drop.rng, drop.rate, drop.key, norm.getEpsilonAttr());
      norm.getResult().replaceAllUsesWith(fused.getResult());
      norm->erase();
      add->erase();
      if (dropout)
        dropout->erase();
    }
  }
};

} // namespace
