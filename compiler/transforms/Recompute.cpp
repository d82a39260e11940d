//===- Recompute.cpp - tc-recompute: activations made again, not kept ------===//
//
// A training step keeps the forward's activations from where they are made
// to where the backward reads them, and those lifetimes make its peak. Under
// a memory budget this pass trades compute for memory: an activation of a
// cheap op is made again right before the backward reads it, by a clone of
// its op, so the forward's copy dies at its last forward read. The clone
// reads what the original read, so it computes the same bits (a dropout
// mask is drawn again from the same Philox key and counter). See
// Passes.td for the levels and the budget.
//
//===----------------------------------------------------------------------===//

#include "compiler/analysis/BufferAssignment.h"
#include "compiler/analysis/MemoryPlan.h"
#include "compiler/transforms/Passes.h"
#include "compiler/transforms/TransformUtils.h"
#include "runtime/format/Contract.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

#include <limits>

namespace tc {
#define GEN_PASS_DEF_TCRECOMPUTE
#include "compiler/transforms/Passes.h.inc"
} // namespace tc

using namespace mlir;
using namespace tc;

namespace {

/// The cheapest ops first: each level recomputes its ops and those of the
/// levels before it.
int levelOf(Operation *op) {
  if (isa<FusedOp, ConvertOp, DropoutOp>(op))
    return 1; // elementwise: activations, dropout masks, bf16 copies
  if (isa<ResidualLayerNormOp>(op))
    return 2; // LayerNorm's outputs, from its inputs
  if (isa<MaskedSoftmaxOp>(op))
    return 3; // attention's probabilities, from its scores
  if (isa<LinearOp>(op))
    return 4; // a GEMM with its epilogue: the FFN's hidden layer
  return 0;   // never: other GEMMs, reductions, in-place updates
}
constexpr int kLevels = 4;

/// The multiply-adds x 2 a clone of `op` costs: its GEMM's (elementwise
/// work is not counted).
int64_t flopsOf(Operation *op) {
  auto linear = dyn_cast<LinearOp>(op);
  if (!linear)
    return 0;
  auto result = cast<RankedTensorType>(linear.getResult().getType());
  auto input = cast<RankedTensorType>(linear.getInput().getType());
  return 2 * result.getNumElements() * input.getShape().back();
}

/// The arena bytes of `function`'s memory plan.
int64_t arenaOf(func::FuncOp function) {
  return planMemory(function, BufferAssignment(function)).arenaBytes;
}

/// Makes the results of `op` again before their late reads, when they
/// have some: a read after the longest stretch of ops in which no result
/// of `op` is read, past which every operand of `op` is still live, and
/// before `end` (the step's tc.adam: it updates the parameters in place,
/// so a clone after it would read the new weights). Returns whether it did.
bool recomputeLateReads(Operation *op,
                        const llvm::DenseMap<Operation *, int64_t> &index,
                        int64_t end) {
  // The reads of the results, in order.
  // A read inside a region counts at its op in the function's body.
  Block *body = op->getBlock();
  auto at = [&](OpOperand &use) {
    return index.lookup(body->findAncestorOpInBlock(*use.getOwner()));
  };
  std::vector<std::pair<int64_t, OpOperand *>> reads;
  for (Value result : op->getResults())
    for (OpOperand &use : result.getUses())
      reads.push_back({at(use), &use});
  if (reads.size() < 2)
    return false;
  llvm::sort(reads, [](auto &a, auto &b) { return a.first < b.first; });
  size_t split = 0; // reads[split] is the first late read
  int64_t longest = 0, previous = index.lookup(op);
  for (size_t i = 0; i < reads.size(); ++i) {
    if (reads[i].first - previous > longest && i > 0) {
      longest = reads[i].first - previous;
      split = i;
    }
    previous = reads[i].first;
  }
  // A short stretch saves little; the clone would also run for nothing.
  if (split == 0 || longest < 8)
    return false;
  int64_t first = reads[split].first;
  if (first > end)
    return false;
  // Every operand live at the clone already: a function argument, or a
  // value read there or later. Otherwise the clone would extend it.
  for (Value operand : op->getOperands()) {
    if (isa<BlockArgument>(operand))
      continue;
    bool live = llvm::any_of(operand.getUses(),
                             [&](OpOperand &use) { return at(use) >= first; });
    if (!live)
      return false;
  }
  OpBuilder builder(body->findAncestorOpInBlock(*reads[split].second->getOwner()));
  Operation *clone = builder.clone(*op);
  for (size_t i = split; i < reads.size(); ++i) {
    OpOperand *use = reads[i].second;
    unsigned result = cast<OpResult>(use->get()).getResultNumber();
    use->set(clone->getResult(result));
  }
  return true;
}

/// What the clones cost.
struct Recomputed {
  int64_t ops = 0, flops = 0;
};

/// Recomputes the ops of levels up to `level` in `function` until none
/// more can be, adding what the clones cost to `made`.
void recomputeUpTo(func::FuncOp function, int level, Recomputed &made) {
  for (bool changed = true; changed;) {
    changed = false;
    llvm::DenseMap<Operation *, int64_t> index;
    std::vector<Operation *> candidates;
    int64_t i = 0, end = std::numeric_limits<int64_t>::max();
    for (Operation &op : function.getBody().front()) {
      if (isa<AdamOp>(op))
        end = std::min(end, i);
      index[&op] = i++;
      int opLevel = levelOf(&op);
      if (opLevel > 0 && opLevel <= level)
        candidates.push_back(&op);
    }
    for (Operation *op : candidates)
      if (recomputeLateReads(op, index, end)) {
        ++made.ops;
        made.flops += flopsOf(op);
        changed = true;
        break; // the indices moved
      }
  }
}

struct TcRecompute : tc::impl::TcRecomputeBase<TcRecompute> {
  using TcRecomputeBase::TcRecomputeBase;

  void runOnOperation() override {
    if (budget <= 0)
      return;
    // Every bucket's step, so that a refusal names the budget all of them
    // fit (the largest step's smallest arena), not the first one's.
    func::FuncOp worst;
    int64_t worstArena = 0;
    for (func::FuncOp function : getOperation().getOps<func::FuncOp>()) {
      if (!function.getSymName().starts_with(contract::functionNamePrefix(
              contract::FunctionRole::TrainStep)))
        continue;
      int64_t arena = fit(function);
      if (arena > budget && arena > worstArena) {
        worst = function;
        worstArena = arena;
      }
    }
    if (!worst)
      return;
    auto made = worst->getAttrOfType<DictionaryAttr>("tc.recompute");
    int64_t plain =
        cast<IntegerAttr>(made.get("plain_arena_bytes")).getInt();
    std::string why =
        "the memory budget of " + std::to_string(int64_t(budget)) +
        " bytes cannot be met: " + worst.getSymName().str() +
        "'s activations need " + std::to_string(worstArena) +
        " bytes with everything tc recomputes (" + std::to_string(plain) +
        " without); give a budget of at least " + std::to_string(worstArena) +
        " bytes, or smaller buckets";
    // For tc-compile, which says it as a refusal (`diagnose` false); for
    // tc-opt, as an error at the step.
    getOperation()->setAttr(kMemoryBudgetUnmetAttrName,
                            StringAttr::get(&getContext(), why));
    if (diagnose)
      worst.emitError(why);
    signalPassFailure();
  }

  /// Recomputes level after level until `function`'s arena fits the
  /// budget (or no level is left); records what it did as tc.recompute and
  /// returns the arena reached.
  int64_t fit(func::FuncOp function) {
    int64_t plain = arenaOf(function), arena = plain;
    Recomputed made;
    int level = 0;
    while (arena > budget && level < kLevels) {
      recomputeUpTo(function, ++level, made);
      arena = arenaOf(function);
    }
    Builder b(function.getContext());
    function->setAttr("tc.recompute",
                      b.getDictionaryAttr(
                          {b.getNamedAttr("plain_arena_bytes",
                                          b.getI64IntegerAttr(plain)),
                           b.getNamedAttr("arena_bytes",
                                          b.getI64IntegerAttr(arena)),
                           b.getNamedAttr("level", b.getI64IntegerAttr(level)),
                           b.getNamedAttr("recomputed_ops",
                                          b.getI64IntegerAttr(made.ops)),
                           b.getNamedAttr("recomputed_flops",
                                          b.getI64IntegerAttr(made.flops))}));
    return arena;
  }
};

} // namespace
