//===- Passes.h - the passes over the tc dialect --------------------------===//

#ifndef TC_COMPILER_TRANSFORMS_PASSES_H
#define TC_COMPILER_TRANSFORMS_PASSES_H

#include "dialects/plan/PlanDialect.h"
#include "dialects/tc/TcDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace tc {

#define GEN_PASS_DECL
#include "compiler/transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "compiler/transforms/Passes.h.inc"

/// The module attribute tc-recompute leaves when it fails: why the budget
/// cannot be met, for the driver to say (not a compiler bug).
inline constexpr llvm::StringLiteral kMemoryBudgetUnmetAttrName =
    "tc.memory_budget_unmet";

} // namespace tc

#endif // TC_COMPILER_TRANSFORMS_PASSES_H
