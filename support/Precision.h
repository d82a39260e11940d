//===- Precision.h - the precisions a model is compiled in, in one table --===//
//
// A model is compiled in one precision (`[training] precision`,
// `tc-compile --precision`): what its GEMMs read and compute in. Everything
// else (parameters, gradients, Adam's moments, the loss, LayerNorm and
// softmax) is f32 in every precision (docs/model-description.md#precision).
// The compiler records the name in the module (`tc.precision`) and in the
// .tcx; this table is the one list of names, meanings and targets.
//
// fp16 is not offered: its range needs loss scaling, which bf16 (f32's
// exponent) does not.
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_PRECISION_H
#define TC_SUPPORT_PRECISION_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tc::support {

enum class Precision : uint8_t { F32, BF16, TF32 };

struct PrecisionInfo {
  Precision precision;
  std::string_view name;    // as the description, the flag and the .tcx say
  std::string_view meaning; // for --help and messages
  bool cudaOnly;            // tensor-core TF32: no CPU instruction has it
};

inline constexpr PrecisionInfo kPrecisions[] = {
    {Precision::F32, "f32", "f32 GEMMs and kernels (the default)", false},
    {Precision::BF16, "bf16",
     "bf16 GEMM operands with f32 accumulation; f32 master weights, "
     "gradients, optimizer state, loss and normalisation",
     false},
    {Precision::TF32, "tf32",
     "f32 values, GEMMs on TF32 tensor cores (CUDA only)", true},
};

constexpr const PrecisionInfo &info(Precision precision) {
  return kPrecisions[static_cast<int>(precision)];
}

constexpr std::string_view nameOf(Precision precision) {
  return info(precision).name;
}

/// The precision named `name` ("bf16"), or none.
constexpr std::optional<Precision> precisionNamed(std::string_view name) {
  for (const PrecisionInfo &row : kPrecisions)
    if (row.name == name)
      return row.precision;
  return std::nullopt;
}

/// "f32, bf16 or tf32", for messages that list the choices.
inline std::string precisionChoices() {
  std::string text;
  constexpr int count = sizeof(kPrecisions) / sizeof(kPrecisions[0]);
  for (int i = 0; i < count; ++i)
    text += std::string(i == 0 ? "" : i + 1 == count ? " or " : ", ") +
            std::string(kPrecisions[i].name);
  return text;
}

// The rows are in the enum's order: info() indexes by value.
static_assert([] {
  int i = 0;
  for (const PrecisionInfo &row : kPrecisions)
    if (static_cast<int>(row.precision) != i++)
      return false;
  return true;
}());

} // namespace tc::support

#endif // TC_SUPPORT_PRECISION_H
