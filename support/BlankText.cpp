//===- BlankText.cpp - when a line of text holds no sentence -------------===//

#include "support/BlankText.h"
#include "support/Utf8.h"

namespace tc::support {

bool isBlankCodePoint(char32_t c) {
  if (c <= 0x20 || (c >= 0x7F && c <= 0xA0)) // controls, space, NBSP
    return true;
  switch (c) {
  case 0x1680: // ogham space mark
  case 0x2028: // line separator
  case 0x2029: // paragraph separator
  case 0x202F: // narrow no-break space
  case 0x205F: // medium mathematical space
  case 0x2060: // word joiner
  case 0x2581: // SentencePiece's space mark
  case 0x3000: // ideographic space
  case 0xFEFF: // zero-width no-break space (byte order mark)
  case 0xFFFD: // replacement character
    return true;
  default:
    // En quad to hair space, then zero-width space, non-joiner, joiner,
    // left-to-right and right-to-left marks.
    return c >= 0x2000 && c <= 0x200F;
  }
}

bool isBlankLine(std::string_view line) {
  for (size_t at = 0; at < line.size();) {
    Utf8Char d = decodeUtf8At(line, at);
    if (d.length == 0 || !isBlankCodePoint(d.code))
      return false;
    at += d.length;
  }
  return true;
}

} // namespace tc::support
