//===- ElementTypes.h - MLIR element types onto the element-type table ----===//
//
// The emitters take each kernel's types from its operands: an MLIR element
// type maps onto its row of support/ElementType.h, and the target backend
// spells the row (TargetBackend::spell). Where a kernel computes in another
// type than its operands' (sums, statistics, the optimizer's update), that
// compute type is named here, once.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_CODEGEN_ELEMENTTYPES_H
#define TC_COMPILER_CODEGEN_ELEMENTTYPES_H

#include "support/ElementType.h"

#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace tc::codegen {

/// The row of `type` in the element-type table, or none for a type that
/// has no row (an index, a signed or unsigned integer).
std::optional<support::ElementType> elementTypeOf(mlir::Type type);

/// The element type of the tensor value `v`.
std::optional<support::ElementType> elementTypeOf(mlir::Value v);

/// What kernels compute a value of `type` in: f32 for bf16 (a load widens
/// it exactly; each bf16 value of the IR is rounded to bf16 where it is
/// computed, TargetBackend::rounded, and stored as bf16,
/// TargetBackend::stored), `type` itself for the others.
constexpr support::ElementType computeTypeOf(support::ElementType type) {
  return type == support::ElementType::BF16 ? support::ElementType::F32 : type;
}

/// Whether kernels compute the elements of tensor `v` in another type than
/// its element type (a bf16 value, in f32).
bool isComputedWider(mlir::Value v);

/// What reductions, row statistics (softmax, LayerNorm, cross-entropy) and
/// the embedding's scale and dropout accumulate in, whatever the element
/// type: the interpreter's precision and order, so that results match it.
inline constexpr support::ElementType kAccumulatorType =
    support::ElementType::F64;

/// What the optimizer's update computes in: f32, as PyTorch's (the update
/// is memory-bound, and f32 halves the vector work of f64's sqrt and
/// division: docs/codegen.md).
inline constexpr support::ElementType kOptimizerType =
    support::ElementType::F32;

} // namespace tc::codegen

#endif // TC_COMPILER_CODEGEN_ELEMENTTYPES_H
