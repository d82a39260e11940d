//===- SubwordVocabulary.cpp - a model's joint SentencePiece vocabulary ----===//

#include "runtime/data/SubwordVocabulary.h"
#include "runtime/data/VocabularyCheck.h"
#include "support/FileBytes.h"
#include "support/Fnv1a.h"

#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <algorithm>
#include <thread>

namespace tc::rt {
namespace {

/// Feeds a SentenceSource to SentencePiece's trainer.
class SentencesIterator : public sentencepiece::SentenceIterator {
public:
  explicit SentencesIterator(SentenceSource &source) : source_(source) {
    Next();
  }
  bool done() const override { return done_; }
  void Next() override { done_ = !source_.next(sentence_); }
  const std::string &value() const override { return sentence_; }
  sentencepiece::util::Status status() const override { return {}; }

private:
  SentenceSource &source_;
  std::string sentence_;
  bool done_ = false;
};

/// Every line of several texts, in order.
class LinesSource : public SentenceSource {
public:
  explicit LinesSource(const std::vector<const std::vector<std::string> *> &texts)
      : texts_(texts) {}
  bool next(std::string &sentence) override {
    while (text_ < texts_.size() && line_ >= texts_[text_]->size()) {
      ++text_;
      line_ = 0;
    }
    if (text_ >= texts_.size())
      return false;
    sentence = (*texts_[text_])[line_++];
    return true;
  }

private:
  const std::vector<const std::vector<std::string> *> &texts_;
  size_t text_ = 0, line_ = 0;
};

/// The smallest id that is none of the model's special ids: SentencePiece's
/// unknown-piece id.
int32_t unknownIdFor(const Vocabulary &vocab) {
  int32_t id = 0;
  while (id == vocab.pad || id == vocab.bos || id == vocab.eos)
    ++id;
  return id;
}

} // namespace

std::optional<SubwordAlgorithm> parseSubwordAlgorithm(std::string_view name) {
  if (name == "bpe")
    return SubwordAlgorithm::Bpe;
  if (name == "unigram")
    return SubwordAlgorithm::Unigram;
  return std::nullopt;
}

SubwordVocabulary::~SubwordVocabulary() = default;

std::unique_ptr<SubwordVocabulary> SubwordVocabulary::train(
    const std::vector<const std::vector<std::string> *> &texts,
    const Vocabulary &vocab, SubwordAlgorithm algorithm, std::string &error) {
  LinesSource lines(texts);
  return train(lines, vocab, algorithm, error);
}

std::unique_ptr<SubwordVocabulary>
SubwordVocabulary::train(SentenceSource &sentences, const Vocabulary &vocab,
                         SubwordAlgorithm algorithm, std::string &error) {
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::unordered_map<std::string, std::string> options = {
      {"model_type", algorithm == SubwordAlgorithm::Bpe ? "bpe" : "unigram"},
      {"vocab_size", std::to_string(vocab.size)},
      {"pad_id", std::to_string(vocab.pad)},
      {"bos_id", std::to_string(vocab.bos)},
      {"eos_id", std::to_string(vocab.eos)},
      {"unk_id", std::to_string(unknownIdFor(vocab))},
      // Both languages' alphabets whole: an accented letter of the rarer
      // language must not become <unk>.
      {"character_coverage", "1.0"},
      // A sample of at most two million sentences keeps training to seconds
      // on a large corpus, as fairseq's and Marian's recipes do.
      {"input_sentence_size", "2000000"},
      {"shuffle_input_sentence", "true"},
      {"num_threads", std::to_string(threads)},
      // Exactly vocab_size pieces, or an error when the text is too small
      // for them (the executable's vocabulary size is fixed).
      {"hard_vocab_limit", "true"},
      {"minloglevel", "2"},
  };
  // SentencePiece samples and shuffles with its own generator: a fixed seed
  // makes the same text give the same vocabulary.
  sentencepiece::SetRandomGeneratorSeed(1);
  SentencesIterator iterator(sentences);
  std::string serialized;
  sentencepiece::util::Status status = sentencepiece::SentencePieceTrainer::Train(
      options, &iterator, &serialized);
  if (!status.ok()) {
    error = "SentencePiece cannot train a vocabulary of " +
            std::to_string(vocab.size) + " pieces on this text: " +
            status.ToString();
    return nullptr;
  }
  return fromSerialized(std::move(serialized), "the trained vocabulary",
                        error);
}

std::unique_ptr<SubwordVocabulary>
SubwordVocabulary::fromSerialized(std::string serialized,
                                  const std::string &name, std::string &error) {
  if (serialized.size() > kMaxVocabularyBytes) {
    error = name + ": a vocabulary of " + std::to_string(serialized.size()) +
            " bytes, more than the " + std::to_string(kMaxVocabularyBytes) +
            " tc reads; give the vocabulary.model that tc-run prepare and "
            "train wrote";
    return nullptr;
  }
  // libsentencepiece sees only a model written again from checked fields.
  std::optional<std::string> checked = checkVocabulary(serialized, name, error);
  if (!checked)
    return nullptr;
  std::unique_ptr<SubwordVocabulary> vocabulary(new SubwordVocabulary());
  vocabulary->processor_ =
      std::make_unique<sentencepiece::SentencePieceProcessor>();
  sentencepiece::util::Status status =
      vocabulary->processor_->LoadFromSerializedProto(*checked);
  if (!status.ok()) {
    error = name + ": libsentencepiece refuses the vocabulary (" +
            status.ToString() +
            "); give the vocabulary.model that tc-run prepare and train "
            "wrote, or prepare the data again without --vocabulary";
    return nullptr;
  }
  vocabulary->serialized_ = std::move(*checked);
  return vocabulary;
}

std::unique_ptr<SubwordVocabulary>
SubwordVocabulary::load(const std::string &path, std::string &error) {
  std::optional<std::string> bytes =
      support::readFileText(path, kMaxVocabularyBytes, error);
  if (!bytes)
    return nullptr;
  return fromSerialized(std::move(*bytes), path, error);
}

bool SubwordVocabulary::fits(const Vocabulary &vocab, const std::string &name,
                             std::string &error) const {
  auto differs = [&](const std::string &what, int64_t has, int64_t wants) {
    error = name + " has " + what + " " + std::to_string(has) +
            " but the executable's is " + std::to_string(wants) +
            "; prepare the data again without --vocabulary (a vocabulary of "
            "the model's size is trained), or compile the model with "
            "vocab_size and the special ids of this vocabulary";
    return false;
  };
  Vocabulary has = conventions();
  if (has.size != vocab.size)
    return differs("vocabulary size", has.size, vocab.size);
  if (has.pad != vocab.pad)
    return differs("padding id", has.pad, vocab.pad);
  if (has.bos != vocab.bos)
    return differs("begin-of-sentence id", has.bos, vocab.bos);
  if (has.eos != vocab.eos)
    return differs("end-of-sentence id", has.eos, vocab.eos);
  return true;
}

std::vector<int32_t> SubwordVocabulary::encode(std::string_view text) const {
  std::vector<int> ids;
  processor_->Encode(text, &ids).IgnoreError(); // fails only when unloaded
  return {ids.begin(), ids.end()};
}

std::string SubwordVocabulary::decode(const std::vector<int32_t> &ids) const {
  std::vector<int> known;
  for (int32_t id : ids)
    if (id >= 0 && id < size()) // SentencePiece fails on any other
      known.push_back(id);
  std::string text;
  processor_->Decode(known, &text).IgnoreError();
  return text;
}

int64_t SubwordVocabulary::size() const { return processor_->GetPieceSize(); }

uint64_t SubwordVocabulary::fingerprint() const {
  return vocabularyFingerprint(serialized_);
}

uint64_t vocabularyFingerprint(std::string_view serialized) {
  return support::fnv1a(serialized.data(), serialized.size());
}

Vocabulary SubwordVocabulary::conventions() const {
  Vocabulary vocab;
  vocab.size = size();
  vocab.pad = processor_->pad_id();
  vocab.bos = processor_->bos_id();
  vocab.eos = processor_->eos_id();
  return vocab;
}

int32_t SubwordVocabulary::unknownId() const { return processor_->unk_id(); }

} // namespace tc::rt
