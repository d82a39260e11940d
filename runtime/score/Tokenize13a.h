//===- Tokenize13a.h - sacreBLEU's default BLEU tokenisation --------------===//
//
// "13a" is the tokenisation of mteval-v13a.pl (WMT's BLEU script) as
// sacreBLEU 2.6.0 writes it (tokenizers/tokenizer_13a.py and
// tokenizer_re.py), step by step:
//
//   1. "<skipped>" is removed; "-\n" is removed (a word hyphenated across
//      a line end is joined); "\n" becomes a space.
//   2. When the segment holds '&': "&quot;" becomes '"', then "&amp;" '&',
//      "&lt;" '<' and "&gt;" '>', in that order, each over the whole
//      segment: "&amp;lt;" ends as "<" but "&amp;quot;" as "&quot;".
//   3. A space is put on both sides of every ASCII symbol but the
//      apostrophe, comma, hyphen and period: { | } ~ [ \ ] ^ _ ` space ! "
//      # $ % & ( ) * + : ; < = > ? @ /.
//   4. A period or comma is split off unless a digit (0-9) comes before it,
//      then unless a digit comes after it; a hyphen is split off after a
//      digit. Each of these is a left-to-right, non-overlapping regular
//      expression substitution, as Python's re.sub makes it ("1,000.5"
//      stays whole, "end." splits, "a.b" splits).
//   5. Whitespace (Python's: Unicode's) runs become one space, and the
//      ends are trimmed.
//
// Letters, digits and every non-ASCII character (accents, ¿, «, ...) are
// left as they are: "¿Dónde?" becomes "¿Dónde ?".
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_SCORE_TOKENIZE13A_H
#define TC_RUNTIME_SCORE_TOKENIZE13A_H

#include <string>
#include <string_view>

namespace tc::rt {

/// The 13a tokenisation of one UTF-8 segment: its tokens joined by single
/// spaces.
std::string tokenize13a(std::string_view segment);

/// The same on code points.
std::u32string tokenize13a(std::u32string_view segment);

} // namespace tc::rt

#endif // TC_RUNTIME_SCORE_TOKENIZE13A_H
