//===- SubwordVocabulary.h - a model's joint SentencePiece vocabulary ------===//
//
// One SentencePiece model (BPE or unigram, Debian's libsentencepiece) maps the
// text of both languages to the token ids of the executable: it has exactly
// the executable's `vocab_size` pieces, and its padding, begin- and
// end-of-sentence ids are the executable's. It travels inside the token
// files that `tc-run prepare` writes and beside the checkpoints of a run
// (vocabulary.model), so translating and scoring need nothing else.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DATA_SUBWORDVOCABULARY_H
#define TC_RUNTIME_DATA_SUBWORDVOCABULARY_H

#include "runtime/data/Batch.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sentencepiece {
class SentencePieceProcessor;
}

namespace tc::rt {

enum class SubwordAlgorithm { Bpe, Unigram };

/// "bpe" or "unigram".
std::optional<SubwordAlgorithm> parseSubwordAlgorithm(std::string_view name);

/// The largest SentencePiece model tc reads, from a file or a token file:
/// a 32k-piece model is under 1 MiB, and checking one holds about 35 bytes
/// of memory per byte before its fields can be judged.
constexpr uint64_t kMaxVocabularyBytes = uint64_t(16) << 20;

/// What identifies a vocabulary in checkpoints and token files: the FNV-1a
/// 64 hash of its serialised model (as SubwordVocabulary::serialized()).
uint64_t vocabularyFingerprint(std::string_view serialized);

/// What a vocabulary is trained on, one sentence at a time: a corpus is
/// streamed from its files, never whole in memory.
class SentenceSource {
public:
  virtual ~SentenceSource() = default;
  /// The next sentence in `sentence`: true; false at the end, or when the
  /// source failed (it keeps its own error).
  virtual bool next(std::string &sentence) = 0;
};

class SubwordVocabulary {
public:
  ~SubwordVocabulary();

  /// Trains a joint vocabulary of `vocab.size` pieces on the sentences of
  /// `sentences` (SentencePiece keeps a seeded sample of at most two
  /// million), with `vocab`'s special ids; none with `error` when
  /// SentencePiece cannot (too little text for the size).
  static std::unique_ptr<SubwordVocabulary>
  train(SentenceSource &sentences, const Vocabulary &vocab,
        SubwordAlgorithm algorithm, std::string &error);
  /// The same on every line of each of `texts`, in order.
  static std::unique_ptr<SubwordVocabulary>
  train(const std::vector<const std::vector<std::string> *> &texts,
        const Vocabulary &vocab, SubwordAlgorithm algorithm,
        std::string &error);

  /// The vocabulary in a serialised SentencePiece model (`name` names it in
  /// messages), when it is one tc could have trained (VocabularyCheck.h).
  static std::unique_ptr<SubwordVocabulary>
  fromSerialized(std::string serialized, const std::string &name,
                 std::string &error);

  /// The vocabulary in the SentencePiece model file at `path`.
  static std::unique_ptr<SubwordVocabulary> load(const std::string &path,
                                                 std::string &error);

  /// Whether the vocabulary has the size and special ids of `vocab`; false
  /// with `error` saying what differs and how to fix it.
  bool fits(const Vocabulary &vocab, const std::string &name,
            std::string &error) const;

  std::vector<int32_t> encode(std::string_view text) const;
  /// Detokenised text of `ids` (special ids dropped): `text` normalised as
  /// the vocabulary does (NFKC, spaces squeezed) for ids = encode(text).
  std::string decode(const std::vector<int32_t> &ids) const;

  int64_t size() const;
  /// Its size and special ids, as an executable states them.
  Vocabulary conventions() const;
  int32_t unknownId() const;
  /// The serialised model, as a .model file holds it: written again from
  /// its checked fields (the bytes SentencePiece wrote, for a model it
  /// trained).
  const std::string &serialized() const { return serialized_; }
  /// vocabularyFingerprint(serialized()).
  uint64_t fingerprint() const;

private:
  SubwordVocabulary() = default;

  std::unique_ptr<sentencepiece::SentencePieceProcessor> processor_;
  std::string serialized_;
};

} // namespace tc::rt

#endif // TC_RUNTIME_DATA_SUBWORDVOCABULARY_H
