//===- PlanDialect.h - the plan dialect: steps and buffer views -----------===//
//
// Include this one header to use the plan dialect.
//
//===----------------------------------------------------------------------===//

#ifndef TC_DIALECT_PLAN_PLANDIALECT_H
#define TC_DIALECT_PLAN_PLANDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"

#include "dialects/plan/PlanDialect.h.inc"
#include "dialects/plan/PlanEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/plan/PlanAttrs.h.inc"

#define GET_OP_CLASSES
#include "dialects/plan/PlanOps.h.inc"

namespace tc::plan {
/// Attributes of a plan function and of the plan module (see PlanBase.td).
inline constexpr llvm::StringLiteral kArenaBytesAttrName = "plan.arena_bytes";
inline constexpr llvm::StringLiteral kInputsAttrName = "plan.inputs";
inline constexpr llvm::StringLiteral kOutputsAttrName = "plan.outputs";
inline constexpr llvm::StringLiteral kParamsAttrName = "plan.params";
inline constexpr llvm::StringLiteral kParamBytesAttrName = "plan.param_bytes";
/// Present (param_bytes / 2) where a function reads the parameters' bf16
/// copies (the param_copies space).
inline constexpr llvm::StringLiteral kParamCopyBytesAttrName =
    "plan.param_copy_bytes";
/// Unit attribute of the functions that hold one kernel's tc op.
inline constexpr llvm::StringLiteral kKernelAttrName = "plan.kernel";
/// The most bytes one #plan.buf view may reach (its offset included): the
/// limit of the .tcx it is written to (contract::kMaxBytes, which the writer
/// asserts is the same).
inline constexpr int64_t kMaxBufferBytes = int64_t(1) << 50;
} // namespace tc::plan

#endif // TC_DIALECT_PLAN_PLANDIALECT_H
