//===- UseParamCopies.cpp - tc-use-param-copies: bf16 weights kept, not made -===//
//
// In a bf16 module every weight a GEMM reads is a tc.convert of an f32
// parameter (or of the concatenation of adjacent ones: the Q/K/V weights):
// one conversion kernel per weight per call, in every training step and
// every decoder step. Instead each such parameter P gets a bf16 copy, the
// function input "bf16.P" (the param_copies space): the fused Adam, which
// writes P, also writes its copy rounded once from the stored value, and the
// runtime rounds the parameters it writes itself (an initialisation, a
// checkpoint). So the converts go, and the copies hold the bits they made.
// See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "compiler/transforms/Passes.h"
#include "compiler/transforms/TransformUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

namespace tc {
#define GEN_PASS_DEF_TCUSEPARAMCOPIES
#include "compiler/transforms/Passes.h.inc"
} // namespace tc

using namespace mlir;
using namespace tc;

namespace {

/// The tc.param name of `value` when it is a parameter of `function`.
StringAttr paramName(func::FuncOp function, Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && arg.getOwner()->getParentOp() == function
             ? function.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                     kParamAttrName)
             : StringAttr();
}

AdamOp adamOf(func::FuncOp function) {
  AdamOp adam;
  function.walk([&](AdamOp op) { adam = op; });
  return adam;
}

StringRef nameOf(func::FuncOp function, unsigned i, bool result) {
  auto name =
      result ? function.getResultAttrOfType<StringAttr>(i, kOutputAttrName)
             : function.getArgAttrOfType<StringAttr>(i, kInputAttrName);
  return name ? name.getValue() : "";
}

/// Whether the copies stay exact in `function`: every parameter it returns
/// updated ("param.P") is written by its tc.adam, whose parameters are all
/// the function's own, and it has no copies yet (the pass ran once).
bool keepsCopiesExact(func::FuncOp function) {
  AdamOp adam = adamOf(function);
  if (adam && !llvm::all_of(adam.getParams(), [&](Value p) {
        return bool(paramName(function, p));
      }))
    return false;
  for (unsigned i = 0; i < function.getNumArguments(); ++i)
    if (nameOf(function, i, false).starts_with(kParamCopyPrefix))
      return false;
  auto ret = cast<func::ReturnOp>(function.getBody().front().getTerminator());
  for (auto [i, value] : llvm::enumerate(ret.getOperands()))
    if (nameOf(function, i, true).starts_with(kUpdatedParamPrefix) &&
        (!adam || value.getDefiningOp() != adam.getOperation()))
      return false;
  return true;
}

/// The parameters a tc.convert to bf16 of `function` rounds as a whole:
/// one, or the adjacent ones a tc.concat joins (the Q/K/V weights); empty
/// for any other convert.
SmallVector<BlockArgument> convertedParams(func::FuncOp function,
                                           ConvertOp convert) {
  if (!narrowsToBf16(convert))
    return {};
  SmallVector<Value> pieces = {convert.getInput()};
  if (auto concat = convert.getInput().getDefiningOp<ConcatOp>())
    pieces.assign(concat.getInputs().begin(), concat.getInputs().end());
  SmallVector<BlockArgument> params;
  for (Value piece : pieces) {
    if (!paramName(function, piece))
      return {};
    params.push_back(cast<BlockArgument>(piece));
  }
  return params;
}

/// The position after the last argument (result) that holds state: a
/// parameter, Adam's moments or a copy.
unsigned afterState(func::FuncOp function, bool results) {
  unsigned count =
      results ? function.getNumResults() : function.getNumArguments();
  unsigned after = 0;
  for (unsigned i = 0; i < count; ++i) {
    StringRef name = nameOf(function, i, results);
    if ((!results && function.getArgAttr(i, kParamAttrName)) ||
        name.starts_with(kUpdatedParamPrefix) ||
        name.starts_with(kFirstMomentPrefix) ||
        name.starts_with(kSecondMomentPrefix) ||
        name.starts_with(kParamCopyPrefix))
      after = i + 1;
  }
  return after;
}

void useParamCopies(func::FuncOp function) {
  SmallVector<std::pair<ConvertOp, SmallVector<BlockArgument>>> converts;
  function.walk([&](ConvertOp convert) {
    if (convert->getParentOp() != function)
      return; // inside a fused kernel's region
    SmallVector<BlockArgument> params = convertedParams(function, convert);
    if (!params.empty())
      converts.push_back({convert, std::move(params)});
  });
  AdamOp adam = adamOf(function);
  // The parameters whose copies the function reads or Adam writes (all of
  // Adam's), in argument order.
  llvm::SetVector<BlockArgument> copied;
  for (BlockArgument arg : function.getArguments())
    if (llvm::any_of(converts,
                     [&](const auto &c) {
                       return llvm::is_contained(c.second, arg);
                     }) ||
        (adam && llvm::is_contained(adam.getParams(), arg)))
      copied.insert(arg);
  if (copied.empty())
    return;

  OpBuilder b(function.getContext());
  auto copyName = [&](BlockArgument param) {
    return b.getStringAttr(kParamCopyPrefix +
                           paramName(function, param).getValue());
  };
  llvm::DenseMap<Value, Value> copyOf;
  unsigned at = afterState(function, /*results=*/false);
  for (BlockArgument param : copied) {
    (void)function.insertArgument(
        at, typeOf(param).clone(b.getBF16Type()),
        b.getDictionaryAttr(b.getNamedAttr(kInputAttrName, copyName(param))),
        param.getLoc());
    copyOf[param] = function.getArgument(at++);
  }
  for (auto &[convert, params] : converts) {
    Value copy = copyOf.lookup(params.front());
    if (auto concat = convert.getInput().getDefiningOp<ConcatOp>()) {
      // The copies lie one after another as their parameters do: a view.
      SmallVector<Value> pieces;
      for (BlockArgument param : params)
        pieces.push_back(copyOf.lookup(param));
      b.setInsertionPoint(convert);
      copy = ConcatOp::create(b, concat.getLoc(), convert.getType(), pieces,
                              concat.getAxisAttr());
    }
    convert.getResult().replaceAllUsesWith(copy);
    convert.erase();
  }
  eraseDeadOps(function.getBody().front()); // concats only converts read
  if (!adam)
    return;

  // Adam writes the new copies in place of the old ones; the function
  // returns them after the other state, in argument order, as it does the
  // moments.
  SmallVector<Value> copies;
  SmallVector<Type> copyTypes;
  for (Value param : adam.getParams()) {
    copies.push_back(copyOf.lookup(param));
    copyTypes.push_back(copies.back().getType());
  }
  b.setInsertionPoint(adam);
  auto withCopies = AdamOp::create(
      b, adam.getLoc(), adam.getNewParams().getTypes(),
      adam.getNewFirstMoments().getTypes(),
      adam.getNewSecondMoments().getTypes(), copyTypes, adam.getParams(),
      adam.getGrads(), adam.getFirstMoments(), adam.getSecondMoments(),
      adam.getStepSize(), adam.getRsqrtCorrection2(), adam.getGradScale(),
      copies, adam.getBeta1Attr(), adam.getBeta2Attr(), adam.getEpsilonAttr());
  for (auto [old, updated] :
       llvm::zip(adam.getResults(), withCopies.getResults()))
    old.replaceAllUsesWith(updated);
  adam.erase();
  auto ret = cast<func::ReturnOp>(function.getBody().front().getTerminator());
  unsigned result = afterState(function, /*results=*/true);
  for (BlockArgument param : copied) {
    auto index = llvm::find(withCopies.getParams(), param) -
                 withCopies.getParams().begin();
    Value copy = withCopies.getNewParamCopies()[index];
    (void)function.insertResult(
        result, copy.getType(),
        b.getDictionaryAttr(b.getNamedAttr(kOutputAttrName, copyName(param))));
    ret->insertOperands(result++, copy);
  }
}

struct UseParamCopiesPass
    : public tc::impl::TcUseParamCopiesBase<UseParamCopiesPass> {
  void runOnOperation() override {
    SmallVector<func::FuncOp> functions;
    for (func::FuncOp function : getOperation().getOps<func::FuncOp>())
      if (!function.isExternal())
        functions.push_back(function);
    // One decision for the module: copies that some function reads must be
    // kept by every step that updates the parameters.
    if (!llvm::all_of(functions, keepsCopiesExact))
      return;
    bool converted = false;
    for (func::FuncOp function : functions)
      function.walk([&](ConvertOp convert) {
        converted |= convert->getParentOp() == function &&
                     !convertedParams(function, convert).empty();
      });
    if (!converted)
      return; // f32: nothing reads a copy
    for (func::FuncOp function : functions)
      useParamCopies(function);
  }
};

} // namespace
