//===- FuseConvert.cpp - tc-fuse-convert: row ops store their bf16 copy ---===//
//
// A tc.convert to bf16 of a row op's result that nothing else reads becomes
// the row op's own store: the result narrowed to bf16 (rounded once from
// the f32 value, as the convert would), so that the conversion is no kernel
// of its own. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "compiler/transforms/Passes.h"
#include "compiler/transforms/TransformUtils.h"

namespace tc {
#define GEN_PASS_DEF_TCFUSECONVERT
#include "compiler/transforms/Passes.h.inc"
} // namespace tc

using namespace mlir;
using namespace tc;

namespace {

/// Whether `op`'s kernel can store its result #0 in bf16 (the ops whose
/// verifiers accept a narrowed result, RowKernels.cpp's @S0).
bool storesNarrowed(Operation *op) {
  return isa<MaskedSoftmaxOp, MaskedSoftmaxGradOp, ResidualLayerNormOp,
             CrossEntropyGradOp>(op);
}

/// Folds `convert` into its input's producer where it can: the value an f32
/// result #0 of a row op that only the convert reads.
void fold(ConvertOp convert) {
  Value input = convert.getInput();
  auto result = dyn_cast<OpResult>(input);
  if (!result || result.getResultNumber() != 0 ||
      !storesNarrowed(result.getOwner()) || !input.hasOneUse() ||
      !typeOf(input).getElementType().isF32() ||
      !typeOf(convert.getResult()).getElementType().isBF16())
    return;
  input.setType(convert.getResult().getType());
  convert.getResult().replaceAllUsesWith(input);
  convert.erase();
}

struct FuseConvertPass : public tc::impl::TcFuseConvertBase<FuseConvertPass> {
  void runOnOperation() override {
    SmallVector<ConvertOp> converts;
    getOperation().walk([&](ConvertOp convert) { converts.push_back(convert); });
    for (ConvertOp convert : converts)
      fold(convert);
  }
};

} // namespace
