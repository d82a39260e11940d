//===- FuseEmbeddingGrad.cpp - tc-fuse-embedding-grad ----------------------===//
//
// A table's gradient summed from several parts: a tied output layer's GEMM
// and the lookups' tc.embedding_grad (the source's and the target's). Each
// tc.embedding_grad was a table of zeros and its rows' sums, then a full
// tc.add of two tables; now each lookup's rows are added in place onto
// another part (tc.embedding_grad_add), and only the rows of its ids are
// touched. Runs on the training step, after autodiff made the sums.
//
//===----------------------------------------------------------------------===//

#include "compiler/transforms/Passes.h"
#include "compiler/transforms/TransformUtils.h"

#include "mlir/IR/Builders.h"

namespace tc {
#define GEN_PASS_DEF_TCFUSEEMBEDDINGGRAD
#include "compiler/transforms/Passes.h.inc"
} // namespace tc

using namespace mlir;
using namespace tc;

namespace {

bool sameTypeTableAdd(AddOp add) {
  auto type = cast<RankedTensorType>(add.getResult().getType());
  return type.getRank() == 2 && add.getLhs().getType() == type &&
         add.getRhs().getType() == type;
}

/// The lookup's gradient that `v` is, when only the sum reads it.
EmbeddingGradOp lookupGradient(Value v) {
  auto grad = v.getDefiningOp<EmbeddingGradOp>();
  return grad && v.hasOneUse() ? grad : nullptr;
}

/// Whether a part of the sum may be written in place: a table of its own
/// (a GEMM's result, a lookup's table, one added onto) that only the sum
/// reads; never a function input or a view of a parameter.
bool writableInPlace(Value v) {
  return v.hasOneUse() &&
         isa_and_nonnull<MatmulOp, EmbeddingGradOp, EmbeddingGradAddOp>(
             v.getDefiningOp());
}

/// The chain of tc.embedding_grad_add ending in `v` whose first base is a
/// lookup's own table (zeroed by it), each link read only by the next:
/// the lookup first, then the links. Empty where `v` is not one.
SmallVector<Operation *> chainFromLookup(Value v) {
  SmallVector<Operation *> chain;
  while (auto link = v.getDefiningOp<EmbeddingGradAddOp>()) {
    if (!v.hasOneUse())
      return {};
    chain.push_back(link);
    v = link.getBase();
  }
  EmbeddingGradOp lookup = lookupGradient(v);
  if (!lookup)
    return {};
  chain.push_back(lookup);
  std::reverse(chain.begin(), chain.end());
  return chain;
}

/// A lookup's gradient or a link added on, added onto `base` in place.
Value addedOnto(OpBuilder &b, Value base, Operation *op) {
  auto add = [&](auto part) -> Value {
    return EmbeddingGradAddOp::create(b, part.getLoc(), base.getType(), base,
                                      part.getIds(), part.getOutputGrad(),
                                      part.getPaddingIdAttr());
  };
  if (auto grad = dyn_cast<EmbeddingGradOp>(op))
    return add(grad);
  return add(cast<EmbeddingGradAddOp>(op));
}

/// One rewrite of `add`, or none: a lookup's gradient added onto the other
/// part in place; or a chain that starts from a lookup's table, added to a
/// GEMM's result, rebuilt onto the GEMM's result (its rows go there, no
/// table of zeros). Both are local to one sum of two parts, so a gradient
/// summed over micro-batches keeps each micro-batch's sum as a rank's
/// (data-parallel training sums the ranks' gradients bit for bit).
bool rewrite(AddOp add) {
  if (!sameTypeTableAdd(add))
    return false;
  OpBuilder b(add);
  for (auto [base, part] : {std::pair(add.getLhs(), add.getRhs()),
                            std::pair(add.getRhs(), add.getLhs())}) {
    EmbeddingGradOp lookup = lookupGradient(part);
    if (!lookup || base == part || !writableInPlace(base))
      continue;
    Value sum = addedOnto(b, base, lookup);
    add.getResult().replaceAllUsesWith(sum);
    add->erase();
    lookup->erase();
    return true;
  }
  for (auto [chainEnd, gemm] : {std::pair(add.getLhs(), add.getRhs()),
                                std::pair(add.getRhs(), add.getLhs())}) {
    SmallVector<Operation *> chain = chainFromLookup(chainEnd);
    if (chain.empty() || !gemm.hasOneUse() ||
        !isa_and_nonnull<MatmulOp>(gemm.getDefiningOp()))
      continue;
    Value sum = gemm;
    for (Operation *link : chain)
      sum = addedOnto(b, sum, link);
    add.getResult().replaceAllUsesWith(sum);
    add->erase();
    for (Operation *link : llvm::reverse(chain))
      link->erase();
    return true;
  }
  return false;
}

struct FuseEmbeddingGradPass
    : public tc::impl::TcFuseEmbeddingGradBase<FuseEmbeddingGradPass> {
  void runOnOperation() override {
    // In program order, so that a sum's rewritten first part is there when
    // the next add reads it.
    SmallVector<AddOp> adds;
    getOperation().walk([&](AddOp add) { adds.push_back(add); });
    for (AddOp add : adds)
      rewrite(add);
  }
};

} // namespace
