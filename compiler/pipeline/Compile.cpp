//===- Compile.cpp - tc-compile's driver: input -> module -> pipelines ----===//

#include "compiler/pipeline/Compile.h"
#include "compiler/frontend/TransformerBuilder.h"
#include "compiler/pipeline/IRDump.h"
#include "compiler/pipeline/Pipeline.h"
#include "compiler/transforms/Passes.h"
#include "dialects/plan/PlanDialect.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

namespace tc {

OwningOpRef<ModuleOp>
compileModelDescription(MLIRContext &context,
                        const ModelDescription &description,
                        const CompileOptions &options, CompileError &error) {
  OwningOpRef<ModuleOp> module = buildTransformer(context, description);
  PassManager pm(&context);
  addTrainingPipeline(pm, description, options.fusions);
  if (options.stage == CompileStage::Plan)
    addPlanPipeline(pm, allreduceBucketBytes(description.training));
  if (!options.dumpIRDirectory.empty() &&
      !enableIRDump(pm, *module, options.dumpIRDirectory, "frontend",
                    error.message)) {
    error.kind = CompileError::Kind::IRDump;
    return nullptr;
  }
  if (failed(verify(*module)) || failed(pm.run(*module))) {
    error.kind = CompileError::Kind::InvalidGraph;
    if (auto why =
            (*module)->getAttrOfType<StringAttr>(kMemoryBudgetUnmetAttrName)) {
      error.kind = CompileError::Kind::MemoryBudget;
      error.message = why.str();
    }
    return nullptr;
  }
  return module;
}

bool isPlanModule(ModuleOp module) {
  return module->hasAttr(plan::kParamBytesAttrName);
}

LogicalResult compileTcModule(ModuleOp module, CompileStage stage,
                              std::optional<support::Precision> precision) {
  PassManager pm(module.getContext());
  if (precision) {
    TcApplyPrecisionOptions options;
    options.precision = std::string(support::nameOf(*precision));
    pm.addPass(createTcApplyPrecision(options));
  }
  if (stage == CompileStage::Plan && !isPlanModule(module))
    pm.addPass(createTcLowerToPlan()); // every function of the file
  return pm.size() == 0 ? success() : pm.run(module);
}

} // namespace tc
