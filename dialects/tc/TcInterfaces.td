//===- TcInterfaces.td - interfaces of the tc dialect ------*- tablegen -*-===//

#ifndef TC_INTERFACES_TD
#define TC_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Tc_ReverseOpInterface : OpInterface<"ReverseOpInterface"> {
  let cppNamespace = "::tc";
  let description = [{
    An op that tc-autodiff can differentiate in reverse mode (in the spirit of
    Enzyme-MLIR's ReverseAutoDiffOpInterface). The rule builds, at the
    builder's insertion point, the vector-Jacobian product of the op: from the
    gradients of its results it computes the gradients of its operands.
    Integer operands (ids, masks, the RNG state) are inactive and get none.
    The rules live in dialects/tc/ReverseRules.cpp.
  }];
  let methods = [
    InterfaceMethod<[{
        Given one gradient per result (a null Value where a result receives
        none), appends one gradient per operand to `operandGrads` (a null
        Value for an inactive operand), each of the operand's type.
      }],
      "void", "buildReverse",
      (ins "::mlir::OpBuilder &":$builder,
           "::mlir::ArrayRef<::mlir::Value>":$resultGrads,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$operandGrads)>
  ];
}

#endif // TC_INTERFACES_TD
