//===- Utf8.cpp - UTF-8 bytes <-> Unicode code points ----------------------===//

#include "support/Utf8.h"

namespace tc::support {

Utf8Char decodeUtf8At(std::string_view text, size_t at) {
  // RFC 3629, Unicode table 3-7.
  auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  unsigned char lead = byte(at);
  if (lead < 0x80)
    return {lead, 1};
  size_t length;
  char32_t code;
  // The allowed range of the second byte excludes overlong forms,
  // surrogates (U+D800 to U+DFFF) and code points above U+10FFFF.
  unsigned char low = 0x80, high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code = lead & 0x0F;
    if (lead == 0xE0)
      low = 0xA0;
    else if (lead == 0xED)
      high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code = lead & 0x07;
    if (lead == 0xF0)
      low = 0x90;
    else if (lead == 0xF4)
      high = 0x8F;
  } else {
    return {};
  }
  if (text.size() - at < length)
    return {};
  for (size_t i = 1; i < length; ++i) {
    unsigned char next = byte(at + i);
    if (next < (i == 1 ? low : 0x80) || next > (i == 1 ? high : 0xBF))
      return {};
    code = (code << 6) | (next & 0x3F);
  }
  return {code, length};
}

std::optional<size_t> findInvalidUtf8(std::string_view text) {
  for (size_t at = 0; at < text.size();) {
    Utf8Char d = decodeUtf8At(text, at);
    if (d.length == 0)
      return at;
    at += d.length;
  }
  return std::nullopt;
}

std::u32string decodeUtf8(std::string_view text) {
  std::u32string code;
  code.reserve(text.size());
  for (size_t at = 0; at < text.size();) {
    Utf8Char d = decodeUtf8At(text, at);
    if (d.length == 0) {
      code.push_back(U'\uFFFD');
      ++at;
    } else {
      code.push_back(d.code);
      at += d.length;
    }
  }
  return code;
}

size_t utf8PrefixLength(std::string_view text, size_t maxBytes) {
  if (text.size() <= maxBytes)
    return text.size();
  size_t end = maxBytes;
  // Back over the continuation bytes (10xxxxxx) of a cut sequence.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
    --end;
  return end;
}

std::string encodeUtf8(std::u32string_view text) {
  std::string bytes;
  bytes.reserve(text.size());
  for (char32_t c : text) {
    if (c < 0x80) {
      bytes.push_back(char(c));
    } else if (c < 0x800) {
      bytes.push_back(char(0xC0 | (c >> 6)));
      bytes.push_back(char(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
      bytes.push_back(char(0xE0 | (c >> 12)));
      bytes.push_back(char(0x80 | ((c >> 6) & 0x3F)));
      bytes.push_back(char(0x80 | (c & 0x3F)));
    } else {
      bytes.push_back(char(0xF0 | (c >> 18)));
      bytes.push_back(char(0x80 | ((c >> 12) & 0x3F)));
      bytes.push_back(char(0x80 | ((c >> 6) & 0x3F)));
      bytes.push_back(char(0x80 | (c & 0x3F)));
    }
  }
  return bytes;
}

} // namespace tc::support
