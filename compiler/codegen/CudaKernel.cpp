//===- CudaKernel.cpp - CUDA C++ for the GPU: kernels and their headers ----===//

#include "compiler/codegen/CudaKernel.h"
#include "dialects/plan/PlanDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;

namespace tc::codegen {

const std::vector<std::pair<std::string, std::string>> &cudaHeaders() {
  // Written by CMake from preludes/nvrtc/ (EmbeddedSource.inc.in).
  static const std::vector<std::pair<std::string, std::string>> headers = {
      {"cmath",
#include "compiler/codegen/preludes/nvrtc/cmath.inc"
      },
      {"cstdint",
#include "compiler/codegen/preludes/nvrtc/cstdint.inc"
      },
      {"limits",
#include "compiler/codegen/preludes/nvrtc/limits.inc"
      },
      {"array",
#include "compiler/codegen/preludes/nvrtc/array.inc"
      },
      {"vector",
#include "compiler/codegen/preludes/nvrtc/vector.inc"
      },
  };
  return headers;
}

std::vector<NamedKernelSource>
emitCudaKernels(ModuleOp planModule,
                std::vector<std::pair<std::string, std::string>> &missing) {
  std::vector<NamedKernelSource> kernels;
  for (func::FuncOp kernel : planModule.getOps<func::FuncOp>()) {
    if (!kernel->hasAttr(plan::kKernelAttrName))
      continue;
    std::string why;
    FailureOr<std::string> text =
        emitKernel(&kernel.getBody().front().front(), kernel.getSymName(),
                   Target::Cuda, why);
    if (failed(text))
      missing.push_back({kernel.getSymName().str(), why});
    else
      kernels.push_back({kernel.getSymName().str(), std::move(*text)});
  }
  return kernels;
}

} // namespace tc::codegen
