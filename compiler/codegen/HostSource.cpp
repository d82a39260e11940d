//===- HostSource.cpp - the host C++ of every kernel of a plan module ------===//

#include "compiler/codegen/HostSource.h"
#include "compiler/codegen/Preludes.h"
#include "dialects/plan/PlanDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;

namespace tc::codegen {

FailureOr<std::vector<NamedKernelSource>> emitHostKernels(ModuleOp planModule,
                                                          std::string &error) {
  std::vector<NamedKernelSource> kernels;
  for (func::FuncOp kernel : planModule.getOps<func::FuncOp>()) {
    if (!kernel->hasAttr(plan::kKernelAttrName))
      continue;
    Operation &op = kernel.getBody().front().front();
    std::string why;
    FailureOr<std::string> text =
        emitKernel(&op, kernel.getSymName(), Target::Host, why);
    if (failed(text)) {
      error = "kernel '" + kernel.getSymName().str() + "' (" +
              op.getName().getStringRef().str() + "): " + why;
      return failure();
    }
    kernels.push_back({kernel.getSymName().str(), std::move(*text)});
  }
  return kernels;
}

FailureOr<std::string> emitHostSource(ModuleOp planModule, std::string &error) {
  FailureOr<std::vector<NamedKernelSource>> kernels =
      emitHostKernels(planModule, error);
  if (failed(kernels))
    return failure();
  std::string source = kernelPrelude(Target::Host);
  for (const NamedKernelSource &kernel : *kernels)
    source += "\n" + kernel.source;
  return source;
}

} // namespace tc::codegen
