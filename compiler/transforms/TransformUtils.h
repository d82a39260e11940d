//===- TransformUtils.h - small helpers shared by the tc passes -----------===//

#ifndef TC_COMPILER_TRANSFORMS_TRANSFORMUTILS_H
#define TC_COMPILER_TRANSFORMS_TRANSFORMUTILS_H

#include "dialects/tc/TcDialect.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace tc {

inline mlir::RankedTensorType typeOf(mlir::Value v) {
  return mlir::cast<mlir::RankedTensorType>(v.getType());
}

/// The value of a floating-point splat constant (tc.constant), if `v` is one.
std::optional<double> splatValue(mlir::Value v);

/// What a fused op takes from the tc.dropout it absorbs: its RNG state, rate
/// and key; without a dropout, a placeholder RNG state with rate 0 (which
/// never reads it).
struct DropoutParams {
  mlir::Value rng;
  mlir::FloatAttr rate;
  mlir::IntegerAttr key;
};
DropoutParams dropoutParams(mlir::OpBuilder &b, mlir::Location loc,
                            DropoutOp dropout);

/// Whether `op` is a tc.convert rounding f32 values to bf16.
bool narrowsToBf16(mlir::Operation *op);

/// Whether `v` is a splat tc.constant (a fused kernel clones it in rather
/// than reading it).
bool isSplatConstant(mlir::Value v);

/// Replaces `ops` (of one block, in block order, each operand defined before
/// the first or by an op of `ops`) with one tc.fused placed where the first
/// was: its operands the values read from outside, its results the values
/// read outside, splat constants cloned into its region. One generated
/// kernel (tc-fuse-elementwise's groups, tc-fuse-convert's column sums).
FusedOp outlineFused(llvm::ArrayRef<mlir::Operation *> ops);

/// Removes every op of `block` whose results nothing uses (last to first, so
/// chains of dead ops go too).
void eraseDeadOps(mlir::Block &block);

} // namespace tc

#endif // TC_COMPILER_TRANSFORMS_TRANSFORMUTILS_H
