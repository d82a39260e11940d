//===- TcDialect.h - the tc dialect: ops, attributes, enums ---------------===//
//
// Include this one header to use the tc dialect.
//
//===----------------------------------------------------------------------===//

#ifndef TC_DIALECT_TC_TCDIALECT_H
#define TC_DIALECT_TC_TCDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/tc/TcTraits.h"
#include "support/Precision.h"

#include "dialects/tc/TcDialect.h.inc"
#include "dialects/tc/TcEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/tc/TcAttrs.h.inc"

#include "dialects/tc/TcInterfaces.h.inc"

#define GET_OP_CLASSES
#include "dialects/tc/TcOps.h.inc"

namespace tc {
/// Argument attribute names of a parameter: its stable name and initializer.
inline constexpr llvm::StringLiteral kParamAttrName = "tc.param";
inline constexpr llvm::StringLiteral kInitAttrName = "tc.init";
/// Module attribute: the precision the module is compiled in (a name of
/// support/Precision.h), set by tc-apply-precision; absent means f32.
inline constexpr llvm::StringLiteral kPrecisionAttrName = "tc.precision";
/// The precision `module` is compiled in: its tc.precision, f32 when it has
/// none; nullopt when the attribute is not the name of a precision.
inline std::optional<support::Precision> precisionOf(mlir::Operation *module) {
  auto name = module->getAttrOfType<mlir::StringAttr>(kPrecisionAttrName);
  if (!module->hasAttr(kPrecisionAttrName))
    return support::Precision::F32;
  return name ? support::precisionNamed(name.getValue()) : std::nullopt;
}
/// Argument attribute naming a data input ("source_ids", "rng", ...), so that
/// a runtime binds inputs by name.
inline constexpr llvm::StringLiteral kInputAttrName = "tc.input";
/// Result attribute naming a function's result ("loss", "logits", ...), so
/// that a runtime finds outputs by name.
inline constexpr llvm::StringLiteral kOutputAttrName = "tc.output";
/// The names of a training step's state besides the parameters, for
/// parameter P: its Adam moments (tc.input and tc.output "adam_m.P",
/// "adam_v.P"), its bf16 copy ("bf16.P", tc-use-param-copies), and P
/// updated (tc.output "param.P").
inline constexpr llvm::StringLiteral kFirstMomentPrefix = "adam_m.";
inline constexpr llvm::StringLiteral kSecondMomentPrefix = "adam_v.";
inline constexpr llvm::StringLiteral kParamCopyPrefix = "bf16.";
inline constexpr llvm::StringLiteral kUpdatedParamPrefix = "param.";
} // namespace tc

#endif // TC_DIALECT_TC_TCDIALECT_H
