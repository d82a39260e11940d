//===- Bf16Copies.cpp - the results a row op may store a bf16 copy of -----===//

#include "dialects/tc/Bf16Copies.h"
#include "dialects/tc/TcDialect.h"

namespace tc {

std::optional<Bf16Copy> bf16CopyOf(mlir::Operation *op) {
  if (auto norm = mlir::dyn_cast<ResidualLayerNormOp>(op))
    return Bf16Copy{norm.getResult(), norm.getResultBf16()};
  if (auto grad = mlir::dyn_cast<ResidualLayerNormGradOp>(op))
    return Bf16Copy{grad.getSublayerGrad(), grad.getSublayerGradBf16()};
  return std::nullopt;
}

} // namespace tc
