//===- BlankText.h - when a line of text holds no sentence ---------------===//
//
// The one definition of an empty line, used wherever tc judges one
// (`tc-run prepare` refuses it, `tc-run translate` gives an empty line for
// it): a line is blank when every code point in it is one a reader cannot
// see and the subword vocabulary turns into nothing. That is
//
//  - Unicode's White_Space (tab to carriage return, space, U+0085, the
//    no-break space U+00A0, U+1680, U+2000 to U+200A, U+2028, U+2029,
//    U+202F, U+205F, U+3000) and the other control characters (U+0000 to
//    U+001F, U+007F to U+009F);
//  - the zero-width format characters (U+200B to U+200F: zero-width space,
//    non-joiner, joiner, the direction marks; U+2060 word joiner; U+FEFF
//    zero-width no-break space, the byte order mark);
//  - U+2581 (SentencePiece's own mark for a space) and U+FFFD (the
//    replacement character).
//
// Every code point that SentencePiece's default normaliser (nmt_nfkc)
// removes or turns into a space is among them (a unit test checks this on
// a trained vocabulary), so a blank line is one that would become a
// sentence of no tokens.
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_BLANKTEXT_H
#define TC_SUPPORT_BLANKTEXT_H

#include <string_view>

namespace tc::support {

/// Whether `c` is whitespace, a control or a zero-width format character
/// (above).
bool isBlankCodePoint(char32_t c);

/// Whether the UTF-8 `line` holds only blank code points (an empty line
/// is blank). Bytes that are not valid UTF-8 are not blank.
bool isBlankLine(std::string_view line);

} // namespace tc::support

#endif // TC_SUPPORT_BLANKTEXT_H
