//===- ApplyPrecision.cpp - tc-apply-precision: GEMMs in a precision ------===//
//
// Records the module's precision and, for bf16, gives every f32 GEMM bf16
// operands (one tc.convert per value) while its result stays f32. See
// Passes.td and docs/model-description.md for what each precision means.
//
//===----------------------------------------------------------------------===//

#include "compiler/transforms/Passes.h"
#include "compiler/transforms/TransformUtils.h"
#include "dialects/tc/GemmElementTypes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace tc {
#define GEN_PASS_DEF_TCAPPLYPRECISION
#include "compiler/transforms/Passes.h.inc"
} // namespace tc

using namespace mlir;
using namespace tc;

namespace {

/// The GEMM operands of `op` (matmul: lhs and rhs; linear: input and weight,
/// not the bias), or none when `op` is not a GEMM whose result bf16 operands
/// may give (f32: dialects/tc/GemmElementTypes.h).
SmallVector<OpOperand *, 2> f32GemmOperands(Operation *op) {
  SmallVector<OpOperand *, 2> operands;
  if (auto matmul = dyn_cast<MatmulOp>(op))
    operands = {&matmul.getLhsMutable(), &matmul.getRhsMutable()};
  else if (auto linear = dyn_cast<LinearOp>(op))
    operands = {&linear.getInputMutable(), &linear.getWeightMutable()};
  if (operands.empty() ||
      !isGemmResultElementType(BFloat16Type::get(op->getContext()),
                               typeOf(op->getResult(0)).getElementType()))
    return {};
  return operands;
}

/// Converts f32 values to bf16, once per value, right after its definition:
/// every GEMM reading the value (a tied embedding, the encoder's output in
/// each cross-attention) shares one conversion.
class Bf16Copies {
public:
  explicit Bf16Copies(MLIRContext *context) : b(context) {}

  Value of(Value value) {
    auto [it, added] = copies.try_emplace(value);
    if (!added)
      return it->second;
    // An argument's copy goes at the start of its block, after the argument
    // copies made before it, so that they read in the order they were made.
    Operation *after = value.getDefiningOp();
    Block *block = nullptr;
    if (auto argument = dyn_cast<BlockArgument>(value)) {
      block = argument.getOwner();
      after = lastArgumentCopy.lookup(block);
    }
    if (after)
      b.setInsertionPointAfter(after);
    else
      b.setInsertionPointToStart(block);
    RankedTensorType type = typeOf(value);
    auto copy = ConvertOp::create(
        b, value.getLoc(),
        RankedTensorType::get(type.getShape(), b.getBF16Type()), value);
    if (block)
      lastArgumentCopy[block] = copy;
    return it->second = copy;
  }

private:
  OpBuilder b;
  llvm::DenseMap<Value, Value> copies;
  llvm::DenseMap<Block *, Operation *> lastArgumentCopy;
};

struct ApplyPrecisionPass
    : public tc::impl::TcApplyPrecisionBase<ApplyPrecisionPass> {
  using TcApplyPrecisionBase::TcApplyPrecisionBase;

  LogicalResult initialize(MLIRContext *context) override {
    std::optional<support::Precision> named =
        support::precisionNamed(precision.getValue());
    if (!named)
      return emitError(UnknownLoc::get(context))
             << "tc-apply-precision: unknown precision '"
             << precision.getValue() << "' in precision=; expected "
             << support::precisionChoices();
    chosen = *named;
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<support::Precision> recorded = precisionOf(module);
    if (module->hasAttr(kPrecisionAttrName) && recorded != chosen) {
      module.emitError() << "tc-apply-precision: the module is already in "
                         << module->getAttr(kPrecisionAttrName) << ", not "
                         << support::nameOf(chosen)
                         << "; apply the precision to the f32 graph";
      return signalPassFailure();
    }
    module->setAttr(
        kPrecisionAttrName,
        StringAttr::get(module.getContext(), support::nameOf(chosen)));
    if (chosen != support::Precision::BF16)
      return;
    SmallVector<OpOperand *> operands; // collected first: the walk inserts
    module.walk([&](Operation *op) {
      for (OpOperand *operand : f32GemmOperands(op))
        if (typeOf(operand->get()).getElementType().isF32())
          operands.push_back(operand);
    });
    Bf16Copies bf16(module.getContext());
    for (OpOperand *operand : operands)
      operand->set(bf16.of(operand->get()));
  }

  support::Precision chosen = support::Precision::F32;
};

} // namespace
