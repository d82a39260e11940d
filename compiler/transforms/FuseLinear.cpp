//===- FuseLinear.cpp - tc-fuse-linear: matmul + bias (+ relu) -> tc.linear ===//

#include "compiler/transforms/Passes.h"
#include "compiler/transforms/TransformUtils.h"

#include "mlir/IR/Builders.h"

namespace tc {
#define GEN_PASS_DEF_TCFUSELINEAR
#include "compiler/transforms/Passes.h.inc"
} // namespace tc

using namespace mlir;
using namespace tc;

namespace {

/// The bias add of `x W^T + b`, if `add` is one.
std::optional<std::pair<MatmulOp, Value>> matchBiasAdd(AddOp add) {
  for (auto [product, bias] : {std::pair(add.getLhs(), add.getRhs()),
                               std::pair(add.getRhs(), add.getLhs())}) {
    auto matmul = product.getDefiningOp<MatmulOp>();
    if (!matmul || !product.hasOneUse() || matmul.getTransposeLhs() ||
        !matmul.getTransposeRhs() || typeOf(matmul.getRhs()).getRank() != 2)
      continue;
    int64_t out = typeOf(matmul.getRhs()).getDimSize(0);
    if (typeOf(bias).getShape() == ArrayRef<int64_t>{out} &&
        add.getType() == matmul.getType())
      return std::pair(matmul, bias);
  }
  return std::nullopt;
}

struct FuseLinearPass : public tc::impl::TcFuseLinearBase<FuseLinearPass> {
  void runOnOperation() override {
    SmallVector<AddOp> adds;
    getOperation().walk([&](AddOp add) { adds.push_back(add); });
    for (AddOp add : adds) {
      std::optional<std::pair<MatmulOp, Value>> match = matchBiasAdd(add);
      if (!match)
        continue;
      // relu(add) when the add feeds only a relu.
      Operation *last = add;
      bool relu = false;
      if (add->hasOneUse())
        if (auto r = dyn_cast<ReluOp>(*add->getUsers().begin())) {
          last = r;
          relu = true;
        }
      OpBuilder b(last);
      auto [matmul, bias] = *match;
      auto linear =
          LinearOp::create(b, last->getLoc(), add.getType(), matmul.getLhs(),
                           matmul.getRhs(), bias, relu);
      last->getResult(0).replaceAllUsesWith(linear.getResult());
      if (relu)
        last->erase();
      add->erase();
      matmul->erase();
    }
  }
};

} // namespace
