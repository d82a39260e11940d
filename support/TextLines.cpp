//===- TextLines.cpp - a UTF-8 text file as lines --------------------------===//

#include "support/TextLines.h"
#include "support/FileBytes.h"

namespace tc::support {

std::optional<size_t> invalidUtf8At(std::string_view text) {
  auto byte = [&](size_t i) { return uint8_t(text[i]); };
  auto continuation = [&](size_t i) {
    return i < text.size() && (byte(i) & 0xC0) == 0x80;
  };
  for (size_t i = 0; i < text.size();) {
    uint8_t lead = byte(i);
    size_t length;
    uint32_t minimum;
    if (lead < 0x80) {
      ++i;
      continue;
    }
    if ((lead & 0xE0) == 0xC0)
      length = 2, minimum = 0x80;
    else if ((lead & 0xF0) == 0xE0)
      length = 3, minimum = 0x800;
    else if ((lead & 0xF8) == 0xF0)
      length = 4, minimum = 0x10000;
    else
      return i;
    uint32_t codePoint = lead & (0x7F >> length);
    for (size_t k = 1; k < length; ++k) {
      if (!continuation(i + k))
        return i;
      codePoint = (codePoint << 6) | (byte(i + k) & 0x3F);
    }
    if (codePoint < minimum || codePoint > 0x10FFFF ||
        (codePoint >= 0xD800 && codePoint <= 0xDFFF))
      return i;
    i += length;
  }
  return std::nullopt;
}

std::optional<std::vector<std::string>>
splitUtf8Lines(std::string_view text, const std::string &path,
               std::string &error) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos)
      end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    if (std::optional<size_t> at = invalidUtf8At(line)) {
      error = path + ":" + std::to_string(lines.size() + 1) +
              ": invalid UTF-8 at byte " + std::to_string(*at + 1) +
              " of the line; convert the file to UTF-8 (iconv -f ENCODING "
              "-t UTF-8)";
      return std::nullopt;
    }
    lines.emplace_back(line);
    start = end + 1;
  }
  return lines;
}

std::optional<std::vector<std::string>>
readUtf8Lines(const std::string &path, uint64_t maxBytes, std::string &error) {
  std::optional<std::string> text = readFileText(path, maxBytes, error);
  if (!text)
    return std::nullopt;
  return splitUtf8Lines(*text, path, error);
}

} // namespace tc::support
