//===- Bf16Copies.h - the results a row op may store a bf16 copy of -------===//
//
// In mixed precision some f32 results are read both by f32 ops and, through
// a tc.convert, by bf16 GEMMs. tc-fuse-convert gives their ops an optional
// last result, the bf16 copy, which the row kernel stores beside the f32
// value (compiler/codegen/RowKernels.cpp). The one list of those results.
//
//===----------------------------------------------------------------------===//

#ifndef TC_DIALECTS_TC_BF16COPIES_H
#define TC_DIALECTS_TC_BF16COPIES_H

#include "mlir/IR/Operation.h"

#include <optional>

namespace tc {

/// A result whose bf16 copy its op's kernel can store, and that copy (null
/// where the op has none).
struct Bf16Copy {
  mlir::Value of, copy;
};

/// tc.residual_layer_norm's output (the next residual reads it in f32) and
/// tc.residual_layer_norm_grad's sublayer gradient (a bias gradient sums it
/// in f32); nullopt for any other op.
std::optional<Bf16Copy> bf16CopyOf(mlir::Operation *op);

} // namespace tc

#endif // TC_DIALECTS_TC_BF16COPIES_H
