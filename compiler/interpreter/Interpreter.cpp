//===- Interpreter.cpp - the reference interpreter of tc IR ---------------===//
//
// Dispatches every op to its reference kernel (Kernels.h). The kernels trust
// that the op verified, so the interpreter verifies the module before it
// runs anything (see tools/tc-interpret).
//
//===----------------------------------------------------------------------===//

#include "compiler/interpreter/Interpreter.h"
#include "compiler/interpreter/Kernels.h"
#include "dialects/tc/TcDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace tc {

std::optional<DType> dtypeOf(Type type) {
  if (type.isF16())
    return DType::F16;
  if (type.isBF16())
    return DType::BF16;
  if (type.isF32())
    return DType::F32;
  if (type.isF64())
    return DType::F64;
  if (type.isInteger(1))
    return DType::I1;
  if (type.isInteger(32))
    return DType::I32;
  if (type.isInteger(64))
    return DType::I64;
  return std::nullopt;
}

namespace {

Shape shapeOf(Type type) {
  ArrayRef<int64_t> shape = cast<RankedTensorType>(type).getShape();
  return Shape(shape.begin(), shape.end());
}

Tensor fromAttr(ElementsAttr attr) {
  auto type = cast<RankedTensorType>(attr.getType());
  Tensor t(*dtypeOf(type.getElementType()), shapeOf(type));
  if (isFloat(t.dtype)) {
    int64_t i = 0;
    for (APFloat v : attr.getValues<APFloat>())
      t.floats[i++] = v.convertToDouble();
  } else {
    int64_t i = 0;
    for (APInt v : attr.getValues<APInt>())
      t.ints[i++] = t.dtype == DType::I1 ? v.getZExtValue() : v.getSExtValue();
  }
  return t;
}

ref::BinaryFn binaryFn(Operation *op) {
  return TypeSwitch<Operation *, ref::BinaryFn>(op)
      .Case<AddOp>([](auto) { return ref::BinaryFn::Add; })
      .Case<SubOp>([](auto) { return ref::BinaryFn::Sub; })
      .Case<MulOp>([](auto) { return ref::BinaryFn::Mul; })
      .Case<DivOp>([](auto) { return ref::BinaryFn::Div; })
      .Case<MaxOp>([](auto) { return ref::BinaryFn::Max; })
      .Case<MinOp>([](auto) { return ref::BinaryFn::Min; });
}

ref::UnaryFn unaryFn(Operation *op) {
  return TypeSwitch<Operation *, ref::UnaryFn>(op)
      .Case<NegOp>([](auto) { return ref::UnaryFn::Neg; })
      .Case<ExpOp>([](auto) { return ref::UnaryFn::Exp; })
      .Case<LogOp>([](auto) { return ref::UnaryFn::Log; })
      .Case<SqrtOp>([](auto) { return ref::UnaryFn::Sqrt; })
      .Case<RsqrtOp>([](auto) { return ref::UnaryFn::Rsqrt; })
      .Case<TanhOp>([](auto) { return ref::UnaryFn::Tanh; })
      .Case<ReluOp>([](auto) { return ref::UnaryFn::Relu; });
}

ref::CompareFn compareFn(ComparePredicate predicate) {
  switch (predicate) {
  case ComparePredicate::eq:
    return ref::CompareFn::Eq;
  case ComparePredicate::ne:
    return ref::CompareFn::Ne;
  case ComparePredicate::lt:
    return ref::CompareFn::Lt;
  case ComparePredicate::le:
    return ref::CompareFn::Le;
  case ComparePredicate::gt:
    return ref::CompareFn::Gt;
  case ComparePredicate::ge:
    return ref::CompareFn::Ge;
  }
  return ref::CompareFn::Eq;
}

ref::ReduceFn reduceFn(Operation *op) {
  if (isa<ReduceMaxOp>(op))
    return ref::ReduceFn::Max;
  if (isa<ReduceMeanOp>(op))
    return ref::ReduceFn::Mean;
  return ref::ReduceFn::Sum;
}

/// The shape of `op`'s first result.
Shape resultShape(Operation *op) { return shapeOf(op->getResult(0).getType()); }

Shape toShape(ArrayRef<int64_t> values) {
  return Shape(values.begin(), values.end());
}

/// One activation of a function: the values computed so far.
class Frame {
public:
  FailureOr<std::vector<Tensor>> run(func::FuncOp function,
                                     const std::vector<Tensor> &args);

private:
  /// What one family of ops returns: the op's evaluation, or nullopt when
  /// the op is not of the family.
  using Evaluated = std::optional<LogicalResult>;

  FailureOr<std::vector<Tensor>> runBlock(Block &body,
                                          const std::vector<Tensor> &args);
  const Tensor &get(Value v) { return values.at(v); }
  /// Evaluates one op, binding its results; fails with a diagnostic.
  LogicalResult step(Operation *op);

  // One per family of reference kernels (Kernels.h), tried in turn by step.
  Evaluated elementwise(Operation *op);
  Evaluated reductionOrMatmul(Operation *op);
  Evaluated modelOp(Operation *op);
  Evaluated gradient(Operation *op);
  Evaluated dataMovement(Operation *op);
  Evaluated fusedOp(Operation *op);
  Evaluated regionOrCall(Operation *op);

  /// Rounds each bf16 result that a reference kernel computed in f32 (a
  /// row op's result narrowed by tc-fuse-convert) to bf16: its f32 value
  /// converted, as tc.convert would.
  void roundToResultTypes(Operation *op) {
    for (Value result : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      Tensor &t = values[result];
      if (!type || !type.getElementType().isBF16() || t.dtype != DType::F32)
        continue;
      narrowToBf16(t);
    }
  }

  /// `t`'s values rounded to bf16, as tc.convert rounds them.
  static void narrowToBf16(Tensor &t) {
    t.dtype = DType::BF16;
    for (double &x : t.floats)
      x = roundTo(DType::BF16, x);
  }

  /// Binds `copy`, where an op has it (tc-fuse-convert's bf16 copy of an f32
  /// result), to `of` rounded to bf16, as tc.convert would.
  void bindBf16Copy(Value copy, const Tensor &of) {
    if (!copy)
      return;
    Tensor t = of;
    narrowToBf16(t);
    values[copy] = std::move(t);
  }

  /// Binds the only (or first) result of `op`.
  LogicalResult bind(Operation *op, Tensor t) {
    values[op->getResult(0)] = std::move(t);
    return success();
  }
  /// Binds `results` to `tensors`, in order.
  LogicalResult bindAll(ResultRange results, std::vector<Tensor> tensors) {
    for (auto [result, tensor] : llvm::zip(results, tensors))
      values[result] = std::move(tensor);
    return success();
  }
  /// The tensors of `operands`, in order.
  std::vector<const Tensor *> all(OperandRange operands) {
    std::vector<const Tensor *> tensors;
    for (Value v : operands)
      tensors.push_back(&get(v));
    return tensors;
  }
  /// A kernel's error that depends on the data (an id out of range).
  static LogicalResult dataError(Operation *op, const std::string &error) {
    return op->emitError() << "at run time: " << error;
  }
  /// `op`'s evaluation: binds `out`, or reports the kernel's `error`.
  LogicalResult bindOrFail(Operation *op, Tensor out,
                           const std::string &error) {
    return error.empty() ? bind(op, std::move(out)) : dataError(op, error);
  }

  llvm::DenseMap<Value, Tensor> values;
};

LogicalResult checkArgs(func::FuncOp function,
                        const std::vector<Tensor> &args) {
  FunctionType type = function.getFunctionType();
  if (args.size() != type.getNumInputs())
    return function.emitError()
           << "@" << function.getSymName() << " takes " << type.getNumInputs()
           << " arguments but " << args.size() << " were given";
  for (auto [index, expected] : llvm::enumerate(type.getInputs())) {
    auto tensorType = dyn_cast<RankedTensorType>(expected);
    std::optional<DType> dtype =
        tensorType ? dtypeOf(tensorType.getElementType()) : std::nullopt;
    if (!dtype)
      return function.emitError()
             << "argument #" << index << " has type " << expected
             << ", which the interpreter cannot hold";
    bool sameKind = *dtype == args[index].dtype ||
                    (*dtype == DType::BF16 && args[index].dtype == DType::F32);
    if (!sameKind || shapeOf(expected) != args[index].shape) {
      auto diag = function.emitError() << "argument #" << index;
      if (auto name =
              function.getArgAttrOfType<StringAttr>(index, kParamAttrName))
        diag << " (parameter \"" << name.getValue() << "\")";
      diag << " expects " << expected << " but was given "
           << dtypeName(args[index].dtype) << " "
           << formatShape(args[index].shape);
      return diag;
    }
  }
  return success();
}

FailureOr<std::vector<Tensor>> Frame::run(func::FuncOp function,
                                          const std::vector<Tensor> &args) {
  if (failed(checkArgs(function, args)))
    return failure();
  if (function.isExternal())
    return function.emitError()
           << "@" << function.getSymName() << " has no body to interpret";
  std::vector<Tensor> held;
  for (auto [arg, value] : llvm::zip(function.getArguments(), args)) {
    Tensor t = value;
    if (t.dtype !=
        *dtypeOf(cast<RankedTensorType>(arg.getType()).getElementType())) {
      t.dtype = DType::BF16; // given as f32, held as bf16
      for (double &x : t.floats)
        x = roundTo(DType::BF16, x);
    }
    held.push_back(std::move(t));
  }
  return runBlock(function.getBody().front(), held);
}

FailureOr<std::vector<Tensor>>
Frame::runBlock(Block &body, const std::vector<Tensor> &args) {
  for (auto [arg, value] : llvm::zip(body.getArguments(), args))
    values[arg] = value;
  for (Operation &op : body.without_terminator())
    if (failed(step(&op)))
      return failure();
  std::vector<Tensor> results;
  for (Value v : body.getTerminator()->getOperands())
    results.push_back(get(v));
  return results;
}

LogicalResult Frame::step(Operation *op) {
  for (auto family : {&Frame::elementwise, &Frame::reductionOrMatmul,
                      &Frame::modelOp, &Frame::gradient, &Frame::dataMovement,
                      &Frame::fusedOp, &Frame::regionOrCall})
    if (Evaluated evaluated = (this->*family)(op)) {
      if (succeeded(*evaluated))
        roundToResultTypes(op);
      return *evaluated;
    }
  return op->emitError() << "the interpreter does not know '" << op->getName()
                         << "'";
}

Frame::Evaluated Frame::elementwise(Operation *op) {
  return TypeSwitch<Operation *, Evaluated>(op)
      .Case<ConstantOp>(
          [&](ConstantOp c) { return bind(op, fromAttr(c.getValue())); })
      .Case<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp>([&](Operation *o) {
        return bind(op, ref::binary(binaryFn(o), get(o->getOperand(0)),
                                    get(o->getOperand(1)), resultShape(op)));
      })
      .Case<NegOp, ExpOp, LogOp, SqrtOp, RsqrtOp, TanhOp, ReluOp>(
          [&](Operation *o) {
            return bind(op, ref::unary(unaryFn(o), get(o->getOperand(0))));
          })
      .Case<CompareOp>([&](CompareOp c) {
        return bind(op,
                    ref::compare(compareFn(c.getPredicate()), get(c.getLhs()),
                                 get(c.getRhs()), resultShape(op)));
      })
      .Case<SelectOp>([&](SelectOp s) {
        return bind(op, ref::select(get(s.getCondition()), get(s.getOnTrue()),
                                    get(s.getOnFalse()), resultShape(op)));
      })
      .Case<ConvertOp>([&](ConvertOp c) {
        return bind(
            op,
            ref::convert(get(c.getInput()),
                         *dtypeOf(c.getResult().getType().getElementType())));
      })
      .Default(std::nullopt);
}

Frame::Evaluated Frame::reductionOrMatmul(Operation *op) {
  return TypeSwitch<Operation *, Evaluated>(op)
      .Case<ReduceSumOp, ReduceMaxOp, ReduceMeanOp>([&](Operation *o) {
        auto axes = o->getAttrOfType<DenseI64ArrayAttr>("axes").asArrayRef();
        return bind(op, ref::reduce(reduceFn(o), get(o->getOperand(0)),
                                    toShape(axes), o->hasAttr("keep_dims")));
      })
      .Case<MatmulOp>([&](MatmulOp m) {
        return bind(op, ref::matmul(
                            get(m.getLhs()), get(m.getRhs()),
                            m.getTransposeLhs(), m.getTransposeRhs(),
                            resultShape(op),
                            *dtypeOf(m.getResult().getType().getElementType())));
      })
      .Case<SoftmaxOp>([&](SoftmaxOp s) {
        return bind(op, ref::softmax(get(s.getInput()), s.getAxis()));
      })
      .Case<LogSoftmaxOp>([&](LogSoftmaxOp l) {
        return bind(op, ref::logSoftmax(get(l.getInput())));
      })
      .Case<LayerNormOp>([&](LayerNormOp l) {
        return bind(op, ref::layerNorm(get(l.getInput()), get(l.getGamma()),
                                       get(l.getBeta()),
                                       l.getEpsilon().convertToDouble()));
      })
      .Case<CrossEntropyOp>([&](CrossEntropyOp c) -> LogicalResult {
        std::string error;
        auto [loss, tokens] = ref::crossEntropy(
            get(c.getLogits()), get(c.getTargets()),
            c.getLabelSmoothing().convertToDouble(), c.getIgnoreIndex(), error);
        if (!error.empty())
          return dataError(op, error);
        values[c.getLoss()] = std::move(loss);
        values[c.getTokens()] = std::move(tokens);
        return success();
      })
      .Case<LogSoftmaxTopKOp>([&](LogSoftmaxTopKOp t) -> LogicalResult {
        // The chain it fuses, op by op (each result rounded as stored).
        const Tensor &input = get(t.getInput());
        Tensor candidates =
            ref::binary(ref::BinaryFn::Add, ref::logSoftmax(input),
                        get(t.getAddend()), input.shape);
        auto [top, at] = ref::topK(candidates, t.getK());
        values[t.getValues()] = std::move(top);
        values[t.getIndices()] = std::move(at);
        values[t.getColumnValues()] = ref::slice(
            candidates, {0, int64_t(t.getColumn())}, {input.shape[0], 1});
        return success();
      })
      .Case<TopKOp>([&](TopKOp t) -> LogicalResult {
        auto [top, at] = ref::topK(get(t.getInput()), t.getK());
        values[t.getValues()] = std::move(top);
        values[t.getIndices()] = std::move(at);
        return success();
      })
      .Default(std::nullopt);
}

Frame::Evaluated Frame::modelOp(Operation *op) {
  return TypeSwitch<Operation *, Evaluated>(op)
      .Case<EmbeddingOp>([&](EmbeddingOp e) {
        std::string error;
        Tensor out = ref::embedding(get(e.getTable()), get(e.getIds()), error);
        return bindOrFail(op, std::move(out), error);
      })
      .Case<DropoutOp>([&](DropoutOp d) {
        return bind(op,
                    ref::dropout(get(d.getInput()), get(d.getRng()),
                                 d.getRate().convertToDouble(), d.getKey()));
      })
      .Case<CausalMaskOp>([&](CausalMaskOp c) {
        return bind(op, ref::causalMask(resultShape(op)[0]));
      })
      .Case<PaddingMaskOp>([&](PaddingMaskOp p) {
        return bind(op, ref::paddingMask(get(p.getIds()), p.getPadId()));
      })
      .Case<PrefixMaskOp>([&](PrefixMaskOp p) {
        return bind(op,
                    ref::prefixMask(get(p.getPosition()), resultShape(op)[1]));
      })
      .Case<CacheUpdateOp>([&](CacheUpdateOp c) {
        std::string error;
        Tensor out = ref::cacheUpdate(get(c.getCache()), get(c.getValue()),
                                      get(c.getPosition()), error);
        return bindOrFail(op, std::move(out), error);
      })
      .Case<BeamHistoryOp>([&](BeamHistoryOp h) {
        std::string error;
        Tensor out = ref::beamHistory(get(h.getHistory()), get(h.getOrigin()),
                                      get(h.getPosition()), error);
        return bindOrFail(op, std::move(out), error);
      })
      .Case<CachedAttentionOp>([&](CachedAttentionOp a) {
        auto optional = [&](Value v) { return v ? &get(v) : nullptr; };
        std::string error;
        Tensor out = ref::cachedAttention(
            get(a.getQuery()), get(a.getKeys()), get(a.getValues()),
            optional(a.getSlot()), optional(a.getHistory()),
            optional(a.getLimit()), optional(a.getKeyMask()), a.getHeads(),
            error);
        return bindOrFail(op, std::move(out), error);
      })
      .Case<PositionalEncodingOp>([&](PositionalEncodingOp p) {
        Shape shape = resultShape(op);
        return bind(op, ref::positionalEncoding(
                            *dtypeOf(p.getResult().getType().getElementType()),
                            shape[0], shape[1]));
      })
      .Case<AllReduceOp>([&](AllReduceOp r) {
        // The interpreter is one rank: the sum over ranks is the input.
        for (auto [input, result] : llvm::zip(r.getInputs(), r.getResults())) {
          Tensor sum = get(input); // a copy first: inserting may rehash
          values[result] = std::move(sum);
        }
        return success();
      })
      .Default(std::nullopt);
}

Frame::Evaluated Frame::gradient(Operation *op) {
  return TypeSwitch<Operation *, Evaluated>(op)
      .Case<SoftmaxGradOp>([&](SoftmaxGradOp s) {
        return bind(op, ref::softmaxGrad(get(s.getOutput()),
                                         get(s.getOutputGrad()), s.getAxis()));
      })
      .Case<LayerNormGradOp>([&](LayerNormGradOp l) {
        auto [dx, dgamma, dbeta] = ref::layerNormGrad(
            get(l.getInput()), get(l.getGamma()), get(l.getOutputGrad()),
            l.getEpsilon().convertToDouble());
        values[l.getInputGrad()] = std::move(dx);
        values[l.getGammaGrad()] = std::move(dgamma);
        values[l.getBetaGrad()] = std::move(dbeta);
        return success();
      })
      .Case<CrossEntropyGradOp>([&](CrossEntropyGradOp c) {
        return bind(
            op, ref::crossEntropyGrad(get(c.getLogits()), get(c.getTargets()),
                                      get(c.getLossGrad()),
                                      c.getLabelSmoothing().convertToDouble(),
                                      c.getIgnoreIndex()));
      })
      .Case<EmbeddingGradOp>([&](EmbeddingGradOp e) {
        return bind(op,
                    ref::embeddingGrad(get(e.getIds()), get(e.getOutputGrad()),
                                       resultShape(op)[0], e.getPaddingId()));
      })
      .Case<EmbeddingGradAddOp>([&](EmbeddingGradAddOp e) {
        return bind(op, ref::embeddingGrad(
                            get(e.getIds()), get(e.getOutputGrad()),
                            resultShape(op)[0], e.getPaddingId(),
                            &get(e.getBase())));
      })
      .Default(std::nullopt);
}

Frame::Evaluated Frame::dataMovement(Operation *op) {
  return TypeSwitch<Operation *, Evaluated>(op)
      .Case<ReshapeOp>([&](ReshapeOp r) {
        return bind(op, ref::reshape(get(r.getInput()), resultShape(op)));
      })
      .Case<TransposeOp>([&](TransposeOp t) {
        return bind(
            op, ref::transpose(get(t.getInput()), toShape(t.getPermutation())));
      })
      .Case<BroadcastToOp>([&](BroadcastToOp b) {
        return bind(op, ref::broadcastTo(get(b.getInput()), resultShape(op)));
      })
      .Case<SliceOp>([&](SliceOp s) {
        return bind(op, ref::slice(get(s.getInput()), toShape(s.getOffsets()),
                                   resultShape(op)));
      })
      .Case<SplitOp>([&](SplitOp split) {
        // Slice every part before binding any: binding inserts into
        // `values`, which may move `input`.
        const Tensor &input = get(split.getInput());
        Shape offsets(input.shape.size(), 0);
        std::vector<Tensor> parts;
        for (Value result : split.getResults()) {
          Shape sizes = shapeOf(result.getType());
          parts.push_back(ref::slice(input, offsets, sizes));
          offsets[split.getAxis()] += sizes[split.getAxis()];
        }
        return bindAll(split.getResults(), std::move(parts));
      })
      .Case<ConcatOp>([&](ConcatOp c) {
        return bind(op, ref::concat(all(c.getInputs()), c.getAxis()));
      })
      .Default(std::nullopt);
}

Frame::Evaluated Frame::fusedOp(Operation *op) {
  return TypeSwitch<Operation *, Evaluated>(op)
      .Case<LinearOp>([&](LinearOp l) {
        return bind(op, ref::linear(get(l.getInput()), get(l.getWeight()),
                                    get(l.getBias()), l.getRelu()));
      })
      .Case<ResidualLayerNormOp>([&](ResidualLayerNormOp r) {
        auto [y, mean, rstd] = ref::residualLayerNorm(
            get(r.getResidual()), get(r.getSublayer()), get(r.getGamma()),
            get(r.getBeta()), get(r.getRng()), r.getRate().convertToDouble(),
            r.getKey(), r.getEpsilon().convertToDouble());
        bindBf16Copy(r.getResultBf16(), y);
        values[r.getResult()] = std::move(y);
        values[r.getMean()] = std::move(mean);
        values[r.getRstd()] = std::move(rstd);
        return success();
      })
      .Case<ResidualLayerNormGradOp>([&](ResidualLayerNormGradOp r) {
        auto [dres, dsub, dgamma, dbeta] = ref::residualLayerNormGrad(
            get(r.getResidual()), get(r.getSublayer()), get(r.getGamma()),
            get(r.getMean()), get(r.getRstd()), get(r.getOutputGrad()),
            get(r.getRng()), r.getRate().convertToDouble(), r.getKey());
        bindBf16Copy(r.getSublayerGradBf16(), dsub);
        values[r.getResidualGrad()] = std::move(dres);
        values[r.getSublayerGrad()] = std::move(dsub);
        values[r.getGammaGrad()] = std::move(dgamma);
        values[r.getBetaGrad()] = std::move(dbeta);
        return success();
      })
      .Case<CrossEntropyWithGradOp>(
          [&](CrossEntropyWithGradOp c) -> LogicalResult {
            // The two ops it fuses, each as the interpreter computes it.
            std::string error;
            double smoothing = c.getLabelSmoothing().convertToDouble();
            auto [loss, tokens] =
                ref::crossEntropy(get(c.getLogits()), get(c.getTargets()),
                                  smoothing, c.getIgnoreIndex(), error);
            if (!error.empty())
              return dataError(op, error);
            values[c.getGrad()] = ref::crossEntropyGrad(
                get(c.getLogits()), get(c.getTargets()), get(c.getLossGrad()),
                smoothing, c.getIgnoreIndex());
            values[c.getLoss()] = std::move(loss);
            values[c.getTokens()] = std::move(tokens);
            return success();
          })
      .Case<EmbedOp>([&](EmbedOp e) {
        std::string error;
        Tensor out = ref::embed(
            get(e.getTable()), get(e.getIds()), get(e.getPositions()),
            get(e.getRng()), e.getScale().convertToDouble(),
            e.getRate().convertToDouble(), e.getKey(), error);
        return bindOrFail(op, std::move(out), error);
      })
      .Case<MaskedSoftmaxOp>([&](MaskedSoftmaxOp m) {
        auto [out, probs] = ref::maskedSoftmax(
            get(m.getScores()), get(m.getMask()), get(m.getRng()),
            m.getScale().convertToDouble(), m.getFill().convertToDouble(),
            m.getRate().convertToDouble(), m.getKey());
        values[m.getResult()] = std::move(out);
        values[m.getProbs()] = std::move(probs);
        return success();
      })
      .Case<MaskedSoftmaxGradOp>([&](MaskedSoftmaxGradOp m) {
        return bind(op, ref::maskedSoftmaxGrad(
                            get(m.getProbs()), get(m.getOutputGrad()),
                            get(m.getMask()), get(m.getRng()),
                            m.getScale().convertToDouble(),
                            m.getRate().convertToDouble(), m.getKey()));
      })
      .Case<AdamOp>([&](AdamOp adam) {
        ref::AdamStep step{adam.getBeta1().convertToDouble(),
                           adam.getBeta2().convertToDouble(),
                           adam.getEpsilon().convertToDouble(),
                           get(adam.getStepSize()).get(0),
                           get(adam.getRsqrtCorrection2()).get(0),
                           get(adam.getGradScale()).get(0)};
        std::vector<Tensor> updated = ref::adam(
            step, all(adam.getParams()), all(adam.getGrads()),
            all(adam.getFirstMoments()), all(adam.getSecondMoments()));
        // The new parameters' bf16 copies: each rounded once.
        for (size_t i = 0; i < adam.getNewParamCopies().size(); ++i)
          updated.push_back(ref::convert(updated[i], DType::BF16));
        return bindAll(adam.getResults(), std::move(updated));
      })
      .Default(std::nullopt);
}

Frame::Evaluated Frame::regionOrCall(Operation *op) {
  auto copies = [&](OperandRange operands) {
    std::vector<Tensor> tensors;
    for (Value v : operands)
      tensors.push_back(get(v));
    return tensors;
  };
  return TypeSwitch<Operation *, Evaluated>(op)
      .Case<FusedOp>([&](FusedOp fused) -> LogicalResult {
        FailureOr<std::vector<Tensor>> results = Frame().runBlock(
            fused.getBody().front(), copies(fused.getInputs()));
        if (failed(results))
          return failure();
        return bindAll(fused.getResults(), std::move(*results));
      })
      .Case<func::CallOp>([&](func::CallOp call) -> LogicalResult {
        auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
            call, call.getCalleeAttr());
        if (!callee)
          return call.emitError() << "callee @" << call.getCallee()
                                  << " is not a function of this module";
        FailureOr<std::vector<Tensor>> results =
            Frame().run(callee, copies(call.getOperands()));
        if (failed(results))
          return call.emitError() << "in the call to @" << call.getCallee();
        return bindAll(call.getResults(), std::move(*results));
      })
      .Default(std::nullopt);
}

} // namespace

FailureOr<std::vector<Tensor>> interpret(func::FuncOp function,
                                         const std::vector<Tensor> &args) {
  return Frame().run(function, args);
}

} // namespace tc
