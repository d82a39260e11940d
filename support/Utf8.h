//===- Utf8.h - UTF-8 bytes <-> Unicode code points ------------------------===//
//
// Strict UTF-8 as RFC 3629 and Python's "utf-8" codec define it: overlong
// forms, surrogates (U+D800 to U+DFFF) and code points above U+10FFFF are
// invalid. Every text input of tc (corpora, hypotheses, references) is
// checked with it.
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_UTF8_H
#define TC_SUPPORT_UTF8_H

#include <optional>
#include <string>
#include <string_view>

namespace tc::support {

/// The code point at a byte offset and its length in bytes.
struct Utf8Char {
  char32_t code = 0;
  size_t length = 0; ///< 0: the bytes there are not valid UTF-8
};

/// The sequence at `text[at]` (`at` < text.size()).
Utf8Char decodeUtf8At(std::string_view text, size_t at);

/// The byte offset of the first byte of `text` that does not start a valid
/// UTF-8 sequence, or none when all of it is valid.
std::optional<size_t> findInvalidUtf8(std::string_view text);

/// The code points of `text`; a byte that does not start a valid sequence
/// becomes U+FFFD (callers that must refuse such text check it first with
/// findInvalidUtf8).
std::u32string decodeUtf8(std::string_view text);

/// The length of the longest prefix of the valid UTF-8 `text` that has at
/// most `maxBytes` bytes and does not cut a character.
size_t utf8PrefixLength(std::string_view text, size_t maxBytes);

/// The UTF-8 bytes of `text` (code points are assumed valid).
std::string encodeUtf8(std::u32string_view text);

} // namespace tc::support

#endif // TC_SUPPORT_UTF8_H
