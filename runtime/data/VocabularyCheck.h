//===- VocabularyCheck.h - a SentencePiece model tc could have trained -----===//
//
// A vocabulary is data to verify, not a trusted file: libsentencepiece
// loads any model that parses and then walks its tables unchecked (a
// normaliser table of random bytes crashed it; a model type of 99, NaN
// scores or a 100 kB piece silently tokenised differently). Before
// libsentencepiece sees a model, tc reads it field by field against
// SentencePiece 0.1.97's schema (sentencepiece_model.proto), refuses what
// tc-run prepare could not have trained (docs/robustness.md, "What a
// vocabulary must be"), and hands libsentencepiece the model written again
// from the checked fields, with the normaliser's table rebuilt from its
// rule's name.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DATA_VOCABULARYCHECK_H
#define TC_RUNTIME_DATA_VOCABULARYCHECK_H

#include <optional>
#include <string>
#include <string_view>

namespace tc::rt {

/// The longest piece tc reads, in characters: SentencePiece's default
/// max_sentencepiece_length, which tc-run prepare trains with. LineLimit.h
/// bounds a line's bytes by it.
inline constexpr int64_t kMaxPieceCharacters = 16;

/// The serialised SentencePiece model `model`, written again from its
/// checked fields (fields in number order, varints shortest: the bytes
/// SentencePiece itself writes), when it is one tc could have trained; none
/// with `error` naming `name`, the field, what is wrong and the fix.
std::optional<std::string> checkVocabulary(std::string_view model,
                                           const std::string &name,
                                           std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_DATA_VOCABULARYCHECK_H
