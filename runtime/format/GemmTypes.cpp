//===- GemmTypes.cpp - a .tcx GEMM's operand and compute types ------------===//

#include "runtime/format/GemmTypes.h"
#include "support/ElementType.h"

#include <algorithm>
#include <cstdio>

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

/// What `gemm` has beside its types that no device runs with them, or "":
/// a bias of another type than out's; for a bf16 out (f32 sums rounded as
/// they are stored: tc-fuse-convert) any bias, or a beta that would add
/// the old bf16 C.
std::string epilogueProblem(const Gemm &gemm, const GemmTypes &types) {
  if (gemm.bias() && gemm.bias()->dtype() != types.out)
    return "a " + nameOf(gemm.bias()->dtype()) + " bias";
  if (types.out != DType::BF16)
    return "";
  if (gemm.bias())
    return "a bias";
  if (gemm.beta() != 0.0f) {
    char beta[32];
    std::snprintf(beta, sizeof beta, "%g", double(gemm.beta()));
    return std::string("beta ") + beta;
  }
  return "";
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

namespace {

/// describe(types), and for a bf16 out what it may not have, for the list
/// of what a device runs.
std::string describeRun(const GemmTypes &types) {
  return describe(types) +
         (types.out == DType::BF16 ? " (no bias, beta 0)" : "");
}

} // namespace

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
      std::string problem = epilogueProblem(*gemm, types);
      if (listed && problem.empty())
        continue;
      std::string supported;
      for (const GemmTypes &run : runs)
        supported += (supported.empty() ? "" : ", ") + describeRun(run);
      error =
          function->name()->str() + " step " + std::to_string(step) + ": a " +
          std::to_string(gemm->m()) + "x" + std::to_string(gemm->n()) + "x" +
          std::to_string(gemm->k()) + " GEMM of " + describe(types) +
          (problem.empty() ? "" : " and " + problem) +
          ", which the " + std::string(device) +
          " device does not run; it runs GEMMs of " + supported +
          " (recompile the model for it, or run it on a device that "
          "runs these types)";
      return false;
    }
  return true;
}

} // namespace tc::tcx
