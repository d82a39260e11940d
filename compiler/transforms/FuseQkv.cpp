//===- FuseQkv.cpp - tc-fuse-qkv: Q, K, V projections -> one GEMM ---------===//

#include "compiler/transforms/Passes.h"
#include "compiler/transforms/TransformUtils.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

namespace tc {
#define GEN_PASS_DEF_TCFUSEQKV
#include "compiler/transforms/Passes.h.inc"
} // namespace tc

using namespace mlir;
using namespace tc;

namespace {

/// A projection followed by its head split: linear -> [B, L, h, dh] ->
/// [B, h, L, dh]; or a flat one, whose [B, L, o] is read as it is (the
/// incremental decoder's: its kernels take the heads side by side), with
/// no split.
struct Projection {
  LinearOp linear;
  ReshapeOp split;   ///< null for a flat projection
  TransposeOp heads; ///< null for a flat projection
  bool flat() const { return !split; }
};

std::optional<Projection> matchProjection(LinearOp linear) {
  if (linear.getRelu() || linear->use_empty() ||
      !isa<BlockArgument>(linear.getWeight()) ||
      !isa<BlockArgument>(linear.getBias()) ||
      typeOf(linear.getResult()).getRank() != 3)
    return std::nullopt;
  // Flat: no consumer reshapes it (one that did would be a head split this
  // pass does not know) or returns it (a strided part would then be copied
  // into the function's output, where the GEMM wrote it there: the decoder
  // start's keys and values of the source).
  if (llvm::none_of(linear->getUsers(), [](Operation *user) {
        return user->hasTrait<tc::OpTrait::View>() ||
               isa<func::ReturnOp>(user);
      }))
    return Projection{linear, nullptr, nullptr};
  if (!linear->hasOneUse())
    return std::nullopt;
  // The head split: [B, L, o] -> [B, L, h, dh] with h * dh = o.
  auto split = dyn_cast<ReshapeOp>(*linear->getUsers().begin());
  if (!split || !split->hasOneUse() || typeOf(split.getResult()).getRank() != 4)
    return std::nullopt;
  ArrayRef<int64_t> out = typeOf(linear.getResult()).getShape();
  ArrayRef<int64_t> hd = typeOf(split.getResult()).getShape();
  if (hd[0] != out[0] || hd[1] != out[1] || hd[2] * hd[3] != out[2])
    return std::nullopt;
  auto heads = dyn_cast<TransposeOp>(*split->getUsers().begin());
  if (!heads || heads.getPermutation() != ArrayRef<int64_t>{0, 2, 1, 3})
    return std::nullopt;
  return Projection{linear, split, heads};
}

/// Flat projections: one GEMM, its [B, L, n * o] viewed as [n, B, L, o] and
/// split along the outer axis (each part a strided view of the GEMM's
/// result, which a consumer that reads only contiguous buffers gets
/// copied: a decoder step's 64 x 256 is a few microseconds, where a GEMM
/// of its own cost 13 us in the int8 step on a Zen 5).
void fuseFlat(MutableArrayRef<Projection> group, OpBuilder &b, Location loc,
              Value w, Value bias) {
  int64_t n = group.size();
  RankedTensorType out = typeOf(group[0].linear.getResult()); // [B, L, o]
  int64_t B = out.getDimSize(0), L = out.getDimSize(1), o = out.getDimSize(2);
  Value y = LinearOp::create(b, loc, out.clone({B, L, n * o}),
                             group[0].linear.getInput(), w, bias, false);
  Value r = ReshapeOp::create(b, loc, out.clone({B, L, n, o}), y);
  Value t = TransposeOp::create(b, loc, out.clone({n, B, L, o}), r,
                                ArrayRef<int64_t>{2, 0, 1, 3});
  SmallVector<Type> pieces(n, out.clone({1, B, L, o}));
  auto parts = SplitOp::create(b, loc, pieces, t, 0);
  SmallVector<Value> values; // all built before anything is erased
  for (Value part : parts.getResults())
    values.push_back(ReshapeOp::create(b, loc, out, part));
  for (auto [p, value] : llvm::zip(group, values)) {
    LinearOp linear = p.linear;
    linear.getResult().replaceAllUsesWith(value);
    linear->erase();
  }
}

// By value: the accessors of MLIR op handles are not const.
void fuse(SmallVector<Projection> group) {
  Operation *first = group.front().linear;
  for (Projection p : group)
    if (p.linear->isBeforeInBlock(first))
      first = p.linear;
  OpBuilder b(first);
  Location loc = first->getLoc();
  int64_t n = group.size();
  RankedTensorType out = typeOf(group[0].linear.getResult());  // [B, L, o]
  RankedTensorType weight = typeOf(group[0].linear.getWeight()); // [o, in]
  int64_t o = out.getDimSize(2);

  SmallVector<Value> weights, biases;
  for (Projection p : group) {
    weights.push_back(p.linear.getWeight());
    biases.push_back(p.linear.getBias());
  }
  Value w = ConcatOp::create(
      b, loc, weight.clone({n * o, weight.getDimSize(1)}), weights, 0);
  Value bias = ConcatOp::create(b, loc, out.clone({n * o}), biases, 0);
  if (group.front().flat())
    return fuseFlat(group, b, loc, w, bias);
  RankedTensorType split = typeOf(group[0].split.getResult()); // [B, L, h, dh]
  RankedTensorType heads = typeOf(group[0].heads.getResult()); // [B, h, L, dh]
  Value y = LinearOp::create(
      b, loc, out.clone({out.getDimSize(0), out.getDimSize(1), n * o}),
      group[0].linear.getInput(), w, bias, false);
  int64_t B = split.getDimSize(0), L = split.getDimSize(1),
          h = split.getDimSize(2), dh = split.getDimSize(3);
  Value r = ReshapeOp::create(b, loc, out.clone({B, L, n, h, dh}), y);
  Value t = TransposeOp::create(b, loc, out.clone({n, B, h, L, dh}), r,
                                ArrayRef<int64_t>{2, 0, 3, 1, 4});
  SmallVector<Type> pieces(n, out.clone({1, B, h, L, dh}));
  auto parts = SplitOp::create(b, loc, pieces, t, 0);
  SmallVector<Value> values; // all built before anything is erased
  for (Value part : parts.getResults())
    values.push_back(ReshapeOp::create(b, loc, heads, part));
  for (auto [p, value] : llvm::zip(group, values)) {
    p.heads.getResult().replaceAllUsesWith(value);
    p.heads->erase();
    p.split->erase();
    p.linear->erase();
  }
}

struct FuseQkvPass : public tc::impl::TcFuseQkvBase<FuseQkvPass> {
  void runOnOperation() override {
    for (func::FuncOp function : getOperation().getOps<func::FuncOp>()) {
      if (function.isExternal())
        continue;
      // Projections grouped by their input, in order.
      llvm::MapVector<Value, SmallVector<Projection>> byInput;
      function.walk([&](LinearOp linear) {
        if (std::optional<Projection> p = matchProjection(linear))
          byInput[linear.getInput()].push_back(*p);
      });
      // Within one input (the encoder's memory feeds the K and V of every
      // decoder layer), fuse each run of projections with adjacent weights.
      for (auto &[input, projections] : byInput) {
        auto argNumber = [](Value v) {
          return cast<BlockArgument>(v).getArgNumber();
        };
        llvm::sort(projections, [&](Projection a, Projection b) {
          return argNumber(a.linear.getWeight()) <
                 argNumber(b.linear.getWeight());
        });
        SmallVector<Projection> run;
        auto flush = [&] {
          if (run.size() >= 2 && run.size() <= 3)
            fuse(run);
          run.clear();
        };
        for (Projection p : projections) {
          if (!run.empty()) {
            Projection last = run.back();
            bool continues = argNumber(p.linear.getWeight()) ==
                                 argNumber(last.linear.getWeight()) + 1 &&
                             argNumber(p.linear.getBias()) ==
                                 argNumber(last.linear.getBias()) + 1 &&
                             p.linear.getType() == last.linear.getType() &&
                             p.flat() == last.flat() &&
                             (p.flat() ||
                              p.split.getType() == last.split.getType());
            if (!continues)
              flush();
          }
          run.push_back(p);
        }
        flush();
      }
    }
  }
};

} // namespace
