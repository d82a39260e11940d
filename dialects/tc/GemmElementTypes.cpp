//===- GemmElementTypes.cpp - the element types of tc.matmul and tc.linear ===//

#include "dialects/tc/GemmElementTypes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;

namespace tc {

bool isGemmResultElementType(Type operand, Type result) {
  if (operand == result)
    return true;
  return operand.isBF16() && result.isF32();
}

static Type elementTypeOf(Value v) {
  return cast<ShapedType>(v.getType()).getElementType();
}

LogicalResult verifyGemmElementTypes(Operation *op, Value lhs, Value rhs,
                                     Value result, Value bias) {
  Type operand = elementTypeOf(lhs), out = elementTypeOf(result);
  if (elementTypeOf(rhs) != operand)
    return op->emitOpError()
           << "operands must have one element type, got " << operand
           << " and " << elementTypeOf(rhs);
  if (!isGemmResultElementType(operand, out))
    return op->emitOpError()
           << "a GEMM of " << operand << " operands gives " << operand
           << (operand.isBF16() ? " or f32" : "")
           << " results, not " << out;
  if (bias && elementTypeOf(bias) != out)
    return op->emitOpError() << "bias must have the result's element type "
                             << out << ", got " << elementTypeOf(bias);
  return success();
}

} // namespace tc
