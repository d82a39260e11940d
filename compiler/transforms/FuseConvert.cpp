//===- FuseConvert.cpp - tc-fuse-convert: row ops store their bf16 copy ---===//
//
// Converts to bf16 move above the view ops (reshape, transpose, split) whose
// results only they read, so that the view reads bf16 and folds into the
// GEMM's strides as it does in f32, instead of a transpose kernel moving f32
// values for a convert to narrow (attention's head split). Then a
// tc.convert to bf16 of a row op's result, or of a bf16 GEMM's, that
// nothing else reads becomes the op's own store: the result narrowed to
// bf16 (rounded once from the f32 value, as the convert would), so that the
// conversion is no kernel of its own; where others read that result in f32
// too, the LayerNorms' kernels store a bf16 copy beside it. A convert left
// beside a column sum of the same value joins it in one kernel. See
// Passes.td.
//
//===----------------------------------------------------------------------===//

#include "compiler/transforms/Passes.h"
#include "compiler/transforms/TransformUtils.h"
#include "dialects/tc/Bf16Copies.h"

#include "mlir/IR/Builders.h"

namespace tc {
#define GEN_PASS_DEF_TCFUSECONVERT
#include "compiler/transforms/Passes.h.inc"
} // namespace tc

using namespace mlir;
using namespace tc;

namespace {

/// The views a convert may move above: not a slice (above it, each slice
/// would convert the whole input).
bool isCrossableView(Operation *op) {
  return isa<ReshapeOp, TransposeOp, SplitOp>(op);
}

bool storesNarrowed(Operation *op);

/// Whether an f32 `transpose` is better left where it is: the result of a
/// GEMM that cannot store bf16 and that only the transpose reads, which the
/// GEMM writes in the transposed layout (no kernel), where a convert above
/// it would be a contiguous kernel and the bf16 transpose a kernel of its
/// own. (Above a GEMM that stores bf16, the convert folds into it, and the
/// bf16 transpose folds into its strides: attention's head merge.)
bool foldsIntoItsGemm(TransposeOp transpose) {
  Operation *producer = transpose.getInput().getDefiningOp();
  return producer && isa<MatmulOp, LinearOp>(producer) &&
         !storesNarrowed(producer) && transpose.getInput().hasOneUse();
}

/// Moves the converts to bf16 of `view`'s results above it where they are
/// all its results' readers: one convert of its input, and the view of
/// that. Rounding is elementwise, so each element is the same bits.
void hoistAbove(Operation *view) {
  if (!typeOf(view->getOperand(0)).getElementType().isF32())
    return;
  if (auto transpose = dyn_cast<TransposeOp>(view);
      transpose && foldsIntoItsGemm(transpose))
    return;
  for (Value result : view->getResults())
    if (result.use_empty() || !llvm::all_of(result.getUsers(), narrowsToBf16))
      return;
  OpBuilder b(view);
  Value input = view->getOperand(0);
  RankedTensorType inputType = typeOf(input);
  Value converted = ConvertOp::create(
      b, view->getLoc(), inputType.clone(b.getBF16Type()), input);
  Operation *narrowView = b.clone(*view);
  narrowView->setOperand(0, converted);
  for (auto [old, narrow] :
       llvm::zip(view->getResults(), narrowView->getResults())) {
    narrow.setType(typeOf(old).clone(b.getBF16Type()));
    for (Operation *convert : llvm::make_early_inc_range(old.getUsers())) {
      convert->getResult(0).replaceAllUsesWith(narrow);
      convert->erase();
    }
  }
  view->erase();
}

/// Whether `op` can store its result #0 in bf16: the row ops whose
/// verifiers accept a narrowed result (RowKernels.cpp's @S0), and a GEMM of
/// bf16 operands without a bias, which sums in f32 and rounds as it stores
/// (cuBLAS's and oneDNN's bf16 output). A tc.linear keeps its f32 result:
/// its bias is f32, and cuBLASLt's bias epilogue into bf16 takes a bf16
/// bias only.
bool storesNarrowed(Operation *op) {
  if (auto matmul = dyn_cast<MatmulOp>(op))
    return typeOf(matmul.getLhs()).getElementType().isBF16();
  return isa<MaskedSoftmaxOp, MaskedSoftmaxGradOp, ResidualLayerNormOp,
             CrossEntropyGradOp>(op);
}

/// Whether `convert` narrows an f32 value to bf16.
bool narrowsF32ToBf16(ConvertOp convert) {
  return typeOf(convert.getInput()).getElementType().isF32() &&
         typeOf(convert.getResult()).getElementType().isBF16();
}

/// Folds `convert` into its input's producer where it can: the value an f32
/// result #0 of a row op or GEMM that only the convert reads. Returns
/// whether it did.
bool fold(ConvertOp convert) {
  Value input = convert.getInput();
  auto result = dyn_cast<OpResult>(input);
  if (!result || result.getResultNumber() != 0 ||
      !storesNarrowed(result.getOwner()) || !input.hasOneUse() ||
      !narrowsF32ToBf16(convert))
    return false;
  input.setType(convert.getResult().getType());
  convert.getResult().replaceAllUsesWith(input);
  convert.erase();
  return true;
}

/// Where `convert` narrows a result that other ops read in f32 too and
/// whose op can store a bf16 copy of it (dialects/tc/Bf16Copies.h), the op
/// is made again with its bf16 copy (the value rounded once, as the
/// convert did), which the convert's readers read instead. Returns whether
/// it did.
bool storeCopy(ConvertOp convert) {
  auto result = dyn_cast<OpResult>(convert.getInput());
  if (!result || !narrowsF32ToBf16(convert))
    return false;
  Operation *op = result.getOwner();
  std::optional<Bf16Copy> copyable = bf16CopyOf(op);
  if (!copyable || copyable->of != result || copyable->copy)
    return false;
  OpBuilder b(op);
  SmallVector<Type> types(op->getResultTypes());
  types.push_back(convert.getResult().getType());
  OperationState state(op->getLoc(), op->getName(), op->getOperands(), types,
                       op->getAttrs());
  Operation *remade = b.create(state);
  for (auto [old, now] : llvm::zip(op->getResults(), remade->getResults()))
    old.replaceAllUsesWith(now);
  op->erase();
  convert.getResult().replaceAllUsesWith(remade->getResults().back());
  convert.erase();
  return true;
}

/// Whether `op` sums `input` over every dimension but the last: a bias
/// gradient's column sum, which the loop kernels run across columns (the
/// CUDA lanes along a row, coalesced; the host's blocks of columns), so
/// that a convert of the same elements joins it with its stores in order.
bool isColumnSum(Operation *op, Value input) {
  auto sum = dyn_cast<ReduceSumOp>(op);
  if (!sum || sum.getInput() != input)
    return false;
  int64_t rank = typeOf(input).getRank();
  return rank >= 2 && llvm::equal(sum.getAxes(), llvm::seq<int64_t>(0, rank - 1));
}

/// Where a convert to bf16 is left (its input's producer can store no
/// bf16 value) and a column sum reads the same input (a bias gradient,
/// beside the convert of that gradient for its GEMMs), the two become one
/// tc.fused: one pass over the input stores the bf16 values and sums the
/// columns, instead of two kernels each reading it. The sums and the
/// rounding are the ops', unchanged.
void joinColumnSum(ConvertOp convert) {
  Value input = convert.getInput();
  if (!narrowsF32ToBf16(convert) || convert.use_empty() ||
      isa<FusedOp>(convert->getParentOp()))
    return;
  for (Operation *reader : input.getUsers()) {
    if (!isColumnSum(reader, input) || reader->use_empty() ||
        reader->getBlock() != convert->getBlock())
      continue;
    SmallVector<Operation *> ops = {convert, reader};
    if (reader->isBeforeInBlock(convert))
      std::swap(ops[0], ops[1]);
    outlineFused(ops);
    return;
  }
}

/// Converts of one value to one type made one: the others' readers read
/// the first (a value narrowed twice would otherwise look read by others).
void mergeDuplicates(Operation *root) {
  llvm::DenseMap<std::pair<Value, Type>, ConvertOp> first;
  SmallVector<ConvertOp> duplicates;
  root->walk([&](ConvertOp convert) {
    auto [it, added] = first.try_emplace(
        {convert.getInput(), convert.getResult().getType()}, convert);
    if (!added && it->second->getBlock() == convert->getBlock() &&
        it->second->isBeforeInBlock(convert))
      duplicates.push_back(convert);
  });
  for (ConvertOp convert : duplicates) {
    ConvertOp kept = first.at({convert.getInput(), convert.getResult().getType()});
    convert.getResult().replaceAllUsesWith(kept.getResult());
    convert.erase();
  }
}

struct FuseConvertPass : public tc::impl::TcFuseConvertBase<FuseConvertPass> {
  void runOnOperation() override {
    // Last view first: a convert moved above one view may then move above
    // the view before it (split, then transpose, then reshape).
    SmallVector<Operation *> views;
    getOperation().walk([&](Operation *op) {
      if (isCrossableView(op))
        views.push_back(op);
    });
    for (Operation *view : llvm::reverse(views))
      hoistAbove(view);
    mergeDuplicates(getOperation());
    SmallVector<ConvertOp> converts;
    getOperation().walk([&](ConvertOp convert) { converts.push_back(convert); });
    SmallVector<ConvertOp> left;
    for (ConvertOp convert : converts)
      if (!fold(convert) && !storeCopy(convert))
        left.push_back(convert);
    for (ConvertOp convert : left)
      joinColumnSum(convert);
  }
};

} // namespace
