//===- TcOps.cpp - verifiers and folders of the tc operations -------------===//
//
// Each verifier names the operand and the expected vs actual shapes, so that a
// wrong graph is fixed from the message alone.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/TcDialect.h"
#include "dialects/tc/GemmElementTypes.h"
#include "support/Broadcast.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tc;

namespace {

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

std::string fmt(ArrayRef<int64_t> shape) {
  return formatShape(std::span<const int64_t>(shape.data(), shape.size()));
}

/// Checks that `actual` (the result's shape) is `expected`.
LogicalResult verifyResultShape(Operation *op, ArrayRef<int64_t> expected,
                                StringRef why) {
  ArrayRef<int64_t> actual = shapeOf(op->getResult(0));
  if (actual == expected)
    return success();
  return op->emitOpError() << "result has shape " << fmt(actual)
                           << " but expected " << fmt(expected) << " (" << why
                           << ")";
}

/// `axis` is a valid dimension index of a tensor of rank `rank`.
LogicalResult verifyAxis(Operation *op, StringRef what, int64_t axis,
                         int64_t rank) {
  if (axis >= 0 && axis < rank)
    return success();
  if (rank == 0)
    return op->emitOpError() << what << " " << axis
                             << " is out of range: the operand has rank 0 and "
                                "no axes";
  return op->emitOpError() << what << " " << axis << " is out of range for an "
                           << "operand of rank " << rank << "; expected 0 to "
                           << rank - 1;
}

} // namespace

/// ` narrowed T` after the types of a row op whose result #0 is stored in
/// `T`, narrower than the op's type `like` (tc-fuse-convert); nothing where
/// it has that type.
static ParseResult parseNarrowedType(OpAsmParser &parser, Type &result,
                                     Type like) {
  result = like;
  if (failed(parser.parseOptionalKeyword("narrowed")))
    return success();
  return parser.parseType(result);
}

static void printNarrowedType(OpAsmPrinter &printer, Operation *, Type result,
                              Type like) {
  if (result != like)
    printer << " narrowed " << result;
}

/// Result #0 of a row op has the type of its input `like`, or that shape
/// in bf16 where `like` is f32 (tc-fuse-convert narrowed it).
static LogicalResult verifyNarrowedResult(Operation *op, Value like) {
  auto type = cast<RankedTensorType>(like.getType());
  Type result = op->getResult(0).getType();
  if (result == type ||
      (type.getElementType().isF32() &&
       result == type.clone(BFloat16Type::get(op->getContext()))))
    return success();
  return op->emitOpError() << "result has type " << result << " but expected "
                           << type << " (or bf16 of an f32 op, narrowed)";
}

/// A row op's bf16 copy of its f32 result `of` (tc-fuse-convert), where it
/// has one: `of`'s shape in bf16.
static LogicalResult verifyBf16Copy(Operation *op, Value of, Value copy) {
  if (!copy)
    return success();
  auto type = cast<RankedTensorType>(of.getType());
  if (type.getElementType().isF32() &&
      copy.getType() == type.clone(BFloat16Type::get(op->getContext())))
    return success();
  return op->emitOpError() << "bf16 copy has type " << copy.getType()
                           << " but expected the bf16 of " << type
                           << " (an f32 result)";
}

/// A dropout rate in [0, 1).
static LogicalResult verifyRate(Operation *op, APFloat rateValue) {
  double rate = rateValue.convertToDouble();
  if (rate >= 0.0 && rate < 1.0)
    return success();
  return op->emitOpError() << "rate must be in [0, 1), got " << rate;
}

/// A layer-norm epsilon: positive.
static LogicalResult verifyEpsilon(Operation *op, APFloat epsilon) {
  if (epsilon.convertToDouble() > 0.0)
    return success();
  return op->emitOpError() << "epsilon must be positive, got "
                           << epsilon.convertToDouble();
}

/// A label-smoothing factor in [0, 1).
static LogicalResult verifyLabelSmoothing(Operation *op, APFloat value) {
  double eps = value.convertToDouble();
  if (eps >= 0.0 && eps < 1.0)
    return success();
  return op->emitOpError() << "label_smoothing must be in [0, 1), got " << eps;
}

/// The shape of an embedding lookup: the ids' shape, then the row size.
static SmallVector<int64_t> lookupShape(Value ids, int64_t dim) {
  SmallVector<int64_t> shape(shapeOf(ids));
  shape.push_back(dim);
  return shape;
}

/// Elementwise ops: all operands broadcast together to the result's shape.
static LogicalResult verifyBroadcastingOp(Operation *op) {
  Shape shape;
  for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
    ArrayRef<int64_t> next = shapeOf(operand);
    std::optional<Shape> joined =
        broadcastShapes(shape, std::span<const int64_t>(next));
    if (!joined)
      return op->emitOpError()
             << "operand #" << index << " has shape " << fmt(next)
             << ", which does not broadcast with " << fmt(shape)
             << " (the operands before it); dimensions aligned from the last "
                "must be equal or 1";
    shape = *joined;
  }
  return verifyResultShape(op, shape, "the broadcast shape of the operands");
}

// The verifiers below are declared by ODS (hasVerifier) in TcOps.td.

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

/// Reductions: axes distinct and in range; the result drops (or keeps as 1)
/// the reduced dimensions.
static LogicalResult verifyReduceOp(Operation *op) {
  ArrayRef<int64_t> input = shapeOf(op->getOperand(0));
  auto axes = op->getAttrOfType<DenseI64ArrayAttr>("axes").asArrayRef();
  bool keepDims = op->hasAttr("keep_dims");
  if (axes.empty())
    return op->emitOpError() << "needs at least one axis to reduce over";
  SmallVector<bool> reduced(input.size(), false);
  for (int64_t axis : axes) {
    if (failed(verifyAxis(op, "axis", axis, input.size())))
      return failure();
    if (reduced[axis])
      return op->emitOpError() << "axis " << axis << " is listed twice";
    reduced[axis] = true;
  }
  SmallVector<int64_t> expected;
  for (auto [dim, size] : llvm::enumerate(input)) {
    if (!reduced[dim])
      expected.push_back(size);
    else if (keepDims)
      expected.push_back(1);
  }
  return verifyResultShape(op, expected,
                           keepDims ? "the input with reduced axes set to 1"
                                    : "the input without the reduced axes");
}

LogicalResult MatmulOp::verify() {
  ArrayRef<int64_t> lhs = shapeOf(getLhs()), rhs = shapeOf(getRhs());
  if (lhs.size() < 2 || rhs.size() < 2)
    return emitOpError() << "operands must have rank >= 2, got lhs " << fmt(lhs)
                         << " and rhs " << fmt(rhs);
  int64_t m = getTransposeLhs() ? lhs.back() : lhs[lhs.size() - 2];
  int64_t kl = getTransposeLhs() ? lhs[lhs.size() - 2] : lhs.back();
  int64_t kr = getTransposeRhs() ? rhs.back() : rhs[rhs.size() - 2];
  int64_t n = getTransposeRhs() ? rhs[rhs.size() - 2] : rhs.back();
  if (kl != kr)
    return emitOpError() << "contraction sizes differ: lhs " << fmt(lhs)
                         << (getTransposeLhs() ? " (transposed)" : "")
                         << " contracts " << kl << " but rhs " << fmt(rhs)
                         << (getTransposeRhs() ? " (transposed)" : "")
                         << " contracts " << kr;
  std::optional<Shape> batch =
      broadcastShapes(std::span<const int64_t>(lhs.drop_back(2)),
                      std::span<const int64_t>(rhs.drop_back(2)));
  if (!batch)
    return emitOpError() << "batch dimensions of lhs " << fmt(lhs)
                         << " and rhs " << fmt(rhs)
                         << " do not broadcast; they must be equal or 1";
  Shape expected = *batch;
  expected.push_back(m);
  expected.push_back(n);
  if (failed(verifyGemmElementTypes(*this, getLhs(), getRhs(), getResult())))
    return failure();
  return verifyResultShape(*this, expected,
                           "broadcast batch dimensions, then [M, N]");
}

LogicalResult SoftmaxOp::verify() {
  return verifyAxis(*this, "axis", getAxis(), shapeOf(getInput()).size());
}

LogicalResult LogSoftmaxOp::verify() {
  ArrayRef<int64_t> input = shapeOf(getInput());
  if (input.empty() || input.back() == 0)
    return emitOpError() << "input has shape " << fmt(input)
                         << " but expected rank >= 1 and a last dimension "
                            "of at least 1 (the row it normalises)";
  return success();
}

LogicalResult LayerNormOp::verify() {
  ArrayRef<int64_t> input = shapeOf(getInput());
  if (input.empty())
    return emitOpError() << "input must have rank >= 1";
  int64_t d = input.back();
  for (auto [name, value] : {std::pair<StringRef, Value>{"gamma", getGamma()},
                             std::pair<StringRef, Value>{"beta", getBeta()}}) {
    if (shapeOf(value) != ArrayRef<int64_t>{d})
      return emitOpError() << name << " has shape " << fmt(shapeOf(value))
                           << " but expected [" << d
                           << "] (the last dimension of input " << fmt(input)
                           << ")";
  }
  return verifyEpsilon(*this, getEpsilon());
}

/// A lookup's or a table gradient's padding_id, if any, names a row of
/// its table of `vocabulary` rows.
static LogicalResult verifyPaddingId(Operation *op,
                                     std::optional<int64_t> paddingId,
                                     int64_t vocabulary) {
  if (paddingId && (*paddingId < 0 || *paddingId >= vocabulary))
    return op->emitOpError()
           << "padding_id " << *paddingId << " is not a row of the table ["
           << vocabulary << " rows]";
  return success();
}

LogicalResult EmbeddingOp::verify() {
  ArrayRef<int64_t> table = shapeOf(getTable());
  if (table.size() != 2)
    return emitOpError() << "table must have rank 2 [vocabulary, dim], got "
                         << fmt(table);
  if (failed(verifyPaddingId(*this, getPaddingId(), table[0])))
    return failure();
  return verifyResultShape(*this, lookupShape(getIds(), table[1]),
                           "the ids' shape, then the "
                           "table's row size");
}

LogicalResult DropoutOp::verify() { return verifyRate(*this, getRate()); }

LogicalResult CausalMaskOp::verify() {
  ArrayRef<int64_t> shape = shapeOf(getResult());
  if (shape.size() != 2 || shape[0] != shape[1])
    return emitOpError() << "result must be a square [T, T] mask, got "
                         << fmt(shape);
  return success();
}

LogicalResult PrefixMaskOp::verify() {
  ArrayRef<int64_t> rows = shapeOf(getPosition());
  ArrayRef<int64_t> shape = shapeOf(getResult());
  if (rows.size() != 1 || shape.size() != 2 || shape[0] != rows[0])
    return emitOpError() << "takes positions [R] to a mask [R, T], got "
                         << fmt(rows) << " -> " << fmt(shape);
  return success();
}

LogicalResult TopKOp::verify() {
  ArrayRef<int64_t> input = shapeOf(getInput());
  if (input.empty())
    return emitOpError() << "input must have rank >= 1";
  int64_t k = getK();
  if (k < 1 || k > input.back())
    return emitOpError() << "k = " << k << " must lie in [1, "
                         << input.back() << "] (the last dimension)";
  SmallVector<int64_t> expected(input);
  expected.back() = k;
  for (Value result : {getValues(), getIndices()})
    if (shapeOf(result) != ArrayRef<int64_t>(expected))
      return emitOpError() << "results must have shape " << fmt(expected)
                           << ", got " << fmt(shapeOf(result));
  if (getValues().getType().getElementType() !=
      getInput().getType().getElementType())
    return emitOpError() << "values must have the input's element type";
  return success();
}

LogicalResult LogSoftmaxTopKOp::verify() {
  ArrayRef<int64_t> input = shapeOf(getInput());
  if (input.size() != 2 || input[1] == 0)
    return emitOpError() << "input must be rows [R, N] with N >= 1, got "
                         << fmt(input);
  int64_t rows = input[0], n = input[1], k = getK(), column = getColumn();
  if (shapeOf(getAddend()) != ArrayRef<int64_t>{n})
    return emitOpError() << "addend must have shape [" << n
                         << "] (a value per column), got "
                         << fmt(shapeOf(getAddend()));
  if (k < 1 || k > n)
    return emitOpError() << "k = " << k << " must lie in [1, " << n << "]";
  if (column < 0 || column >= n)
    return emitOpError() << "column = " << column << " must lie in [0, " << n
                         << ")";
  for (Value result : {getValues(), getIndices()})
    if (shapeOf(result) != ArrayRef<int64_t>{rows, k})
      return emitOpError() << "values and indices must have shape [" << rows
                           << ", " << k << "], got " << fmt(shapeOf(result));
  if (shapeOf(getColumnValues()) != ArrayRef<int64_t>{rows, 1})
    return emitOpError() << "column_values must have shape [" << rows
                         << ", 1], got " << fmt(shapeOf(getColumnValues()));
  return success();
}

LogicalResult CacheUpdateOp::verify() {
  ArrayRef<int64_t> cache = shapeOf(getCache());
  if (cache.size() != 3)
    return emitOpError() << "cache must have rank 3 [rows, positions, "
                            "channels], got "
                         << fmt(cache);
  SmallVector<int64_t> value = {cache[0], 1, cache[2]};
  if (shapeOf(getValue()) != ArrayRef<int64_t>(value))
    return emitOpError() << "value has shape " << fmt(shapeOf(getValue()))
                         << " but expected " << fmt(value)
                         << " (one position of the cache)";
  if (shapeOf(getPosition()) != cache.take_front())
    return emitOpError() << "position has shape "
                         << fmt(shapeOf(getPosition())) << " but expected "
                         << fmt(cache.take_front())
                         << " (one per row of the cache)";
  if (!getCache().hasOneUse())
    return emitOpError() << "cache has other uses; it is updated in place, "
                            "so nothing else may read it";
  return success();
}

LogicalResult BeamHistoryOp::verify() {
  ArrayRef<int64_t> history = shapeOf(getHistory());
  if (history.size() != 2)
    return emitOpError() << "history must have rank 2 [rows, positions], got "
                         << fmt(history);
  for (auto [name, rows] : {std::pair("origin", getOrigin()),
                            std::pair("position", getPosition())})
    if (shapeOf(rows) != history.take_front())
      return emitOpError() << name << " has shape " << fmt(shapeOf(rows))
                           << " but expected " << fmt(history.take_front())
                           << " (one per row of the history)";
  if (!getHistory().hasOneUse())
    return emitOpError() << "history has other uses; it is updated in "
                            "place, so nothing else may read it";
  return success();
}

LogicalResult CachedAttentionOp::verify() {
  ArrayRef<int64_t> query = shapeOf(getQuery()), keys = shapeOf(getKeys()),
                    values = shapeOf(getValues());
  int64_t heads = getHeads();
  if (query.size() != 3 || query[1] != 1 || keys.size() != 3 ||
      values.size() != 3)
    return emitOpError() << "takes a query [R, 1, h * dk], keys [C, L, h * "
                            "dk] and values [C, L, h * dv], got "
                         << fmt(query) << ", " << fmt(keys) << ", "
                         << fmt(values);
  if (heads <= 0 || query[2] % heads != 0 || values[2] % heads != 0)
    return emitOpError() << "heads = " << heads
                         << " must divide the query's and the values' "
                            "channels, got "
                         << query[2] << " and " << values[2];
  if (keys[2] != query[2] || values[0] != keys[0] || values[1] != keys[1])
    return emitOpError() << "keys " << fmt(keys) << " and values "
                         << fmt(values)
                         << " must have the query's channels and the same "
                            "[C, L] cache rows and positions";
  SmallVector<int64_t> rows = {query[0]};
  for (auto [name, table] :
       {std::pair("slot", getSlot()), std::pair("limit", getLimit())})
    if (table && shapeOf(table) != ArrayRef<int64_t>(rows))
      return emitOpError() << name << " has shape " << fmt(shapeOf(table))
                           << " but expected " << fmt(rows)
                           << " (one per row of the query)";
  if (getSlot() && getHistory())
    return emitOpError() << "takes a slot or a history, not both: each says "
                            "which cache row a position is read from";
  if (getHistory() && shapeOf(getHistory()) != ArrayRef<int64_t>(
                                                   {query[0], keys[1]}))
    return emitOpError() << "history has shape "
                         << fmt(shapeOf(getHistory())) << " but expected "
                         << fmt({query[0], keys[1]})
                         << " (the query's rows and the cache's positions)";
  if (!getSlot() && !getHistory() && keys[0] != query[0])
    return emitOpError() << "without slot or history, row r reads cache row "
                            "r: the keys must have the query's "
                         << query[0] << " rows, got " << keys[0];
  if (getKeyMask() && shapeOf(getKeyMask()) != keys.take_front(2))
    return emitOpError() << "key_mask has shape " << fmt(shapeOf(getKeyMask()))
                         << " but expected " << fmt(keys.take_front(2))
                         << " (the keys' cache rows and positions)";
  SmallVector<int64_t> result = {query[0], 1, values[2]};
  if (shapeOf(getResult()) != ArrayRef<int64_t>(result))
    return emitOpError() << "result has shape " << fmt(shapeOf(getResult()))
                         << " but expected " << fmt(result);
  return success();
}

LogicalResult AllReduceOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &inferred) {
  llvm::append_range(inferred, operands.getTypes());
  return success();
}

LogicalResult AllReduceOp::verify() {
  if (getInputs().getTypes() != getResults().getTypes())
    return emitOpError() << "must have one result per input, of its type";
  for (auto [i, input] : llvm::enumerate(getInputs()))
    if (!input.hasOneUse())
      return emitOpError() << "input " << i
                           << " has other uses; it is reduced in place, so "
                              "nothing else may read it";
  return success();
}

LogicalResult PositionalEncodingOp::verify() {
  ArrayRef<int64_t> shape = shapeOf(getResult());
  if (shape.size() != 2)
    return emitOpError() << "result must have shape [length, d_model], got "
                         << fmt(shape);
  return success();
}

/// tc.cross_entropy's shapes and types, which
/// tc.cross_entropy_with_grad shares: targets are the logits' rows, the
/// loss a rank-0 tensor of their element type, the tokens a rank-0 i32.
static LogicalResult verifyLoss(Operation *op, Value logitsValue,
                                Value targets, Value lossValue, Value tokens,
                                APFloat labelSmoothing) {
  ArrayRef<int64_t> logits = shapeOf(logitsValue);
  if (logits.empty())
    return op->emitOpError()
           << "logits must have rank >= 1 [..., vocabulary]";
  if (shapeOf(targets) != logits.drop_back())
    return op->emitOpError()
           << "targets have shape " << fmt(shapeOf(targets)) << " but expected "
           << fmt(logits.drop_back()) << " (the logits " << fmt(logits)
           << " without the vocabulary dimension)";
  auto loss = cast<RankedTensorType>(lossValue.getType());
  if (loss.getRank() != 0 ||
      loss.getElementType() != getElementTypeOrSelf(logitsValue))
    return op->emitOpError() << "loss must be a rank-0 tensor of the logits' "
                                "element type, got "
                             << loss;
  if (cast<RankedTensorType>(tokens.getType()).getRank() != 0)
    return op->emitOpError() << "tokens must be a rank-0 i32 tensor, got "
                             << tokens.getType();
  return verifyLabelSmoothing(op, labelSmoothing);
}

/// tc.cross_entropy_grad's loss_grad, which tc.cross_entropy_with_grad
/// shares: a rank-0 tensor of the logits' element type.
static LogicalResult verifyLossGrad(Operation *op, Value logits,
                                    Value lossGrad) {
  if (!shapeOf(lossGrad).empty() ||
      getElementTypeOrSelf(lossGrad) != getElementTypeOrSelf(logits))
    return op->emitOpError() << "loss_grad must be a rank-0 tensor of the "
                                "logits' element type, got "
                             << lossGrad.getType();
  return success();
}

LogicalResult CrossEntropyOp::verify() {
  return verifyLoss(*this, getLogits(), getTargets(), getLoss(), getTokens(),
                    getLabelSmoothing());
}

LogicalResult CrossEntropyWithGradOp::verify() {
  if (failed(verifyNarrowedResult(*this, getLogits())) ||
      failed(verifyLoss(*this, getLogits(), getTargets(), getLoss(),
                        getTokens(), getLabelSmoothing())))
    return failure();
  return verifyLossGrad(*this, getLogits(), getLossGrad());
}

LogicalResult ReshapeOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto out = cast<RankedTensorType>(getResult().getType());
  if (in.getNumElements() != out.getNumElements())
    return emitOpError() << "cannot reshape " << fmt(in.getShape()) << " ("
                         << in.getNumElements() << " elements) to "
                         << fmt(out.getShape()) << " (" << out.getNumElements()
                         << " elements); the element counts must be equal";
  return success();
}

LogicalResult TransposeOp::verify() {
  ArrayRef<int64_t> input = shapeOf(getInput());
  ArrayRef<int64_t> perm = getPermutation();
  if (perm.size() != input.size())
    return emitOpError() << "permutation " << fmt(perm) << " has "
                         << perm.size() << " entries but the input "
                         << fmt(input) << " has rank " << input.size();
  SmallVector<bool> seen(input.size(), false);
  SmallVector<int64_t> expected;
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(input.size()) || seen[p])
      return emitOpError() << "permutation " << fmt(perm)
                           << " is not a permutation of 0.."
                           << input.size() - 1;
    seen[p] = true;
    expected.push_back(input[p]);
  }
  return verifyResultShape(*this, expected,
                           "the input's dimensions in permutation order");
}

LogicalResult BroadcastToOp::verify() {
  ArrayRef<int64_t> input = shapeOf(getInput());
  ArrayRef<int64_t> result = shapeOf(getResult());
  std::optional<Shape> joined = broadcastShapes(
      std::span<const int64_t>(input), std::span<const int64_t>(result));
  if (input.size() > result.size() || !joined ||
      ArrayRef<int64_t>(*joined) != result)
    return emitOpError() << "cannot broadcast " << fmt(input) << " to "
                         << fmt(result)
                         << "; each input dimension, aligned from the last, "
                            "must equal the result's or be 1";
  return success();
}

LogicalResult SliceOp::verify() {
  ArrayRef<int64_t> input = shapeOf(getInput());
  ArrayRef<int64_t> result = shapeOf(getResult());
  ArrayRef<int64_t> offsets = getOffsets();
  if (offsets.size() != input.size() || result.size() != input.size())
    return emitOpError() << "offsets " << fmt(offsets) << ", input "
                         << fmt(input) << " and result " << fmt(result)
                         << " must have the same rank";
  for (size_t d = 0; d < input.size(); ++d)
    if (offsets[d] < 0 || offsets[d] > input[d] - result[d])
      return emitOpError() << "dimension " << d << ": the box [" << offsets[d]
                           << ", " << offsets[d] + result[d]
                           << ") lies outside the input's [0, " << input[d]
                           << ")";
  return success();
}

LogicalResult ConcatOp::verify() {
  ArrayRef<int64_t> first = shapeOf(getInputs().front());
  int64_t axis = getAxis();
  if (failed(verifyAxis(*this, "axis", axis, first.size())))
    return failure();
  SmallVector<int64_t> expected(first);
  expected[axis] = 0;
  for (auto [index, input] : llvm::enumerate(getInputs())) {
    ArrayRef<int64_t> shape = shapeOf(input);
    bool agrees = shape.size() == first.size();
    for (size_t d = 0; agrees && d < shape.size(); ++d)
      agrees = d == static_cast<size_t>(axis) || shape[d] == first[d];
    if (!agrees)
      return emitOpError() << "input #" << index << " has shape " << fmt(shape)
                           << " but must match input #0 " << fmt(first)
                           << " in every dimension but axis " << axis;
    expected[axis] += shape[axis];
  }
  return verifyResultShape(*this, expected, "the inputs joined along the axis");
}

LogicalResult SoftmaxGradOp::verify() {
  return verifyAxis(*this, "axis", getAxis(), shapeOf(getOutput()).size());
}

LogicalResult LayerNormGradOp::verify() {
  ArrayRef<int64_t> input = shapeOf(getInput());
  if (input.empty() || shapeOf(getGamma()) != ArrayRef<int64_t>{input.back()})
    return emitOpError() << "gamma has shape " << fmt(shapeOf(getGamma()))
                         << " but expected [D] with D the last dimension of "
                            "input "
                         << fmt(input);
  return verifyEpsilon(*this, getEpsilon());
}

LogicalResult CrossEntropyGradOp::verify() {
  if (failed(verifyNarrowedResult(*this, getLogits())))
    return failure();
  ArrayRef<int64_t> logits = shapeOf(getLogits());
  if (logits.empty() || shapeOf(getTargets()) != logits.drop_back())
    return emitOpError() << "targets have shape " << fmt(shapeOf(getTargets()))
                         << " but expected the logits " << fmt(logits)
                         << " without the vocabulary dimension";
  if (failed(verifyLossGrad(*this, getLogits(), getLossGrad())))
    return failure();
  return verifyLabelSmoothing(*this, getLabelSmoothing());
}

/// A table's gradient [V, D] and the lookup's output_grad: the ids' shape,
/// then D (tc.embedding_grad and tc.embedding_grad_add).
static LogicalResult verifyTableGrad(Operation *op, Value ids,
                                     Value outputGrad, Value result,
                                     std::optional<int64_t> paddingId) {
  ArrayRef<int64_t> table = shapeOf(result);
  if (table.size() != 2)
    return op->emitOpError()
           << "result must be a table [vocabulary, dim], got " << fmt(table);
  if (failed(verifyPaddingId(op, paddingId, table[0])))
    return failure();
  SmallVector<int64_t> expected = lookupShape(ids, table[1]);
  if (shapeOf(outputGrad) != ArrayRef<int64_t>(expected))
    return op->emitOpError()
           << "output_grad has shape " << fmt(shapeOf(outputGrad))
           << " but expected " << fmt(expected)
           << " (the ids' shape, then the table's row size)";
  return success();
}

LogicalResult EmbeddingGradOp::verify() {
  return verifyTableGrad(*this, getIds(), getOutputGrad(), getResult(),
                         getPaddingId());
}

LogicalResult EmbeddingGradAddOp::verify() {
  return verifyTableGrad(*this, getIds(), getOutputGrad(), getResult(),
                         getPaddingId());
}

LogicalResult AdamOp::verify() {
  size_t n = getParams().size();
  if (getGrads().size() != n || getFirstMoments().size() != n ||
      getSecondMoments().size() != n || getNewParams().size() != n ||
      getNewFirstMoments().size() != n || getNewSecondMoments().size() != n)
    return emitOpError() << "needs as many gradients, moments and results as "
                            "parameters ("
                         << n << ")";
  for (size_t i = 0; i < n; ++i) {
    Type type = getParams()[i].getType();
    for (Value v :
         {Value(getGrads()[i]), Value(getFirstMoments()[i]),
          Value(getSecondMoments()[i]), Value(getNewParams()[i]),
          Value(getNewFirstMoments()[i]), Value(getNewSecondMoments()[i])})
      if (v.getType() != type)
        return emitOpError()
               << "parameter #" << i << " has type " << type
               << " but its gradient, moments or results have " << v.getType();
  }
  size_t copies = getParamCopies().size();
  if ((copies != 0 && copies != n) || getNewParamCopies().size() != copies)
    return emitOpError() << "needs a bf16 copy and a new copy of every "
                            "parameter ("
                         << n << "), or none; got " << copies << " and "
                         << getNewParamCopies().size();
  for (size_t i = 0; i < copies; ++i) {
    auto param = cast<RankedTensorType>(getParams()[i].getType());
    Type type = param.clone(BFloat16Type::get(getContext()));
    for (Value v : {Value(getParamCopies()[i]), Value(getNewParamCopies()[i])})
      if (v.getType() != type)
        return emitOpError() << "parameter #" << i << " of type " << param
                             << " has a copy of type " << v.getType()
                             << "; its copy is " << type;
  }
  for (auto [name, value, low, high] :
       {std::tuple<StringRef, double, double, double>{
            "beta1", getBeta1().convertToDouble(), 0.0, 1.0},
        {"beta2", getBeta2().convertToDouble(), 0.0, 1.0}})
    if (!(value >= low && value < high))
      return emitOpError() << name << " must be in [0, 1), got " << value;
  if (!(getEpsilon().convertToDouble() >= 0.0))
    return emitOpError() << "epsilon must be >= 0, got "
                         << getEpsilon().convertToDouble();
  if (!shapeOf(getStepSize()).empty() ||
      !shapeOf(getRsqrtCorrection2()).empty() ||
      !shapeOf(getGradScale()).empty())
    return emitOpError()
           << "step_size, rsqrt_correction2 and grad_scale must be rank 0";
  return success();
}

LogicalResult FusedOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError() << "body has " << body.getNumArguments()
                         << " argument(s) for " << getInputs().size()
                         << " input(s)";
  for (auto [arg, input] : llvm::zip(body.getArguments(), getInputs()))
    if (arg.getType() != input.getType())
      return emitOpError() << "body argument " << arg.getType()
                           << " does not match input " << input.getType();
  Operation *yield = body.getTerminator();
  if (yield->getNumOperands() != getNumResults())
    return emitOpError() << "yields " << yield->getNumOperands()
                         << " value(s) for " << getNumResults() << " result(s)";
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(yield->getOperandTypes(), getResultTypes())))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError() << "yields " << std::get<0>(pair) << " for result #"
                           << index << " of type " << std::get<1>(pair);
  for (Operation &op : body.without_terminator())
    if (!isa<TcDialect>(op.getDialect()) || op.getNumRegions() != 0)
      return emitOpError() << "body may hold only tc ops without regions, "
                              "found '"
                           << op.getName() << "'";
  return success();
}

RegionKind FusedOp::getRegionKind(unsigned) { return RegionKind::SSACFG; }

LogicalResult LinearOp::verify() {
  ArrayRef<int64_t> input = shapeOf(getInput()), weight = shapeOf(getWeight());
  if (input.size() < 2)
    return emitOpError() << "input must have rank >= 2 [rows..., in], got "
                         << fmt(input);
  if (weight.size() != 2 || weight[1] != input.back())
    return emitOpError() << "weight has shape " << fmt(weight)
                         << " but expected [out, " << input.back()
                         << "] for input " << fmt(input);
  if (shapeOf(getBias()) != ArrayRef<int64_t>{weight[0]})
    return emitOpError() << "bias has shape " << fmt(shapeOf(getBias()))
                         << " but expected [" << weight[0] << "]";
  SmallVector<int64_t> expected(input);
  expected.back() = weight[0];
  if (failed(verifyGemmElementTypes(*this, getInput(), getWeight(),
                                    getResult(), getBias())))
    return failure();
  return verifyResultShape(*this, expected,
                           "the input with its last "
                           "dimension replaced by out");
}

/// The row-wise operands of residual_layer_norm and its gradient: gamma
/// (and beta) [D] and the saved statistics [..., 1] of a residual [..., D].
static LogicalResult verifyResidualRows(Operation *op, Value residual,
                                        ArrayRef<Value> perColumn,
                                        StringRef perColumnNames,
                                        ArrayRef<Value> stats) {
  ArrayRef<int64_t> input = shapeOf(residual);
  if (input.empty())
    return op->emitOpError() << "residual must have rank >= 1";
  for (Value v : perColumn)
    if (shapeOf(v) != ArrayRef<int64_t>{input.back()})
      return op->emitOpError()
             << perColumnNames << " must have shape [" << input.back() << "]";
  // Per-row statistics: [..., D] -> [..., 1].
  Shape rows = withUnitAxes(std::span<const int64_t>(input), {-1});
  for (Value v : stats)
    if (shapeOf(v) != ArrayRef<int64_t>(rows))
      return op->emitOpError() << "mean and rstd must have shape " << fmt(rows);
  return success();
}

LogicalResult ResidualLayerNormOp::verify() {
  if (failed(verifyNarrowedResult(*this, getResidual())) ||
      failed(verifyBf16Copy(*this, getResult(), getResultBf16())))
    return failure();
  if (failed(verifyResidualRows(*this, getResidual(), {getGamma(), getBeta()},
                                "gamma and beta", {getMean(), getRstd()})))
    return failure();
  if (failed(verifyEpsilon(*this, getEpsilon())))
    return failure();
  return verifyRate(*this, getRate());
}

LogicalResult ResidualLayerNormGradOp::verify() {
  if (failed(verifyBf16Copy(*this, getSublayerGrad(), getSublayerGradBf16())))
    return failure();
  if (failed(verifyResidualRows(*this, getResidual(), {getGamma()}, "gamma",
                                {getMean(), getRstd()})))
    return failure();
  return verifyRate(*this, getRate());
}

/// A mask broadcasts to `target` (the scores, or the probabilities).
static LogicalResult verifyMask(Operation *op, Value mask, Value target,
                                StringRef targetName) {
  ArrayRef<int64_t> shape = shapeOf(target);
  std::optional<Shape> joined = broadcastShapes(
      std::span<const int64_t>(shapeOf(mask)), std::span<const int64_t>(shape));
  if (joined && ArrayRef<int64_t>(*joined) == shape)
    return success();
  return op->emitOpError() << "mask " << fmt(shapeOf(mask))
                           << " does not broadcast to the " << targetName << " "
                           << fmt(shape);
}

LogicalResult MaskedSoftmaxOp::verify() {
  if (failed(verifyNarrowedResult(*this, getScores())))
    return failure();
  if (failed(verifyMask(*this, getMask(), getScores(), "scores")))
    return failure();
  return verifyRate(*this, getRate());
}

LogicalResult MaskedSoftmaxGradOp::verify() {
  if (failed(verifyNarrowedResult(*this, getProbs())))
    return failure();
  if (failed(verifyMask(*this, getMask(), getProbs(), "probs")))
    return failure();
  return verifyRate(*this, getRate());
}

LogicalResult SplitOp::verify() {
  ArrayRef<int64_t> input = shapeOf(getInput());
  int64_t axis = getAxis();
  if (failed(verifyAxis(*this, "axis", axis, input.size())))
    return failure();
  if (getResults().empty())
    return emitOpError() << "needs at least one result";
  int64_t total = 0;
  for (auto [index, result] : llvm::enumerate(getResults())) {
    ArrayRef<int64_t> shape = shapeOf(result);
    bool agrees =
        shape.size() == input.size() &&
        getElementTypeOrSelf(result) == getElementTypeOrSelf(getInput());
    for (size_t d = 0; agrees && d < shape.size(); ++d)
      agrees = d == size_t(axis) || shape[d] == input[d];
    if (!agrees)
      return emitOpError() << "result #" << index << " " << fmt(shape)
                           << " must match the input " << fmt(input)
                           << " (and its element type) in every dimension "
                              "but axis "
                           << axis;
    total += shape[axis];
  }
  if (total != input[axis])
    return emitOpError() << "the pieces cover " << total << " of the input's "
                         << input[axis] << " along axis " << axis;
  return success();
}

LogicalResult EmbedOp::verify() {
  ArrayRef<int64_t> table = shapeOf(getTable()), ids = shapeOf(getIds());
  if (table.size() != 2 || ids.size() != 2)
    return emitOpError() << "needs a table [V, D] and ids [B, T], got "
                         << fmt(table) << " and " << fmt(ids);
  SmallVector<int64_t> positions = {ids[1], table[1]};
  if (shapeOf(getPositions()) != ArrayRef<int64_t>(positions))
    return emitOpError() << "positions have shape "
                         << fmt(shapeOf(getPositions())) << " but expected "
                         << fmt(positions);
  if (failed(verifyRate(*this, getRate())) ||
      failed(verifyPaddingId(*this, getPaddingId(), table[0])))
    return failure();
  return verifyResultShape(*this, {ids[0], ids[1], table[1]},
                           "[B, T, D] for ids [B, T] and a table [V, D]");
}

// The generated op classes call verifyBroadcastingOp and verifyReduceOp.
#define GET_OP_CLASSES
#include "dialects/tc/TcOps.cpp.inc"
