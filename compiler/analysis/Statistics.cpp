//===- Statistics.cpp - tc-compile --stats and --emit=params --------------===//

#include "compiler/analysis/Statistics.h"
#include "compiler/analysis/BufferAssignment.h"
#include "compiler/analysis/GpuPrediction.h"
#include "compiler/analysis/KernelCount.h"
#include "compiler/analysis/MemoryPlan.h"
#include "dialects/tc/TcDialect.h"
#include "runtime/format/Contract.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <map>
#include <optional>

using namespace mlir;

namespace tc {

llvm::json::Array parameterTable(ModuleOp module) {
  llvm::json::Array table;
  auto functions = module.getOps<func::FuncOp>();
  if (functions.empty())
    return table;
  func::FuncOp function = *functions.begin();
  for (unsigned i = 0; i < function.getNumArguments(); ++i) {
    auto name = function.getArgAttrOfType<StringAttr>(i, kParamAttrName);
    if (!name)
      continue;
    auto type = cast<RankedTensorType>(function.getArgumentTypes()[i]);
    std::string init;
    llvm::raw_string_ostream os(init);
    if (Attribute attr = function.getArgAttr(i, kInitAttrName))
      attr.print(os);
    table.push_back(
        llvm::json::Object{{"name", name.getValue()},
                           {"shape", llvm::json::Array(type.getShape())},
                           {"elements", type.getNumElements()},
                           {"init", init}});
  }
  return table;
}

static llvm::json::Object kernelsJson(const KernelCount &count) {
  return llvm::json::Object{{"generated", count.generated},
                            {"gemm", count.gemm}};
}

/// {"ops": {op name -> count}, "kernels": ..., "non_gemm_bytes": ...,
/// "non_gemm_bytes_by_op": ...} of `function`, whose kernels are `kernels`.
static llvm::json::Object functionStatistics(func::FuncOp function,
                                             const KernelCount &kernels) {
  std::map<std::string, int64_t> counts;
  function.walk([&](Operation *op) {
    if (op != function.getOperation())
      ++counts[op->getName().getStringRef().str()];
  });
  llvm::json::Object ops;
  for (auto &[name, count] : counts)
    ops[name] = count;
  llvm::json::Object bytesByOp;
  for (auto &[name, bytes] : kernels.bytesByOp)
    bytesByOp[name] = bytes;
  return llvm::json::Object{{"ops", std::move(ops)},
                            {"kernels", kernelsJson(kernels)},
                            {"non_gemm_bytes", kernels.nonGemmBytes},
                            {"non_gemm_bytes_by_op", std::move(bytesByOp)}};
}

llvm::json::Object moduleStatistics(ModuleOp module, const GpuSpec *gpu,
                                    llvm::raw_ostream &summary) {
  llvm::json::Array params = parameterTable(module);
  int64_t scalars = 0;
  for (const llvm::json::Value &p : params)
    scalars += *p.getAsObject()->getInteger("elements");
  llvm::json::Object functions;
  std::optional<KernelCount> firstStep; // of the first bucket
  std::optional<MemoryPlan> firstPlan;
  DictionaryAttr recompute; // the first step's, from tc-recompute
  for (func::FuncOp function : module.getOps<func::FuncOp>()) {
    KernelCount kernels = countKernels(function);
    functions[function.getSymName()] = functionStatistics(function, kernels);
    if (!firstStep &&
        function.getSymName().starts_with(
            contract::functionNamePrefix(contract::FunctionRole::TrainStep))) {
      firstStep = kernels;
      firstPlan = planMemory(function, BufferAssignment(function));
      recompute = function->getAttrOfType<DictionaryAttr>("tc.recompute");
    }
  }
  llvm::json::Object stats{{"params", scalars},
                           {"param_tensors", int64_t(params.size())},
                           {"functions", std::move(functions)}};
  if (std::optional<support::Precision> precision = precisionOf(module))
    stats["precision"] = std::string(support::nameOf(*precision));
  if (firstStep) { // one training step of the first bucket
    stats["kernels"] = kernelsJson(*firstStep);
    stats["non_gemm_bytes"] = firstStep->nonGemmBytes;
    stats["peak_activation_bytes"] = firstPlan->peakBytes;
    stats["arena_bytes"] = firstPlan->arenaBytes;
    stats["no_reuse_bytes"] = firstPlan->noReuseBytes;
    if (recompute) { // under a memory budget
      llvm::json::Object made;
      for (NamedAttribute entry : recompute)
        if (auto value = dyn_cast<IntegerAttr>(entry.getValue()))
          made[entry.getName().getValue()] = value.getInt();
      stats["recompute"] = std::move(made);
    }
  }
  if (gpu)
    stats["gpu_prediction"] = predictTrainingSteps(module, *gpu, summary);
  return stats;
}

} // namespace tc
