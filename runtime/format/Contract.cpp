//===- Contract.cpp - function names of the shape buckets -----------------===//

#include "runtime/format/Contract.h"

#include <charconv>

namespace tc::contract {
namespace {

struct RoleName {
  FunctionRole role;
  std::string_view prefix;
  bool hasTargetLength;
};

constexpr RoleName kRoleNames[] = {
    {FunctionRole::Forward, "forward_", true},
    {FunctionRole::TrainStep, "train_step_", true},
    {FunctionRole::Encode, "encode_", false},
    {FunctionRole::Decode, "decode_", true},
    {FunctionRole::DecodeStart, "decode_start_", false},
    {FunctionRole::DecodeStep, "decode_step_", true},
};

const RoleName &nameOf(FunctionRole role) {
  for (const RoleName &name : kRoleNames)
    if (name.role == role)
      return name;
  return kRoleNames[0];
}

/// Reads a positive decimal number and the 'x' after it (when `last` is
/// false) from the front of `text`.
bool consumeExtent(std::string_view &text, int64_t &value, bool last) {
  const char *end = text.data() + text.size();
  auto [next, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || next == text.data() || value <= 0)
    return false;
  text.remove_prefix(next - text.data());
  if (last)
    return text.empty();
  if (text.empty() || text.front() != 'x')
    return false;
  text.remove_prefix(1);
  return true;
}

} // namespace

std::string_view functionNamePrefix(FunctionRole role) {
  return nameOf(role).prefix;
}

std::string functionName(FunctionRole role, const BucketShape &shape) {
  const RoleName &name = nameOf(role);
  std::string result = std::string(name.prefix) + std::to_string(shape.batch) +
                       "x" + std::to_string(shape.sourceLength);
  if (name.hasTargetLength)
    result += "x" + std::to_string(shape.targetLength);
  return result;
}

std::optional<NamedFunction> parseFunctionName(std::string_view text) {
  for (const RoleName &name : kRoleNames) {
    if (!text.starts_with(name.prefix))
      continue;
    std::string_view rest = text;
    rest.remove_prefix(name.prefix.size());
    NamedFunction parsed{name.role, {}};
    if (consumeExtent(rest, parsed.shape.batch, false) &&
        consumeExtent(rest, parsed.shape.sourceLength, !name.hasTargetLength) &&
        (!name.hasTargetLength ||
         consumeExtent(rest, parsed.shape.targetLength, true)) &&
        functionName(name.role, parsed.shape) == text) // no "02x6x5"
      return parsed;
  }
  return std::nullopt;
}

std::string binding::cacheName(Cache cache, int64_t layer) {
  const char *names[] = {"cross_k.", "cross_v.", "self_k.", "self_v."};
  return names[int(cache)] + std::to_string(layer);
}

std::string cudaArchitectureName(unsigned arch, bool ptx) {
  return (ptx ? "compute_" : "sm_") + std::to_string(arch);
}

} // namespace tc::contract
