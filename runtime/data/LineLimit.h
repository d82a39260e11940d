//===- LineLimit.h - the longest line of text a model can take -----------===//
//
// SentencePiece encodes a line whole, at about 125 bytes of memory and a
// microsecond per byte of text (a 50 MB line took 70 s and 6 GB), whatever
// the model can use of it. A line is therefore measured in bytes before it
// is encoded: a subword token covers at most kMaxBytesPerToken bytes (a
// piece is at most kMaxPieceCharacters characters, which VocabularyCheck.h
// holds every vocabulary to, of at most 4 bytes each), so a line longer than kMaxBytesPerToken x the
// longest bucket side cannot become a sentence the model can hold. tc-run
// prepare skips such pairs (counted); translate, which gives one line out
// per line in, cuts the line to the limit (it would cut the tokens anyway).
// Only text with long runs of whitespace (which the normaliser squeezes to
// one space) or of decomposed characters (which NFKC composes) could have
// fitted.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DATA_LINELIMIT_H
#define TC_RUNTIME_DATA_LINELIMIT_H

#include "runtime/Executable.h"
#include "runtime/data/VocabularyCheck.h"

#include <cstdint>
#include <string>

namespace tc::rt {

/// Bytes of UTF-8 text a subword token covers at most.
constexpr int64_t kMaxBytesPerToken = 4 * kMaxPieceCharacters;

/// The most bytes of a line whatever the model (a line of 1 MiB takes
/// about a second and 125 MB to encode).
constexpr int64_t kMaxLineBytes = int64_t(1) << 20;

struct LineLimit {
  int64_t bytes = kMaxLineBytes;
  int64_t tokens = 0; ///< the longest bucket side; 0: no buckets
  /// "8192 bytes (64 bytes per token of the longest bucket, 128 tokens)".
  std::string describe() const;
};

/// The longest line of text, in bytes, that could become a sentence of
/// `executable`: kMaxBytesPerToken x its longest bucket side (source or
/// target), at most kMaxLineBytes.
LineLimit lineLimitOf(const tcx::Executable &executable);

} // namespace tc::rt

#endif // TC_RUNTIME_DATA_LINELIMIT_H
