//===- GemmElementTypes.h - the element types of tc.matmul and tc.linear --===//
//
// The one rule for a GEMM's element types in the tc dialect: both operands
// (a linear's input and weight) have one type; the result has it too, or is
// f32 when the operands are bf16, which a GEMM accumulates in f32
// (mixed precision: tc-apply-precision converts the operands to bf16 and
// keeps the f32 result). A linear's bias has the result's type. The
// verifiers, the reverse rules and the precision pass ask this rule.
//
//===----------------------------------------------------------------------===//

#ifndef TC_DIALECTS_TC_GEMMELEMENTTYPES_H
#define TC_DIALECTS_TC_GEMMELEMENTTYPES_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"

namespace tc {

/// True when a GEMM of `operand` elements may give `result` elements.
bool isGemmResultElementType(mlir::Type operand, mlir::Type result);

/// Checks a GEMM op's operand and result element types (and a bias's, when
/// `bias` is not null) against the rule, naming them when they break it.
mlir::LogicalResult verifyGemmElementTypes(mlir::Operation *op,
                                           mlir::Value lhs, mlir::Value rhs,
                                           mlir::Value result,
                                           mlir::Value bias = {});

} // namespace tc

#endif // TC_DIALECTS_TC_GEMMELEMENTTYPES_H
