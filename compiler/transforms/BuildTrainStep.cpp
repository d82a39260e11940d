//===- BuildTrainStep.cpp - tc-build-train-step: gradients -> Adam step ---===//
//
// Wraps a gradient function (from tc-autodiff) into one optimizer step:
// micro-batch accumulation, the sum over data-parallel ranks, per-token
// normalisation (by the global token count), optional global-norm
// clipping, the paper's learning-rate schedule and Adam, all in tc ops, so
// that fusion and code generation see the whole step. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "compiler/transforms/Passes.h"
#include "compiler/transforms/TrainStepLimits.h"
#include "compiler/transforms/TransformUtils.h"
#include "runtime/format/Contract.h"
#include "support/Broadcast.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"

#include <cmath>

namespace tc {
#define GEN_PASS_DEF_TCBUILDTRAINSTEP
#include "compiler/transforms/Passes.h.inc"
} // namespace tc

using namespace mlir;
using namespace tc;

namespace {

/// Builds tc ops with result types inferred by broadcasting.
struct Arith {
  OpBuilder &b;
  Location loc;
  Type element; ///< of the scalars built by scalar()

  Value scalar(double value) {
    auto type = RankedTensorType::get({}, element);
    return ConstantOp::create(b, loc, type, value);
  }
  RankedTensorType joined(Value x, Value y) {
    return typeOf(x).clone(
        *broadcastShapes(std::span<const int64_t>(typeOf(x).getShape()),
                         std::span<const int64_t>(typeOf(y).getShape())));
  }
  template <typename Op> Value binary(Value x, Value y) {
    return Op::create(b, loc, joined(x, y), x, y);
  }
  Value add(Value x, Value y) { return binary<AddOp>(x, y); }
  Value sub(Value x, Value y) { return binary<SubOp>(x, y); }
  Value mul(Value x, Value y) { return binary<MulOp>(x, y); }
  Value div(Value x, Value y) { return binary<DivOp>(x, y); }
  Value min(Value x, Value y) { return binary<MinOp>(x, y); }
  Value max(Value x, Value y) { return binary<MaxOp>(x, y); }
  /// The sum of every element, as a rank-0 tensor.
  Value sumAll(Value x) {
    RankedTensorType type = typeOf(x);
    if (type.getRank() == 0)
      return x;
    SmallVector<int64_t> axes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      axes.push_back(d);
    return ReduceSumOp::create(b, loc, type.clone(ArrayRef<int64_t>{}), x, axes,
                               false);
  }
};

/// The name of the step built around `grad`: the bucket's training step
/// for the frontend's forward functions ("forward_2x6x5_grad" ->
/// "train_step_2x6x5"), else "<forward>_train_step".
std::string trainStepName(StringRef grad) {
  StringRef base = grad.drop_back(strlen("_grad"));
  using contract::FunctionRole;
  if (base.consume_front(contract::functionNamePrefix(FunctionRole::Forward)))
    return (contract::functionNamePrefix(FunctionRole::TrainStep) + base).str();
  return (base + "_train_step").str();
}

bool isGradientFunction(func::FuncOp f) {
  return f.getSymName().ends_with("_grad") && f.getNumResults() > 2 &&
         f.getResultAttr(2, "tc.grad_of");
}

/// The arguments of a gradient function, by role.
struct GradientArguments {
  SmallVector<unsigned> params; ///< those with a tc.param name
  SmallVector<unsigned> data;   ///< the others, the RNG state among them
  size_t rng;                   ///< the RNG state's position in `data`
};

/// The arguments of the step being built: params, m, v, then data.
struct StepArguments {
  Block *body;
  size_t paramCount;

  Value param(size_t p) const { return body->getArgument(p); }
  /// Adam's first (`which` 0) or second (1) moment of parameter `p`.
  Value moment(int which, size_t p) const {
    return body->getArgument((1 + which) * paramCount + p);
  }
  Value data(size_t d) const { return body->getArgument(3 * paramCount + d); }
};

/// The summed loss, token count and gradients of the step's batch.
struct Sums {
  Value loss, tokens;
  SmallVector<Value> grads;
};

/// The optimizer state after the step.
struct OptimizerState {
  SmallVector<Value> params, firstMoments, secondMoments;
};

struct BuildTrainStepPass
    : public tc::impl::TcBuildTrainStepBase<BuildTrainStepPass> {
  using TcBuildTrainStepBase::TcBuildTrainStepBase;

  /// The options in the model description's ranges (TrainStepLimits.h): a
  /// NaN or a beta of 1 would build a step that trains nothing
  /// (accumulation-steps: build's check, which says why it is bounded).
  LogicalResult initialize(MLIRContext *context) override {
    auto outside = [&](StringRef option, auto value, StringRef range) {
      return emitError(UnknownLoc::get(context))
             << "tc-build-train-step: " << option << "=" << value
             << " is outside " << range
             << " (the model description's range of the setting)";
    };
    for (auto [option, value] :
         {std::pair<StringRef, double>{"adam-beta1", adamBeta1},
          {"adam-beta2", adamBeta2}})
      if (!(value >= 0.0 && value < kMaxAdamBetaExclusive))
        return outside(option, value, "[0, 1)");
    for (auto [option, value] :
         {std::pair<StringRef, double>{"adam-epsilon", adamEpsilon},
          {"lr-scale", learningRateScale},
          {"gradient-clip", gradientClip}})
      if (!(value >= 0.0 && value < kMaxStepScalarExclusive))
        return outside(option, value, "[0, 3.40282e+38)");
    for (auto [option, value, max] :
         {std::tuple<StringRef, int64_t, int64_t>{"d-model", dModel,
                                                  kMaxModelWidth},
          {"warmup-steps", warmupSteps, kMaxWarmupSteps}})
      if (value < 1 || value > max)
        return outside(option, value, "[1, " + std::to_string(max) + "]");
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> gradients;
    for (func::FuncOp f : module.getOps<func::FuncOp>())
      if (isGradientFunction(f) &&
          !module.lookupSymbol(trainStepName(f.getSymName())))
        gradients.push_back(f);
    for (func::FuncOp f : gradients)
      if (failed(build(f)))
        return signalPassFailure();
  }

  LogicalResult build(func::FuncOp grad) {
    FailureOr<GradientArguments> args = gradientArguments(grad);
    if (failed(args))
      return failure();
    OpBuilder b(grad);
    b.setInsertionPointAfter(grad);
    func::FuncOp step = createStep(b, grad, *args);
    StepArguments in{&step.getBody().front(), args->params.size()};
    b.setInsertionPointToStart(in.body);
    Type lossType = grad.getResultTypes()[0];
    Arith a{b, grad.getLoc(),
            cast<RankedTensorType>(lossType).getElementType()};

    Sums sums = sumOverRanks(a, accumulateMicroBatches(a, grad, *args, in));
    // Ops are built one per statement from here on: C++ leaves the order in
    // which a call's arguments are evaluated to the compiler, and the IR (and
    // so the tests' CHECK lines) must not depend on it.
    Value one = a.scalar(1.0);
    SmallVector<Value> grads = scaledGradients(a, sums, one);
    auto [t, lr] = learningRate(a, in.data(args->rng), typeOf(sums.loss), one);
    OptimizerState next = adam(a, in, grads, t, lr, one);

    SmallVector<Value> results;
    llvm::append_range(results, next.params);
    llvm::append_range(results, next.firstMoments);
    llvm::append_range(results, next.secondMoments);
    results.append({sums.loss, sums.tokens, lr});
    func::ReturnOp::create(b, a.loc, results);
    return success();
  }

  /// The gradient function's arguments, once it is known to be one this
  /// pass can wrap: (loss, tokens, grads...) of (params, data), the RNG
  /// state among the data, and an accumulation count in range.
  FailureOr<GradientArguments> gradientArguments(func::FuncOp grad) {
    auto tokensType = dyn_cast<RankedTensorType>(grad.getResultTypes()[1]);
    if (!tokensType || tokensType.getRank() != 0 ||
        !tokensType.getElementType().isInteger(32))
      return grad.emitError()
             << "tc-build-train-step: @" << grad.getSymName()
             << " must return (summed loss, i32 token count, gradients...)";
    GradientArguments args;
    for (unsigned i = 0; i < grad.getNumArguments(); ++i)
      (grad.getArgAttr(i, kParamAttrName) ? args.params : args.data)
          .push_back(i);
    std::optional<size_t> rng;
    for (auto [position, i] : llvm::enumerate(args.data))
      if (auto name = grad.getArgAttrOfType<StringAttr>(i, kInputAttrName);
          name && name.getValue() == StringRef(contract::binding::kRng))
        rng = position;
    if (!rng)
      return grad.emitError()
             << "tc-build-train-step: @" << grad.getSymName()
             << " has no argument with tc.input = \"" << contract::binding::kRng
             << "\" (the RNG state "
                "(seed, step) that also counts the optimizer steps)";
    args.rng = *rng;
    int64_t k = accumulationSteps;
    if (k < 1 || k > kMaxAccumulationSteps)
      return grad.emitError()
             << "tc-build-train-step: accumulation-steps is " << k
             << "; it must be in [1, " << kMaxAccumulationSteps
             << "] (each micro-batch is unrolled into the step)";
    return args;
  }

  /// The step function, empty: params, m, v, data (with a leading k when
  /// k > 1) -> new params, m, v, then loss, tokens and learning rate.
  func::FuncOp createStep(OpBuilder &b, func::FuncOp grad,
                          const GradientArguments &args) {
    int64_t k = accumulationSteps;
    MLIRContext *context = b.getContext();
    SmallVector<Type> argTypes;
    SmallVector<DictionaryAttr> argAttrs;
    auto named = [&](StringRef key, StringRef value) {
      return DictionaryAttr::get(context,
                                 {b.getNamedAttr(key, b.getStringAttr(value))});
    };
    auto paramName = [&](unsigned i) {
      return grad.getArgAttrOfType<StringAttr>(i, kParamAttrName).getValue();
    };
    for (unsigned i : args.params) {
      argTypes.push_back(grad.getArgumentTypes()[i]);
      argAttrs.push_back(grad.getArgAttrDict(i));
    }
    for (StringRef moment : {kFirstMomentPrefix, kSecondMomentPrefix})
      for (unsigned i : args.params) {
        argTypes.push_back(grad.getArgumentTypes()[i]);
        argAttrs.push_back(
            named(kInputAttrName, (moment + paramName(i)).str()));
      }
    for (auto [position, i] : llvm::enumerate(args.data)) {
      auto type = cast<RankedTensorType>(grad.getArgumentTypes()[i]);
      if (k > 1 && position != args.rng) {
        SmallVector<int64_t> shape = {k};
        llvm::append_range(shape, type.getShape());
        type = type.clone(shape);
      }
      argTypes.push_back(type);
      argAttrs.push_back(grad.getArgAttrDict(i));
    }
    Type lossType = grad.getResultTypes()[0];
    Type tokensType = grad.getResultTypes()[1];
    SmallVector<Type> resultTypes;
    SmallVector<DictionaryAttr> resultAttrs;
    for (StringRef prefix :
         {kUpdatedParamPrefix, kFirstMomentPrefix, kSecondMomentPrefix})
      for (unsigned i : args.params) {
        resultTypes.push_back(grad.getArgumentTypes()[i]);
        resultAttrs.push_back(
            named(kOutputAttrName, (prefix + paramName(i)).str()));
      }
    for (auto [type, name] :
         {std::pair<Type, StringRef>{lossType, contract::binding::kLoss},
          {tokensType, contract::binding::kTokens},
          {lossType, contract::binding::kLearningRate}}) {
      resultTypes.push_back(type);
      resultAttrs.push_back(named(kOutputAttrName, name));
    }
    auto step =
        func::FuncOp::create(b, grad.getLoc(), trainStepName(grad.getSymName()),
                             b.getFunctionType(argTypes, resultTypes));
    step.setAllArgAttrs(argAttrs);
    step.setAllResultAttrs(resultAttrs);
    step.addEntryBlock();
    return step;
  }

  /// Loss, tokens and gradients summed over the micro-batches, each one the
  /// gradient function's body inlined.
  Sums accumulateMicroBatches(Arith &a, func::FuncOp grad,
                              const GradientArguments &args,
                              const StepArguments &in) {
    OpBuilder &b = a.b;
    Location loc = a.loc;
    int64_t k = accumulationSteps;
    size_t n = args.params.size();
    Value rng = in.data(args.rng);
    Sums sums;
    sums.grads.resize(n);
    for (int64_t micro = 0; micro < k; ++micro) {
      SmallVector<Value> operands(grad.getNumArguments());
      for (size_t p = 0; p < n; ++p)
        operands[args.params[p]] = in.param(p);
      for (size_t d = 0; d < args.data.size(); ++d) {
        Value value = in.data(d);
        if (micro > 0 && d == args.rng) {
          // (seed, step) -> (seed + micro * kMicroBatchSeedStride, step):
          // each micro-batch draws its dropout from its own Philox key,
          // as the ranks of a data-parallel job do (Contract.h).
          int64_t stride = micro * contract::kMicroBatchSeedStride;
          value =
              a.add(rng, ConstantOp::create(
                             b, loc,
                             DenseElementsAttr::get(
                                 typeOf(rng), ArrayRef<int64_t>{stride, 0})));
        } else if (k > 1 && d != args.rng) {
          RankedTensorType full = typeOf(value);
          SmallVector<int64_t> offsets(full.getRank(), 0);
          offsets[0] = micro;
          SmallVector<int64_t> one(full.getShape());
          one[0] = 1;
          Value slice =
              SliceOp::create(b, loc, full.clone(one), value, offsets);
          value = ReshapeOp::create(
              b, loc, full.clone(full.getShape().drop_front()), slice);
        }
        operands[args.data[d]] = value;
      }
      // The gradient function's body, inlined, so that the fusion passes
      // see the whole step.
      IRMapping mapping;
      Block &gradBody = grad.getBody().front();
      mapping.map(gradBody.getArguments(), operands);
      for (Operation &op : gradBody.without_terminator())
        b.clone(op, mapping);
      SmallVector<Value> out;
      for (Value v : gradBody.getTerminator()->getOperands())
        out.push_back(mapping.lookup(v));
      sums.loss = micro ? a.add(sums.loss, out[0]) : out[0];
      sums.tokens = micro ? a.add(sums.tokens, out[1]) : out[1];
      for (size_t p = 0; p < n; ++p)
        sums.grads[p] = micro ? a.add(sums.grads[p], out[2 + p]) : out[2 + p];
    }
    return sums;
  }

  /// The sums over all ranks of a data-parallel job (one rank: the sums
  /// themselves): everything after sees the global batch.
  static Sums sumOverRanks(Arith &a, const Sums &local) {
    OpBuilder &b = a.b;
    Location loc = a.loc;
    // It sums in place, so each input must be a value of its own: not a
    // constant, an argument, nor a value read elsewhere or twice.
    SmallVector<Value> inputs;
    SmallVector<Value> sums(local.grads);
    sums.append({local.loss, local.tokens});
    for (Value sum : sums) {
      Operation *producer = sum.getDefiningOp();
      if (!producer || isa<ConstantOp>(producer) || !sum.use_empty() ||
          llvm::is_contained(inputs, sum)) {
        RankedTensorType type = typeOf(sum);
        Value zero = ConstantOp::create(
            b, loc,
            DenseElementsAttr::get(type.clone(ArrayRef<int64_t>{}),
                                   b.getZeroAttr(type.getElementType())));
        sum = AddOp::create(b, loc, type, sum, zero);
      }
      inputs.push_back(sum);
    }
    auto global = AllReduceOp::create(b, loc, inputs);
    size_t n = local.grads.size();
    Sums result;
    for (size_t p = 0; p < n; ++p)
      result.grads.push_back(global.getResult(p));
    result.loss = global.getResult(n);
    result.tokens = global.getResult(n + 1);
    return result;
  }

  /// The gradients for Adam: the per-token mean, then optional global-norm
  /// clipping.
  ///
  /// Both are one scalar factor on the summed gradients (the norm of
  /// g / tokens is norm(g) / tokens), so that Adam reads the sums
  /// themselves, where tc.all_reduce left them (in the grads space, in
  /// buckets), and applies the factor as it reads (tc-fuse-adam's
  /// grad_scale).
  SmallVector<Value> scaledGradients(Arith &a, const Sums &sums, Value one) {
    Value tokens =
        ConvertOp::create(a.b, a.loc, typeOf(sums.loss), sums.tokens);
    Value atLeastOne = a.max(tokens, one);
    Value perToken = a.div(one, atLeastOne);
    Value scale = perToken;
    if (gradientClip > 0.0) {
      Value squares;
      for (Value g : sums.grads) {
        Value square = a.mul(g, g);
        Value s = a.sumAll(square);
        squares = squares ? a.add(squares, s) : s;
      }
      Value sumNorm = SqrtOp::create(a.b, a.loc, squares);
      Value norm = a.mul(sumNorm, perToken);
      Value tiny = a.scalar(1e-6);
      Value safeNorm = a.add(norm, tiny);
      Value clip = a.scalar(gradientClip);
      Value ratio = a.div(clip, safeNorm);
      Value factor = a.min(one, ratio);
      scale = a.mul(perToken, factor);
    }
    SmallVector<Value> grads;
    for (Value g : sums.grads)
      grads.push_back(a.mul(g, scale));
    return grads;
  }

  /// The step t (1-based, from the RNG state (seed, step)) as a `lossType`
  /// and the paper's learning rate at t.
  std::pair<Value, Value> learningRate(Arith &a, Value rng, Type lossType,
                                       Value one) {
    OpBuilder &b = a.b;
    Location loc = a.loc;
    auto i64Scalar = RankedTensorType::get({}, b.getI64Type());
    Value stepSlice =
        SliceOp::create(b, loc, RankedTensorType::get({1}, b.getI64Type()), rng,
                        ArrayRef<int64_t>{1});
    Value stepInt = ReshapeOp::create(b, loc, i64Scalar, stepSlice);
    // Steps count from 1; a step of 0 would make Adam's corrections 0 / 0.
    Value stepFloat = ConvertOp::create(b, loc, lossType, stepInt);
    Value t = a.max(stepFloat, one);
    Value warmupScale = a.scalar(std::pow(double(warmupSteps), -1.5));
    Value warmup = a.mul(t, warmupScale);
    Value rsqrtT = RsqrtOp::create(b, loc, t);
    Value schedule = a.min(rsqrtT, warmup);
    Value lrScale = a.scalar(learningRateScale / std::sqrt(double(dModel)));
    Value lr = a.mul(lrScale, schedule);
    return {t, lr};
  }

  /// Adam with torch.optim.Adam's bias corrections, at step `t` with
  /// learning rate `lr`.
  OptimizerState adam(Arith &a, const StepArguments &in, ArrayRef<Value> grads,
                      Value t, Value lr, Value one) {
    auto correction = [&](double beta) { // 1 - beta^t
      Value logBeta = a.scalar(std::log(beta));
      Value exponent = a.mul(t, logBeta);
      Value power = ExpOp::create(a.b, a.loc, exponent);
      return a.sub(one, power);
    };
    Value correction1 = correction(adamBeta1);
    Value stepSize = a.div(lr, correction1);
    Value correction2 = correction(adamBeta2);
    Value invSqrtCorrection2 = RsqrtOp::create(a.b, a.loc, correction2);
    Value beta1 = a.scalar(adamBeta1);
    Value oneMinusBeta1 = a.scalar(1.0 - adamBeta1);
    Value beta2 = a.scalar(adamBeta2);
    Value oneMinusBeta2 = a.scalar(1.0 - adamBeta2);
    Value epsilon = a.scalar(adamEpsilon);
    OptimizerState next;
    for (auto [p, g] : llvm::enumerate(grads)) {
      Value decayedM = a.mul(in.moment(0, p), beta1);
      Value newPartM = a.mul(g, oneMinusBeta1);
      Value m = a.add(decayedM, newPartM);
      Value decayedV = a.mul(in.moment(1, p), beta2);
      Value gSquared = a.mul(g, g);
      Value newPartV = a.mul(gSquared, oneMinusBeta2);
      Value v = a.add(decayedV, newPartV);
      Value sqrtV = SqrtOp::create(a.b, a.loc, v);
      Value scaledSqrtV = a.mul(sqrtV, invSqrtCorrection2);
      Value denom = a.add(scaledSqrtV, epsilon);
      Value direction = a.div(m, denom);
      Value update = a.mul(direction, stepSize);
      next.params.push_back(a.sub(in.param(p), update));
      next.firstMoments.push_back(m);
      next.secondMoments.push_back(v);
    }
    return next;
  }
};

} // namespace
