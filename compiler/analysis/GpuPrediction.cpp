//===- GpuPrediction.cpp - tc-compile --stats --gpu=NAME -------------------===//

#include "compiler/analysis/GpuPrediction.h"
#include "dialects/tc/TcDialect.h"
#include "runtime/format/Contract.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <vector>

using namespace mlir;

namespace tc {

/// The target tokens one call of a training step consumes, padding included:
/// the elements of its target_out input (batch x length, times the
/// accumulated batches).
static int64_t targetTokens(func::FuncOp step) {
  for (unsigned i = 0; i < step.getNumArguments(); ++i) {
    auto input = step.getArgAttrOfType<StringAttr>(i, kInputAttrName);
    if (input && input.getValue() == llvm::StringRef(contract::binding::kTargetOut))
      return cast<RankedTensorType>(step.getArgumentTypes()[i])
          .getNumElements();
  }
  return 0;
}

/// The ops other than GEMMs with the most predicted time, largest first:
/// "tc.adam 2.1, tc.fused 1.3".
static std::string largestOthers(const StepPrediction &step, size_t count) {
  std::vector<std::pair<double, std::string>> others;
  for (const auto &[op, seconds] : step.secondsByOp)
    if (op != "gemm")
      others.emplace_back(seconds, op);
  std::sort(others.rbegin(), others.rend());
  std::string text;
  for (size_t i = 0; i < std::min(count, others.size()); ++i)
    text += llvm::formatv("{0}{1} {2:f1}", i ? ", " : "", others[i].second,
                          others[i].first * 1e3)
                .str();
  return text;
}

/// The precision `module` was compiled in (f32 where it says none).
static support::Precision compiledPrecision(ModuleOp module) {
  return precisionOf(module).value_or(support::Precision::F32);
}

/// The rows to predict: the compiled precision; for an f32 module also what
/// its GEMMs would take in TF32 and bf16.
static std::vector<support::Precision> predictedPrecisions(ModuleOp module) {
  support::Precision compiled = compiledPrecision(module);
  if (compiled != support::Precision::F32)
    return {compiled};
  return {support::Precision::F32, support::Precision::TF32,
          support::Precision::BF16};
}

llvm::json::Object predictTrainingSteps(ModuleOp module, const GpuSpec &gpu,
                                        llvm::raw_ostream &summary) {
  summary << llvm::formatv(
      "tc-compile: predicted on {0} ({1}: f32 {2:f1}, TF32 {3:f1}, bf16 "
      "{4:f1} TFLOP/s, {5:f0} GB/s; GEMMs at {6:f0}% of peak, a launch at "
      "least {7:f0} us; a step replayed as a CUDA graph, and eager: the host "
      "issuing a kernel in {8:f0} us, a GEMM in {9:f0} us)\n",
      gpu.name, gpu.product, gpu.f32Flops * 1e-12, gpu.tf32Flops * 1e-12,
      gpu.bf16Flops * 1e-12, gpu.bandwidth * 1e-9, kGemmEfficiency * 100,
      kMinimumLaunchSeconds * 1e6, kHostKernelSeconds * 1e6,
      kHostGemmSeconds * 1e6);
  summary << llvm::formatv(
      "  {0,-26} {1,-5} {2,9} {3,9} {4,12} {5,6} {6,9}  {7}\n", "step",
      "GEMMs", "ms/step", "eager ms", "tokens/s", "MFU", "GEMM ms",
      "largest others (ms)");
  llvm::json::Object steps;
  std::string prefix(
      contract::functionNamePrefix(contract::FunctionRole::TrainStep));
  for (func::FuncOp function : module.getOps<func::FuncOp>()) {
    if (!function.getSymName().starts_with(prefix))
      continue;
    int64_t tokens = targetTokens(function);
    llvm::json::Object byPrecision{{"target_tokens", tokens}};
    for (support::Precision precision : predictedPrecisions(module)) {
      double peak = peakFlops(gpu, precision);
      if (peak == 0) // no tensor cores
        continue;
      StepPrediction step = predictStep(function, gpu, precision);
      double tokensPerSecond = tokens / step.seconds;
      double mfu = step.gemmFlops / step.seconds / peak;
      llvm::json::Object milliseconds;
      for (const auto &[op, seconds] : step.secondsByOp)
        milliseconds[op] = seconds * 1e3;
      std::string name(support::nameOf(precision));
      byPrecision[name] = llvm::json::Object{
          {"step_ms", step.seconds * 1e3},
          {"eager_step_ms", step.eagerSeconds * 1e3},
          {"gemm_ms", step.gemmSeconds * 1e3},
          {"gemm_tflop", step.gemmFlops * 1e-12},
          {"target_tokens_per_second", tokensPerSecond},
          {"mfu", mfu},
          {"launches", step.launches},
          {"memory_bound_launches", step.memoryBound},
          {"launch_bound_launches", step.launchBound},
          {"ms_by_op", std::move(milliseconds)}};
      summary << llvm::formatv(
          "  {0,-26} {1,-5} {2,9:f2} {3,9:f2} {4,12:f0} {5,5:f1}% {6,9:f2}  "
          "{7}\n",
          function.getSymName(), name, step.seconds * 1e3,
          step.eagerSeconds * 1e3, tokensPerSecond, mfu * 100,
          step.gemmSeconds * 1e3, largestOthers(step, 3));
    }
    steps[function.getSymName()] = std::move(byPrecision);
  }
  support::Precision compiled = compiledPrecision(module);
  if (peakFlops(gpu, compiled) == 0)
    summary << llvm::formatv(
        "  no step predicted: the module computes its GEMMs in {0}, which "
        "the {1} has no tensor cores for (sm_80 and newer have them)\n",
        support::nameOf(compiled), gpu.product);
  return llvm::json::Object{
      {"gpu", gpu.name},
      {"product", gpu.product},
      {"f32_tflops", gpu.f32Flops * 1e-12},
      {"tf32_tflops", gpu.tf32Flops * 1e-12},
      {"bf16_tflops", gpu.bf16Flops * 1e-12},
      {"bandwidth_gb_per_s", gpu.bandwidth * 1e-9},
      {"gemm_efficiency", kGemmEfficiency},
      {"minimum_launch_us", kMinimumLaunchSeconds * 1e6},
      {"host_kernel_launch_us", kHostKernelSeconds * 1e6},
      {"host_gemm_call_us", kHostGemmSeconds * 1e6},
      {"compiled_precision",
       std::string(support::nameOf(compiledPrecision(module)))},
      {"steps", std::move(steps)}};
}

} // namespace tc
