//===- ComputeType.cpp - what the CPU device computes weight GEMMs in -----===//

#include "runtime/cpu/ComputeType.h"

namespace tc::rt {

const char *nameOf(ComputeType type) {
  switch (type) {
  case ComputeType::Bf16:
    return "bf16";
  case ComputeType::Int8:
    return "int8";
  default:
    return "f32";
  }
}

bool parseComputeType(std::string_view name, ComputeType &type,
                      std::string &error) {
  for (ComputeType t : {ComputeType::F32, ComputeType::Bf16, ComputeType::Int8})
    if (name == nameOf(t)) {
      type = t;
      return true;
    }
  error = "--compute-type '" + std::string(name) +
          "' is not a compute type: use f32 (the default), bf16 or int8";
  return false;
}

} // namespace tc::rt
