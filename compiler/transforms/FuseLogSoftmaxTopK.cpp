//===- FuseLogSoftmaxTopK.cpp - tc-fuse-log-softmax-top-k -----------------===//
//
// A decoder step's candidates: tc.log_softmax (viewed as rows), tc.add of a
// per-column addend, tc.top_k and one column's tc.slice -> one
// tc.log_softmax_top_k, which never stores the distribution.
//
//===----------------------------------------------------------------------===//

#include "compiler/transforms/Passes.h"
#include "compiler/transforms/TransformUtils.h"

#include "mlir/IR/Builders.h"

namespace tc {
#define GEN_PASS_DEF_TCFUSELOGSOFTMAXTOPK
#include "compiler/transforms/Passes.h.inc"
} // namespace tc

using namespace mlir;
using namespace tc;

namespace {

/// The chain ending in `top`, when it has the shape this pass fuses.
struct Chain {
  LogSoftmaxOp logSoftmax;
  ReshapeOp rows; ///< the log-probabilities viewed as [R, N], or null
  AddOp add;
  SliceOp column;
  TopKOp top;
};

std::optional<Chain> matchChain(TopKOp top) {
  auto add = top.getInput().getDefiningOp<AddOp>();
  if (!add || typeOf(add.getResult()).getRank() != 2)
    return std::nullopt;
  ArrayRef<int64_t> candidates = typeOf(add.getResult()).getShape();
  int64_t rows = candidates[0], n = candidates[1];
  // The addend: one value per column, the same for every row.
  if (typeOf(add.getRhs()).getShape() != ArrayRef<int64_t>{n} ||
      typeOf(add.getLhs()).getShape() != candidates)
    return std::nullopt;
  Chain chain{nullptr, nullptr, add, nullptr, top};
  Value logProbs = add.getLhs();
  if (auto view = logProbs.getDefiningOp<ReshapeOp>()) {
    chain.rows = view;
    logProbs = view.getInput();
  }
  chain.logSoftmax = logProbs.getDefiningOp<LogSoftmaxOp>();
  if (!chain.logSoftmax || !chain.logSoftmax->hasOneUse() ||
      (chain.rows && !chain.rows->hasOneUse()) ||
      typeOf(chain.logSoftmax.getResult()).getShape().back() != n)
    return std::nullopt;
  // The candidates' other reader: one column's slice, [R, 1].
  for (Operation *user : add->getUsers()) {
    if (user == top)
      continue;
    auto slice = dyn_cast<SliceOp>(user);
    if (!slice || chain.column ||
        typeOf(slice.getResult()).getShape() != ArrayRef<int64_t>{rows, 1})
      return std::nullopt;
    chain.column = slice;
  }
  if (!chain.column)
    return std::nullopt;
  return chain;
}

void fuse(Chain chain) {
  // Right after the add, where its operands are defined and before every
  // reader of the top-k and the column (the slice may come first).
  OpBuilder b(chain.add->getContext());
  b.setInsertionPointAfter(chain.add);
  Location loc = chain.top.getLoc();
  RankedTensorType candidates = typeOf(chain.add.getResult());
  Value input = chain.logSoftmax.getInput();
  if (typeOf(input) != candidates) // [R, 1, N] -> [R, N], a view
    input = ReshapeOp::create(b, loc, candidates, input);
  auto fused = LogSoftmaxTopKOp::create(
      b, loc, chain.top.getValues().getType(), chain.top.getIndices().getType(),
      chain.column.getResult().getType(), input, chain.add.getRhs(),
      chain.top.getK(), chain.column.getOffsets()[1]);
  chain.top.getValues().replaceAllUsesWith(fused.getValues());
  chain.top.getIndices().replaceAllUsesWith(fused.getIndices());
  chain.column.getResult().replaceAllUsesWith(fused.getColumnValues());
  chain.top->erase();
  chain.column->erase();
  chain.add->erase();
  if (chain.rows)
    chain.rows->erase();
  chain.logSoftmax->erase();
}

struct FuseLogSoftmaxTopKPass
    : public tc::impl::TcFuseLogSoftmaxTopKBase<FuseLogSoftmaxTopKPass> {
  void runOnOperation() override {
    SmallVector<Chain> chains;
    getOperation().walk([&](TopKOp top) {
      if (std::optional<Chain> chain = matchChain(top))
        chains.push_back(*chain);
    });
    for (const Chain &chain : chains)
      fuse(chain);
  }
};

} // namespace
