//===- GemmTypes.cpp - a .tcx GEMM's operand and compute types ------------===//

#include "runtime/format/GemmTypes.h"
#include "support/ElementType.h"

#include <algorithm>

namespace tc::tcx {
namespace {

/// "f32", or the raw value of a type no row of the table has.
std::string nameOf(DType dtype) {
  if (auto type = support::elementTypeOfValue(int(dtype)))
    return std::string(support::info(*type).name);
  return "type " + std::to_string(int(dtype));
}

std::string nameOf(GemmCompute compute) {
  switch (compute) {
  case GemmCompute::F32:
    return "f32";
  case GemmCompute::TF32:
    return "tf32";
  }
  return "compute type " + std::to_string(int(compute)); // a newer file
}

} // namespace

GemmTypes gemmTypesOf(const Gemm &gemm) {
  return {gemm.lhs()->dtype(), gemm.rhs()->dtype(), gemm.out()->dtype(),
          gemm.compute()};
}

std::string describe(const GemmTypes &types) {
  return nameOf(types.lhs) + " x " + nameOf(types.rhs) + " -> " +
         nameOf(types.out) + " with " + nameOf(types.compute) + " compute";
}

std::string describe(const Gemm &gemm) {
  auto number = [](int64_t n) { return std::to_string(n); };
  std::string batch;
  for (size_t i = 0; gemm.batch() && i < gemm.batch()->size(); ++i)
    batch += (i ? "," : "") + number(gemm.batch()->Get(i));
  return "gemm m=" + number(gemm.m()) + " n=" + number(gemm.n()) +
         " k=" + number(gemm.k()) + " " + (gemm.transpose_lhs() ? "T" : "N") +
         (gemm.transpose_rhs() ? "T" : "N") + " lda=" + number(gemm.lda()) +
         " ldb=" + number(gemm.ldb()) + " ldc=" + number(gemm.ldc()) +
         " batch=[" + batch + "]" + (gemm.bias() ? " +bias" : "") +
         (gemm.relu() ? " relu" : "") + ", " + describe(gemmTypesOf(gemm));
}

bool checkGemmTypes(const Executable &executable, std::string_view device,
                    std::span<const GemmTypes> runs, std::string &error) {
  if (!executable.functions())
    return true;
  for (const Function *function : *executable.functions())
    for (size_t step = 0; step < function->steps()->size(); ++step) {
      const Gemm *gemm = function->steps()->Get(step)->step_as_Gemm();
      if (!gemm)
        continue;
      GemmTypes types = gemmTypesOf(*gemm);
      bool listed = std::find(runs.begin(), runs.end(), types) != runs.end();
      bool biasOk = !gemm->bias() || gemm->bias()->dtype() == types.out;
      if (listed && biasOk)
        continue;
      std::string supported;
      for (const GemmTypes &run : runs)
        supported += (supported.empty() ? "" : ", ") + describe(run);
      error =
          function->name()->str() + " step " + std::to_string(step) + ": a " +
          std::to_string(gemm->m()) + "x" + std::to_string(gemm->n()) + "x" +
          std::to_string(gemm->k()) + " GEMM of " + describe(types) +
          (biasOk ? "" : " and a " + nameOf(gemm->bias()->dtype()) + " bias") +
          ", which the " + std::string(device) +
          " device does not run; it runs GEMMs of " + supported +
          " (recompile the model for it, or run it on a device that "
          "runs these types)";
      return false;
    }
  return true;
}

} // namespace tc::tcx
