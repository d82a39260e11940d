//===- NormalizerRules.cpp - the normalisers tc's vocabularies may use ----===//

#include "runtime/data/NormalizerRules.h"
#include "runtime/data/ProtoWire.h"

#include <sentencepiece_trainer.h>

#include <optional>
#include <unordered_map>

namespace tc::rt {
namespace {

/// One sentence for the trainer.
class OneSentence : public sentencepiece::SentenceIterator {
public:
  bool done() const override { return done_; }
  void Next() override { done_ = true; }
  const std::string &value() const override { return text_; }
  sentencepiece::util::Status status() const override { return {}; }

private:
  std::string text_ = "ab";
  bool done_ = false;
};

/// Field `number` of the message `bytes` (empty when absent).
std::optional<std::string_view> fieldOf(std::string_view bytes,
                                        uint32_t number) {
  std::string error;
  std::optional<std::vector<ProtoField>> fields =
      parseProtoMessage(bytes, error);
  if (!fields)
    return std::nullopt;
  for (const ProtoField &field : *fields)
    if (field.number == number && field.type == WireType::Bytes)
      return field.bytes;
  return std::string_view();
}

/// The table in a model libsentencepiece trains with the rule `name`:
/// Debian's library exports no other way to build one (its normaliser
/// builder and NormalizerSpec are not in its headers). A six-piece
/// character model of one sentence trains in milliseconds.
std::optional<std::string> buildTable(std::string_view name) {
  std::unordered_map<std::string, std::string> options = {
      {"model_type", "char"},
      {"vocab_size", "8"},
      {"hard_vocab_limit", "false"},
      {"normalization_rule_name", std::string(name)},
      {"num_threads", "1"},
      {"minloglevel", "2"},
  };
  OneSentence sentence;
  std::string model;
  if (!sentencepiece::SentencePieceTrainer::Train(options, &sentence, &model)
           .ok())
    return std::nullopt;
  std::optional<std::string_view> spec = fieldOf(model, 3); // normalizer_spec
  std::optional<std::string_view> table;
  if (spec)
    table = fieldOf(*spec, 2); // precompiled_charsmap
  if (!table)
    return std::nullopt;
  return std::string(*table);
}

} // namespace

const std::string *normalizerTable(std::string_view name) {
  // Built once per process, on first use.
  static const std::optional<std::string> trained =
      buildTable(kTrainedNormalizer);
  static const std::optional<std::string> identity = buildTable("identity");
  const std::optional<std::string> *table = name == kTrainedNormalizer
                                                ? &trained
                                            : name == "identity" ? &identity
                                                                 : nullptr;
  return table && *table ? &**table : nullptr;
}

} // namespace tc::rt
