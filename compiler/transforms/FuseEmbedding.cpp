//===- FuseEmbedding.cpp - tc-fuse-embedding: lookup*scale+pos+dropout ----===//

#include "compiler/transforms/Passes.h"
#include "compiler/transforms/TransformUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace tc {
#define GEN_PASS_DEF_TCFUSEEMBEDDING
#include "compiler/transforms/Passes.h.inc"
} // namespace tc

using namespace mlir;
using namespace tc;

namespace {

struct FuseEmbeddingPass
    : public tc::impl::TcFuseEmbeddingBase<FuseEmbeddingPass> {
  void runOnOperation() override {
    SmallVector<EmbeddingOp> lookups;
    getOperation().walk([&](EmbeddingOp e) { lookups.push_back(e); });
    for (EmbeddingOp lookup : lookups) {
      if (typeOf(lookup.getIds()).getRank() != 2 || !lookup->hasOneUse())
        continue;
      // embedding * c + positions
      auto scaled = dyn_cast<MulOp>(*lookup->getUsers().begin());
      std::optional<double> scale =
          scaled && scaled.getLhs() == lookup.getResult()
              ? splatValue(scaled.getRhs())
              : std::nullopt;
      if (!scale || !scaled->hasOneUse() ||
          scaled.getType() != lookup.getType())
        continue;
      auto sum = dyn_cast<AddOp>(*scaled->getUsers().begin());
      if (!sum || sum.getLhs() != scaled.getResult() ||
          sum.getType() != lookup.getType())
        continue;
      Value positions = sum.getRhs();
      ArrayRef<int64_t> shape = typeOf(lookup.getResult()).getShape();
      if (typeOf(positions).getShape() != ArrayRef<int64_t>{shape[1], shape[2]})
        continue;
      DropoutOp dropout;
      if (sum->hasOneUse())
        dropout = dyn_cast<DropoutOp>(*sum->getUsers().begin());

      Operation *last = dropout ? dropout.getOperation() : sum.getOperation();
      OpBuilder b(last);
      Location loc = lookup.getLoc();
      DropoutParams drop = dropoutParams(b, loc, dropout);
      auto embed = EmbedOp::create(
          b, loc, lookup.getType(), lookup.getTable(), lookup.getIds(),
          positions, drop.rng, b.getF64FloatAttr(*scale), drop.rate, drop.key,
          lookup.getPaddingIdAttr());
      last->getResult(0).replaceAllUsesWith(embed.getResult());
      if (dropout)
        dropout->erase();
      sum->erase();
      scaled->erase();
      lookup->erase();
    }
    for (func::FuncOp function : getOperation().getOps<func::FuncOp>())
      if (!function.isExternal()) // the scale constants
        eraseDeadOps(function.getBody().front());
  }
};

} // namespace
