//===- TransformUtils.h - small helpers shared by the tc passes -----------===//

#ifndef TC_COMPILER_TRANSFORMS_TRANSFORMUTILS_H
#define TC_COMPILER_TRANSFORMS_TRANSFORMUTILS_H

#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace tc {

inline mlir::RankedTensorType typeOf(mlir::Value v) {
  return mlir::cast<mlir::RankedTensorType>(v.getType());
}

/// The value of a floating-point splat constant (tc.constant), if `v` is one.
std::optional<double> splatValue(mlir::Value v);

/// Removes every op of `block` whose results nothing uses (last to first, so
/// chains of dead ops go too).
void eraseDeadOps(mlir::Block &block);

} // namespace tc

#endif // TC_COMPILER_TRANSFORMS_TRANSFORMUTILS_H
