//===- Unicode.cpp - UTF-8 and whitespace as Python's str sees them -------===//

#include "runtime/score/Unicode.h"

namespace tc::rt {

bool isPythonSpace(char32_t c) {
  if (c < 0x80)
    return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20);
  switch (c) {
  case 0x85:
  case 0xA0:
  case 0x1680:
  case 0x2028:
  case 0x2029:
  case 0x202F:
  case 0x205F:
  case 0x3000:
    return true;
  default:
    return c >= 0x2000 && c <= 0x200A;
  }
}

std::vector<std::u32string_view> splitAtWhitespace(std::u32string_view text) {
  std::vector<std::u32string_view> words;
  size_t at = 0;
  while (true) {
    while (at < text.size() && isPythonSpace(text[at]))
      ++at;
    if (at == text.size())
      return words;
    size_t start = at;
    while (at < text.size() && !isPythonSpace(text[at]))
      ++at;
    words.push_back(text.substr(start, at - start));
  }
}

std::u32string_view stripTrailingWhitespace(std::u32string_view text) {
  size_t end = text.size();
  while (end > 0 && isPythonSpace(text[end - 1]))
    --end;
  return text.substr(0, end);
}

} // namespace tc::rt
