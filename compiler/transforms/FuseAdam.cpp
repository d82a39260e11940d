//===- FuseAdam.cpp - tc-fuse-adam: per-parameter chains -> tc.adam -------===//

#include "compiler/transforms/Passes.h"
#include "compiler/transforms/TransformUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace tc {
#define GEN_PASS_DEF_TCFUSEADAM
#include "compiler/transforms/Passes.h.inc"
} // namespace tc

using namespace mlir;
using namespace tc;

namespace {

/// `v` is `lhs * rhs` with rhs a splat constant: returns (lhs, constant).
std::optional<std::pair<Value, double>> scaled(Value v) {
  auto mul = v.getDefiningOp<MulOp>();
  if (!mul)
    return std::nullopt;
  std::optional<double> c = splatValue(mul.getRhs());
  if (!c)
    return std::nullopt;
  return std::pair(mul.getLhs(), *c);
}

struct Chain {
  Value param, grad, m, v;
  Value newParam, newM, newV;
  Value stepSize, rsqrtCorrection2;
  double beta1, beta2, epsilon;
};

/// p' = p - m' / (sqrt(v') * c2 + eps) * step_size, with m', v' as in
/// Passes.td.
std::optional<Chain> match(SubOp sub) {
  Chain c;
  c.param = sub.getLhs();
  c.newParam = sub.getResult();
  auto update = sub.getRhs().getDefiningOp<MulOp>();
  if (!update || typeOf(update.getRhs()).getRank() != 0)
    return std::nullopt;
  c.stepSize = update.getRhs();
  auto ratio = update.getLhs().getDefiningOp<DivOp>();
  if (!ratio)
    return std::nullopt;
  c.newM = ratio.getLhs();
  auto denom = ratio.getRhs().getDefiningOp<AddOp>();
  std::optional<double> eps = denom ? splatValue(denom.getRhs()) : std::nullopt;
  auto corrected = denom ? denom.getLhs().getDefiningOp<MulOp>() : MulOp();
  auto root = corrected ? corrected.getLhs().getDefiningOp<SqrtOp>() : SqrtOp();
  if (!eps || !root || typeOf(corrected.getRhs()).getRank() != 0)
    return std::nullopt;
  c.epsilon = *eps;
  c.rsqrtCorrection2 = corrected.getRhs();
  c.newV = root.getInput();

  // m' = m * b1 + g * (1 - b1)
  auto mSum = c.newM.getDefiningOp<AddOp>();
  auto mDecay = mSum ? scaled(mSum.getLhs()) : std::nullopt;
  auto mNew = mSum ? scaled(mSum.getRhs()) : std::nullopt;
  // v' = v * b2 + (g * g) * (1 - b2)
  auto vSum = c.newV.getDefiningOp<AddOp>();
  auto vDecay = vSum ? scaled(vSum.getLhs()) : std::nullopt;
  auto vNew = vSum ? scaled(vSum.getRhs()) : std::nullopt;
  if (!mDecay || !mNew || !vDecay || !vNew)
    return std::nullopt;
  auto square = vNew->first.getDefiningOp<MulOp>();
  if (!square || square.getLhs() != square.getRhs() ||
      square.getLhs() != mNew->first)
    return std::nullopt;
  c.m = mDecay->first;
  c.v = vDecay->first;
  c.grad = mNew->first;
  c.beta1 = mDecay->second;
  c.beta2 = vDecay->second;
  // The constants must be those of Adam, not another update.
  if (std::abs(mNew->second - (1.0 - c.beta1)) > 1e-6 ||
      std::abs(vNew->second - (1.0 - c.beta2)) > 1e-6)
    return std::nullopt;
  for (Value same : {c.param, c.grad, c.m, c.v})
    if (same.getType() != c.param.getType())
      return std::nullopt;
  // tc.adam goes before the return: the new values may feed nothing but the
  // chain and the return.
  auto onlyFeeds = [](Value v, Operation *chainUser) {
    return llvm::all_of(v.getUsers(), [&](Operation *user) {
      return user == chainUser || isa<func::ReturnOp>(user);
    });
  };
  if (!onlyFeeds(c.newParam, nullptr) || !onlyFeeds(c.newM, ratio) ||
      !onlyFeeds(c.newV, root))
    return std::nullopt;
  return c;
}

void fuseAdam(func::FuncOp function) {
  SmallVector<Chain> chains;
  function.walk([&](SubOp sub) {
    if (std::optional<Chain> c = match(sub)) {
      // All chains of one op share the per-step scalars and constants.
      if (chains.empty() ||
          (c->stepSize == chains[0].stepSize &&
           c->rsqrtCorrection2 == chains[0].rsqrtCorrection2 &&
           c->beta1 == chains[0].beta1 && c->beta2 == chains[0].beta2 &&
           c->epsilon == chains[0].epsilon))
        chains.push_back(*c);
    }
  });
  if (chains.empty())
    return;

  Operation *terminator = function.getBody().front().getTerminator();
  OpBuilder b(terminator);
  // Gradients all scaled by one rank-0 value: scale them as Adam reads them.
  Value gradScale;
  auto scaleOf = [](Value grad) -> Value {
    auto mul = grad.getDefiningOp<MulOp>();
    return mul && typeOf(mul.getRhs()).getRank() == 0 &&
                   mul.getLhs().getType() == grad.getType()
               ? mul.getRhs()
               : Value();
  };
  if (Value shared = scaleOf(chains[0].grad);
      shared && llvm::all_of(chains, [&](const Chain &c) {
        return scaleOf(c.grad) == shared;
      })) {
    gradScale = shared;
    for (Chain &c : chains)
      c.grad = c.grad.getDefiningOp<MulOp>().getLhs();
  } else {
    auto scalar = typeOf(chains[0].stepSize);
    gradScale = ConstantOp::create(b, function.getLoc(), scalar, 1.0);
  }
  SmallVector<Value> params, grads, ms, vs;
  SmallVector<Type> types;
  for (const Chain &c : chains) {
    params.push_back(c.param);
    grads.push_back(c.grad);
    ms.push_back(c.m);
    vs.push_back(c.v);
    types.push_back(c.param.getType());
  }
  auto adam = AdamOp::create(
      b, function.getLoc(), types, types, types, TypeRange(), params, grads, ms,
      vs, chains[0].stepSize, chains[0].rsqrtCorrection2, gradScale,
      ValueRange(),
      b.getF64FloatAttr(chains[0].beta1), b.getF64FloatAttr(chains[0].beta2),
      b.getF64FloatAttr(chains[0].epsilon));
  for (auto [i, c] : llvm::enumerate(chains)) {
    c.newParam.replaceAllUsesWith(adam.getNewParams()[i]);
    c.newM.replaceAllUsesWith(adam.getNewFirstMoments()[i]);
    c.newV.replaceAllUsesWith(adam.getNewSecondMoments()[i]);
  }
  eraseDeadOps(function.getBody().front());
}

struct FuseAdamPass : public tc::impl::TcFuseAdamBase<FuseAdamPass> {
  void runOnOperation() override {
    for (func::FuncOp function : getOperation().getOps<func::FuncOp>())
      if (!function.isExternal())
        fuseAdam(function);
  }
};

} // namespace
