//===- CudaKernel.cpp - CUDA C++ for the GPU: kernels and their headers ----===//

#include "compiler/codegen/CudaKernel.h"
#include "dialects/plan/PlanDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;

namespace tc::codegen {

const std::vector<std::pair<std::string, std::string>> &cudaHeaders() {
  static const std::vector<std::pair<std::string, std::string>> headers = {
      {"cmath", R"cuda(#pragma once
// CUDA's math functions (built into NVRTC) under their std:: names.
namespace std {
using ::exp; using ::log; using ::sqrt; using ::tanh;
using ::isnan; using ::isinf; using ::fabs; using ::pow; using ::sin; using ::cos;
template <class T> constexpr T max(T a, T b) { return a < b ? b : a; }
template <class T> constexpr T min(T a, T b) { return b < a ? b : a; }
}
#define INFINITY __int_as_float(0x7f800000)
)cuda"},
      {"cstdint", R"cuda(#pragma once
typedef signed char int8_t; typedef unsigned char uint8_t;
typedef int int32_t; typedef unsigned int uint32_t;
typedef long long int64_t; typedef unsigned long long uint64_t;
)cuda"},
      {"limits", R"cuda(#pragma once
#include <cstdint>
namespace std {
template <class T> struct numeric_limits;
template <> struct numeric_limits<float> {
  static constexpr float infinity() { return __int_as_float(0x7f800000); }
  static constexpr float quiet_NaN() { return __int_as_float(0x7fffffff); }
  static constexpr float lowest() { return -3.40282347e+38f; }
  static constexpr float max() { return 3.40282347e+38f; }
};
template <> struct numeric_limits<double> {
  static constexpr double infinity() { return __longlong_as_double(0x7ff0000000000000ll); }
  static constexpr double quiet_NaN() { return __longlong_as_double(0x7fffffffffffffffll); }
  static constexpr double lowest() { return -1.7976931348623157e+308; }
  static constexpr double max() { return 1.7976931348623157e+308; }
};
template <> struct numeric_limits<int32_t> {
  static constexpr int32_t min() { return -2147483647 - 1; }
  static constexpr int32_t max() { return 2147483647; }
};
template <> struct numeric_limits<int64_t> {
  static constexpr int64_t min() { return -9223372036854775807ll - 1; }
  static constexpr int64_t max() { return 9223372036854775807ll; }
};
}
)cuda"},
      {"array", R"cuda(#pragma once
namespace std {
template <class T, unsigned long N> struct array {
  T e[N];
  constexpr T &operator[](unsigned long i) { return e[i]; }
  constexpr const T &operator[](unsigned long i) const { return e[i]; }
};
}
)cuda"},
      {"vector", "#pragma once\n// No std::vector in device code.\n"},
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
