//===- ReverseRules.cpp - the reverse-mode derivative of every tc op ------===//
//
// Each rule builds the vector-Jacobian product of one op (see
// ReverseOpInterface in TcInterfaces.td): from the gradient `dy` of its
// result, the gradient of each operand, of the operand's type. Broadcast
// operands get the gradient summed back to their shape (unbroadcast).
// Gradients are f32 where mixed precision made an operand bf16: a GEMM of
// bf16 operands converts its result's gradient to bf16 and gives f32
// gradients (dialects/tc/GemmElementTypes.h), which tc.convert's rule passes
// on unchanged.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/TcDialect.h"
#include "support/Broadcast.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

namespace tc {
namespace {

RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

/// A constant tensor of `type` filled with `value`.
Value splat(OpBuilder &b, Location loc, RankedTensorType type, double value) {
  return ConstantOp::create(b, loc, type, value);
}

/// A rank-0 constant of the element type of `like`.
Value scalar(OpBuilder &b, Location loc, Value like, double value) {
  return splat(b, loc, RankedTensorType::get({}, typeOf(like).getElementType()),
               value);
}

Value mul(OpBuilder &b, Location loc, Value x, Value y) {
  return MulOp::create(b, loc, typeOf(x), x, y);
}

/// The gradient `grad` of a value that `type` broadcast to, summed back over
/// the broadcast dimensions and reshaped to `type`'s shape (in grad's
/// element type).
Value unbroadcast(OpBuilder &b, Location loc, Value grad,
                  RankedTensorType type) {
  RankedTensorType gradType = typeOf(grad);
  if (gradType.getShape() == type.getShape())
    return grad;
  int64_t lead = gradType.getRank() - type.getRank();
  SmallVector<int64_t> axes, kept;
  for (int64_t d = 0; d < gradType.getRank(); ++d) {
    bool broadcast = d < lead || (type.getDimSize(d - lead) == 1 &&
                                  gradType.getDimSize(d) != 1);
    if (broadcast)
      axes.push_back(d);
    else
      kept.push_back(gradType.getDimSize(d));
  }
  Value summed = grad;
  if (!axes.empty())
    summed =
        ReduceSumOp::create(b, loc, gradType.clone(kept), grad, axes, false);
  if (typeOf(summed).getShape() != type.getShape())
    summed = ReshapeOp::create(b, loc, type.clone(gradType.getElementType()),
                               summed);
  return summed;
}

/// select(condition, onTrue, onFalse) where either side may be 0.
Value selectOrZero(OpBuilder &b, Location loc, Value condition, Value dy,
                   bool dyWhenTrue) {
  Value zero = scalar(b, loc, dy, 0.0);
  return SelectOp::create(b, loc, typeOf(dy), condition, dyWhenTrue ? dy : zero,
                          dyWhenTrue ? zero : dy);
}

/// The i1 mask `lhs <predicate> rhs` at the shape of `like`.
Value compareAt(OpBuilder &b, Location loc, ComparePredicate predicate,
                Value lhs, Value rhs, Value like) {
  auto type = RankedTensorType::get(typeOf(like).getShape(), b.getI1Type());
  return CompareOp::create(b, loc, type, predicate, lhs, rhs);
}

/// op(x) op(y) where op transposes the last two dimensions when asked; the
/// batch dimensions broadcast. The result has `result`'s element type.
Value matmul(OpBuilder &b, Location loc, Value x, Value y, bool tx, bool ty,
             Type result) {
  ArrayRef<int64_t> xs = typeOf(x).getShape(), ys = typeOf(y).getShape();
  std::optional<Shape> batch =
      broadcastShapes(std::span<const int64_t>(xs.drop_back(2)),
                      std::span<const int64_t>(ys.drop_back(2)));
  Shape shape = *batch;
  shape.push_back(tx ? xs.back() : xs[xs.size() - 2]);
  shape.push_back(ty ? ys[ys.size() - 2] : ys.back());
  return MatmulOp::create(b, loc, RankedTensorType::get(shape, result), x, y,
                          tx, ty);
}

/// `dy` as a GEMM operand beside operands of `operand`'s element type: as it
/// is, or converted to bf16 where mixed precision made the GEMM bf16.
Value asGemmOperand(OpBuilder &b, Location loc, Value dy, Value operand) {
  Type type = typeOf(operand).getElementType();
  if (typeOf(dy).getElementType() == type)
    return dy;
  return ConvertOp::create(b, loc, typeOf(dy).clone(type), dy);
}

/// [..., n] -> [prod(...), n]
Value flattenRows(OpBuilder &b, Location loc, Value x) {
  RankedTensorType type = typeOf(x);
  if (type.getRank() == 2)
    return x;
  int64_t cols = type.getShape().back();
  return ReshapeOp::create(b, loc,
                           type.clone({type.getNumElements() / cols, cols}), x);
}

} // namespace

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

void AddOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                         SmallVectorImpl<Value> &out) {
  out.push_back(unbroadcast(b, getLoc(), grads[0], typeOf(getLhs())));
  out.push_back(unbroadcast(b, getLoc(), grads[0], typeOf(getRhs())));
}

void SubOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                         SmallVectorImpl<Value> &out) {
  Value negated = NegOp::create(b, getLoc(), grads[0]);
  out.push_back(unbroadcast(b, getLoc(), grads[0], typeOf(getLhs())));
  out.push_back(unbroadcast(b, getLoc(), negated, typeOf(getRhs())));
}

void MulOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                         SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  out.push_back(
      unbroadcast(b, loc, mul(b, loc, grads[0], getRhs()), typeOf(getLhs())));
  out.push_back(
      unbroadcast(b, loc, mul(b, loc, grads[0], getLhs()), typeOf(getRhs())));
}

void DivOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                         SmallVectorImpl<Value> &out) {
  // d(l / r) = dy / r for l and -dy * (l / r) / r for r.
  Location loc = getLoc();
  Value dy = grads[0];
  Value dl = DivOp::create(b, loc, typeOf(dy), dy, getRhs());
  Value dr =
      NegOp::create(b, loc,
                    DivOp::create(b, loc, typeOf(dy),
                                  mul(b, loc, dy, getResult()), getRhs()));
  out.push_back(unbroadcast(b, loc, dl, typeOf(getLhs())));
  out.push_back(unbroadcast(b, loc, dr, typeOf(getRhs())));
}

/// max and min: the gradient goes to the operand that was chosen (the lhs on
/// ties, as the forward's select would).
static void buildMinMaxReverse(OpBuilder &b, Operation *op,
                               ComparePredicate lhsWins, Value dy,
                               SmallVectorImpl<Value> &out) {
  Location loc = op->getLoc();
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  Value chosen = compareAt(b, loc, lhsWins, lhs, rhs, dy);
  out.push_back(
      unbroadcast(b, loc, selectOrZero(b, loc, chosen, dy, true), typeOf(lhs)));
  out.push_back(unbroadcast(b, loc, selectOrZero(b, loc, chosen, dy, false),
                            typeOf(rhs)));
}

void MaxOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                         SmallVectorImpl<Value> &out) {
  buildMinMaxReverse(b, *this, ComparePredicate::ge, grads[0], out);
}

void MinOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                         SmallVectorImpl<Value> &out) {
  buildMinMaxReverse(b, *this, ComparePredicate::le, grads[0], out);
}

void NegOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                         SmallVectorImpl<Value> &out) {
  out.push_back(NegOp::create(b, getLoc(), grads[0]));
}

void ExpOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                         SmallVectorImpl<Value> &out) {
  out.push_back(mul(b, getLoc(), grads[0], getResult()));
}

void LogOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                         SmallVectorImpl<Value> &out) {
  out.push_back(
      DivOp::create(b, getLoc(), typeOf(grads[0]), grads[0], getInput()));
}

void SqrtOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                          SmallVectorImpl<Value> &out) {
  // d sqrt(x) = dy / (2 sqrt(x))
  Location loc = getLoc();
  Value twice =
      AddOp::create(b, loc, typeOf(getResult()), getResult(), getResult());
  out.push_back(DivOp::create(b, loc, typeOf(grads[0]), grads[0], twice));
}

void RsqrtOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                           SmallVectorImpl<Value> &out) {
  // d x^-1/2 = -1/2 x^-3/2 dy = -1/2 y^3 dy
  Location loc = getLoc();
  Value y = getResult();
  Value cube = mul(b, loc, mul(b, loc, y, y), y);
  out.push_back(
      mul(b, loc, mul(b, loc, grads[0], cube), scalar(b, loc, y, -0.5)));
}

void TanhOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                          SmallVectorImpl<Value> &out) {
  // d tanh(x) = dy (1 - y^2)
  Location loc = getLoc();
  Value y = getResult();
  Value oneMinus = SubOp::create(b, loc, typeOf(y), scalar(b, loc, y, 1.0),
                                 mul(b, loc, y, y));
  out.push_back(mul(b, loc, grads[0], oneMinus));
}

void ReluOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                          SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  Value positive = compareAt(b, loc, ComparePredicate::gt, getInput(),
                             scalar(b, loc, getInput(), 0.0), getInput());
  out.push_back(selectOrZero(b, loc, positive, grads[0], true));
}

void SelectOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                            SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  Value dy = grads[0];
  out.push_back(Value()); // the mask
  out.push_back(unbroadcast(b, loc,
                            selectOrZero(b, loc, getCondition(), dy, true),
                            typeOf(getOnTrue())));
  out.push_back(unbroadcast(b, loc,
                            selectOrZero(b, loc, getCondition(), dy, false),
                            typeOf(getOnFalse())));
}

void ConvertOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                             SmallVectorImpl<Value> &out) {
  // A gradient already of the input's type (f32 for an f32 -> bf16
  // conversion in front of a GEMM) passes on unchanged.
  RankedTensorType input = typeOf(getInput());
  bool floats = isa<FloatType>(input.getElementType()) &&
                isa<FloatType>(typeOf(getResult()).getElementType());
  if (!floats)
    out.push_back(Value());
  else if (typeOf(grads[0]) == input)
    out.push_back(grads[0]);
  else
    out.push_back(ConvertOp::create(b, getLoc(), input, grads[0]));
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// dy of a reduction, reshaped to the input with the reduced axes kept as 1.
static Value keptGrad(OpBuilder &b, Operation *op, Value dy) {
  auto axes = op->getAttrOfType<DenseI64ArrayAttr>("axes").asArrayRef();
  RankedTensorType input = typeOf(op->getOperand(0));
  RankedTensorType kept =
      input.clone(withUnitAxes(std::span<const int64_t>(input.getShape()),
                               std::span<const int64_t>(axes)));
  if (typeOf(dy).getShape() == kept.getShape())
    return dy;
  return ReshapeOp::create(b, op->getLoc(), kept, dy);
}

void ReduceSumOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                               SmallVectorImpl<Value> &out) {
  out.push_back(BroadcastToOp::create(b, getLoc(), typeOf(getInput()),
                                      keptGrad(b, *this, grads[0])));
}

void ReduceMeanOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                                SmallVectorImpl<Value> &out) {
  Location loc = getLoc();
  RankedTensorType input = typeOf(getInput());
  double count = double(input.getNumElements()) /
                 double(typeOf(getResult()).getNumElements());
  Value spread =
      BroadcastToOp::create(b, loc, input, keptGrad(b, *this, grads[0]));
  out.push_back(mul(b, loc, spread, scalar(b, loc, spread, 1.0 / count)));
}

void ReduceMaxOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                               SmallVectorImpl<Value> &out) {
  // Every element equal to its maximum receives the gradient.
  Location loc = getLoc();
  Value max = keptGrad(b, *this, getResult());
  Value isMax =
      compareAt(b, loc, ComparePredicate::eq, getInput(), max, getInput());
  Value zero = scalar(b, loc, getInput(), 0.0);
  out.push_back(SelectOp::create(b, loc, typeOf(getInput()), isMax,
                                 keptGrad(b, *this, grads[0]), zero));
}

//===----------------------------------------------------------------------===//
// Matrix product and the neural-network ops
//===----------------------------------------------------------------------===//

void MatmulOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                            SmallVectorImpl<Value> &out) {
  // C = op(A) op(B): d op(A) = dC op(B)^T and d op(B) = op(A)^T dC.
  // The gradients have the result's element type (f32 for bf16 operands).
  Location loc = getLoc();
  Value A = getLhs(), B = getRhs();
  Value dC = asGemmOperand(b, loc, grads[0], A);
  Type type = typeOf(getResult()).getElementType();
  bool ta = getTransposeLhs(), tb = getTransposeRhs();
  Value dA = ta ? matmul(b, loc, B, dC, tb, true, type)
                : matmul(b, loc, dC, B, false, !tb, type);
  Value dB;
  if (typeOf(B).getRank() == 2 && typeOf(A).getRank() > 2 && !ta) {
    // A weight shared by every row of a batched activation: one 2-D GEMM
    // over the flattened rows instead of a batch of GEMMs and a sum.
    Value A2 = flattenRows(b, loc, A), dC2 = flattenRows(b, loc, dC);
    dB = tb ? matmul(b, loc, dC2, A2, true, false, type)
            : matmul(b, loc, A2, dC2, true, false, type);
  } else {
    dB = tb ? matmul(b, loc, dC, A, true, ta, type)
            : matmul(b, loc, A, dC, !ta, false, type);
  }
  out.push_back(unbroadcast(b, loc, dA, typeOf(A)));
  out.push_back(unbroadcast(b, loc, dB, typeOf(B)));
}

void SoftmaxOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                             SmallVectorImpl<Value> &out) {
  out.push_back(
      SoftmaxGradOp::create(b, getLoc(), getResult(), grads[0], getAxis()));
}

void LayerNormOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                               SmallVectorImpl<Value> &out) {
  RankedTensorType gamma = typeOf(getGamma());
  auto grad = LayerNormGradOp::create(b, getLoc(), typeOf(getInput()), gamma,
                                      gamma, getInput(), getGamma(), grads[0],
                                      getEpsilonAttr());
  out.push_back(grad.getInputGrad());
  out.push_back(grad.getGammaGrad());
  out.push_back(grad.getBetaGrad());
}

void EmbeddingOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                               SmallVectorImpl<Value> &out) {
  out.push_back(EmbeddingGradOp::create(b, getLoc(), typeOf(getTable()),
                                        getIds(), grads[0],
                                        getPaddingIdAttr()));
  out.push_back(Value()); // ids
}

void DropoutOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                             SmallVectorImpl<Value> &out) {
  // The same mask and scale: the same op on the gradient, with the same rng
  // state and key, regenerates the forward's mask instead of storing it.
  out.push_back(getRate().convertToDouble() == 0.0
                    ? grads[0]
                    : Value(DropoutOp::create(b, getLoc(), grads[0], getRng(),
                                              getRateAttr(), getKeyAttr())));
  out.push_back(Value()); // rng
}

void CrossEntropyOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                                  SmallVectorImpl<Value> &out) {
  out.push_back(grads[0] ? Value(CrossEntropyGradOp::create(
                               b, getLoc(), typeOf(getLogits()), getLogits(),
                               getTargets(), grads[0], getLabelSmoothingAttr(),
                               getIgnoreIndexAttr()))
                         : Value());
  out.push_back(Value()); // targets
}

//===----------------------------------------------------------------------===//
// Fused ops (built by the fusion passes before autodiff, so that the
// backward is fused by construction)
//===----------------------------------------------------------------------===//

void LinearOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                            SmallVectorImpl<Value> &out) {
  // y = act(x W^T + b): g = dy * act'(y); dx = g W; dW = g^T x; db = sum g.
  Location loc = getLoc();
  Value g = grads[0];
  if (getRelu()) {
    Value positive = compareAt(b, loc, ComparePredicate::gt, getResult(),
                               scalar(b, loc, g, 0.0), g);
    g = selectOrZero(b, loc, positive, g, true);
  }
  // dx and dW have the result's element type (f32 for bf16 operands).
  Type type = typeOf(getResult()).getElementType();
  Value gemmG = asGemmOperand(b, loc, g, getInput());
  out.push_back(matmul(b, loc, gemmG, getWeight(), false, false, type));
  out.push_back(matmul(b, loc, flattenRows(b, loc, gemmG),
                       flattenRows(b, loc, getInput()), true, false, type));
  out.push_back(unbroadcast(b, loc, g, typeOf(getBias())));
}

void ResidualLayerNormOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                                       SmallVectorImpl<Value> &out) {
  // mean and rstd are saved for the backward only: their gradients are not
  // propagated (the fusion pass builds the op with nothing else using them).
  RankedTensorType x = typeOf(getResidual()), gamma = typeOf(getGamma());
  auto grad = ResidualLayerNormGradOp::create(
      b, getLoc(), x, x, gamma, gamma, /*sublayer_grad_bf16=*/Type(),
      getResidual(), getSublayer(), getGamma(), getMean(), getRstd(), grads[0],
      getRng(), getRateAttr(), getKeyAttr());
  out.push_back(grad.getResidualGrad());
  out.push_back(grad.getSublayerGrad());
  out.push_back(grad.getGammaGrad());
  out.push_back(grad.getBetaGrad());
  out.push_back(Value()); // rng
}

void EmbedOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                           SmallVectorImpl<Value> &out) {
  // d = dropout(dy) (the forward's mask); the table gets scale * d scattered
  // by id, the positions the sum of d over the batch.
  Location loc = getLoc();
  Value d = grads[0];
  if (getRate().convertToDouble() > 0.0)
    d = DropoutOp::create(b, loc, d, getRng(), getRateAttr(), getKeyAttr());
  Value scaled =
      mul(b, loc, d, scalar(b, loc, d, getScale().convertToDouble()));
  out.push_back(EmbeddingGradOp::create(b, loc, typeOf(getTable()), getIds(),
                                        scaled, getPaddingIdAttr()));
  out.push_back(Value()); // ids
  out.push_back(unbroadcast(b, loc, d, typeOf(getPositions())));
  out.push_back(Value()); // rng
}

void MaskedSoftmaxOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                                   SmallVectorImpl<Value> &out) {
  // probs is saved for the backward only (see the note above).
  out.push_back(MaskedSoftmaxGradOp::create(
      b, getLoc(), typeOf(getScores()), getProbs(), grads[0], getMask(),
      getRng(), getScaleAttr(), getRateAttr(), getKeyAttr()));
  out.push_back(Value()); // mask
  out.push_back(Value()); // rng
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

void ReshapeOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                             SmallVectorImpl<Value> &out) {
  out.push_back(ReshapeOp::create(b, getLoc(), typeOf(getInput()), grads[0]));
}

void TransposeOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                               SmallVectorImpl<Value> &out) {
  ArrayRef<int64_t> perm = getPermutation();
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  out.push_back(
      TransposeOp::create(b, getLoc(), typeOf(getInput()), grads[0], inverse));
}

void BroadcastToOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                                 SmallVectorImpl<Value> &out) {
  out.push_back(unbroadcast(b, getLoc(), grads[0], typeOf(getInput())));
}

void SliceOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                           SmallVectorImpl<Value> &out) {
  // Surround dy with zeros, one dimension at a time.
  Location loc = getLoc();
  ArrayRef<int64_t> input = typeOf(getInput()).getShape();
  ArrayRef<int64_t> offsets = getOffsets();
  Value grad = grads[0];
  for (size_t d = 0; d < input.size(); ++d) {
    RankedTensorType current = typeOf(grad);
    int64_t before = offsets[d];
    int64_t after = input[d] - offsets[d] - current.getDimSize(d);
    if (before == 0 && after == 0)
      continue;
    SmallVector<Value> pieces;
    auto zeros = [&](int64_t size) {
      SmallVector<int64_t> shape(current.getShape());
      shape[d] = size;
      return splat(b, loc, current.clone(shape), 0.0);
    };
    if (before > 0)
      pieces.push_back(zeros(before));
    pieces.push_back(grad);
    if (after > 0)
      pieces.push_back(zeros(after));
    SmallVector<int64_t> shape(current.getShape());
    shape[d] = input[d];
    grad = ConcatOp::create(b, loc, current.clone(shape), pieces, d);
  }
  out.push_back(grad);
}

void SplitOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                           SmallVectorImpl<Value> &out) {
  // One concat of the pieces' gradients (zeros for a piece without one).
  SmallVector<Value> pieces;
  for (auto [result, grad] : llvm::zip(getResults(), grads))
    pieces.push_back(grad ? grad : splat(b, getLoc(), typeOf(result), 0.0));
  out.push_back(
      ConcatOp::create(b, getLoc(), typeOf(getInput()), pieces, getAxis()));
}

void ConcatOp::buildReverse(OpBuilder &b, ArrayRef<Value> grads,
                            SmallVectorImpl<Value> &out) {
  int64_t axis = getAxis();
  int64_t start = 0;
  for (Value input : getInputs()) {
    RankedTensorType type = typeOf(input);
    SmallVector<int64_t> offsets(type.getRank(), 0);
    offsets[axis] = start;
    out.push_back(SliceOp::create(b, getLoc(), type, grads[0], offsets));
    start += type.getDimSize(axis);
  }
}

} // namespace tc
