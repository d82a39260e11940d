//===- ComputeType.h - what the CPU device computes weight GEMMs in -------===//
//
// tc-run translate --compute-type, named as CTranslate2 names them: the
// type of the GEMMs whose weight operand is a parameter (activations times
// a weight: the linears and the output projection; never attention's
// products of two activations), in an f32 executable on the CPU.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_COMPUTETYPE_H
#define TC_RUNTIME_CPU_COMPUTETYPE_H

#include <string>
#include <string_view>

namespace tc::rt {

enum class ComputeType {
  F32,  ///< f32 weights and activations (the default)
  Bf16, ///< bf16 weights and activations, f32 sums and results
  Int8, ///< s8 weights (a scale per output), activations quantized per row
};

/// "f32", "bf16" or "int8".
const char *nameOf(ComputeType type);

/// The compute type `name` names, or false with `error` listing them.
bool parseComputeType(std::string_view name, ComputeType &type,
                      std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_COMPUTETYPE_H
