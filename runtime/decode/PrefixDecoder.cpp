//===- PrefixDecoder.cpp - the decoder run on whole prefixes ---------------===//

#include "runtime/decode/PrefixDecoder.h"

#include <algorithm>

namespace tc::rt {

namespace binding = contract::binding;
using contract::FunctionRole;

std::optional<PrefixDecoder> PrefixDecoder::open(const Executable &executable,
                                                   Device &device,
                                                   const BucketShape &bucket,
                                                   std::string &error) {
  const tcx::Function *encoder =
      executable.function(tcx::FunctionRole::Encode, bucket);
  const tcx::Function *decoder =
      executable.function(tcx::FunctionRole::Decode, bucket);
  if (!encoder || !decoder) {
    error = "the executable has no " +
            contract::functionName(FunctionRole::Encode, bucket) + " or " +
            contract::functionName(FunctionRole::Decode, bucket) + " function";
    return std::nullopt;
  }
  return PrefixDecoder(device, *encoder, *decoder, bucket,
                        vocabularyOf(executable.root()));
}

bool PrefixDecoder::encode(const std::vector<std::vector<int32_t>> &sources,
                            std::string &error) {
  int64_t B = bucket_.batch, S = bucket_.sourceLength;
  if (int64_t(sources.size()) > B) {
    error = std::to_string(sources.size()) + " sources for a bucket of " +
            std::to_string(B);
    return false;
  }
  for (const std::vector<int32_t> &s : sources)
    if (int64_t(s.size()) > S) {
      error = "a source of " + std::to_string(s.size()) +
              " tokens is longer than the bucket's " + std::to_string(S);
      return false;
    }
  std::vector<int32_t> source(B * S, vocab_.pad);
  for (size_t r = 0; r < sources.size(); ++r)
    std::copy(sources[r].begin(), sources[r].end(), source.begin() + r * S);
  std::vector<uint8_t> memory(bindingBytes(*encoder_, binding::kMemory, true));
  bool bound = device_->writeInput(*encoder_, binding::kSourceIds, source);
  if (bound)
    device_->run(*encoder_);
  if (!bound ||
      !device_->readOutput(*encoder_, binding::kMemory, memory.data(),
                           memory.size()) ||
      !device_->writeInput(*decoder_, binding::kMemory, memory.data(),
                           memory.size()) ||
      !device_->writeInput(*decoder_, binding::kSourceIds, source)) {
    error = encoder_->name()->str() + " and " + decoder_->name()->str() +
            " do not take and return " + std::string(binding::kSourceIds) +
            " and " + std::string(binding::kMemory) + " as expected";
    return false;
  }
  return true;
}

const std::vector<float> *
PrefixDecoder::step(const std::vector<int32_t> &prefixes, std::string &error) {
  int64_t B = bucket_.batch, T = bucket_.targetLength, V = vocab_.size;
  if (!device_->writeInput(*decoder_, binding::kTargetPrefix, prefixes)) {
    error = decoder_->name()->str() + " takes no " +
            std::string(binding::kTargetPrefix) + " of " + std::to_string(B) +
            "x" + std::to_string(T);
    return nullptr;
  }
  device_->run(*decoder_);
  logits_.resize(B * T * V);
  if (!device_->readOutput(*decoder_, binding::kLogits, logits_)) {
    error = decoder_->name()->str() + " returns no " +
            std::string(binding::kLogits) + " of " + std::to_string(B) + "x" +
            std::to_string(T) + "x" + std::to_string(V);
    return nullptr;
  }
  return &logits_;
}

} // namespace tc::rt
