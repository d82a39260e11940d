//===- Unicode.h - UTF-8 and whitespace as Python's str sees them ---------===//
//
// sacreBLEU works on Python strings: sequences of code points, split and
// stripped at Python's whitespace (str.split(), str.rstrip()), which is
// Unicode's, not just ASCII's. BLEU and chrF here decode UTF-8 into code
// points and use the same whitespace, so that a no-break space or an
// ideographic space separates words as it does in sacreBLEU.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_SCORE_UNICODE_H
#define TC_RUNTIME_SCORE_UNICODE_H

#include "support/Utf8.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tc::rt {

using support::decodeUtf8;
using support::encodeUtf8;
using support::findInvalidUtf8;

/// Whether Python's str.isspace() holds for `c`: the code points where
/// str.split() splits and str.rstrip() strips (tab to carriage return,
/// U+001C to U+001F, space, U+0085, no-break space, U+1680, U+2000 to
/// U+200A, U+2028, U+2029, U+202F, U+205F, U+3000).
bool isPythonSpace(char32_t c);

/// Python's text.split(): the runs of non-whitespace, in order.
std::vector<std::u32string_view> splitAtWhitespace(std::u32string_view text);

/// Python's text.rstrip(): `text` without its trailing whitespace.
std::u32string_view stripTrailingWhitespace(std::u32string_view text);

} // namespace tc::rt

#endif // TC_RUNTIME_SCORE_UNICODE_H
