//===- TextLines.cpp - a UTF-8 text file as lines --------------------------===//

#include "support/TextLines.h"
#include "support/FileBytes.h"
#include "support/Utf8.h"

namespace tc::support {

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
    if (std::optional<size_t> at = findInvalidUtf8(line)) {
      error = path + ":" + std::to_string(lines.size() + 1) +
              ": invalid UTF-8 at byte " + std::to_string(*at + 1) +
              " of the line; convert the file to UTF-8 (iconv -f ENCODING "
              "-t UTF-8)";
      return std::nullopt;
    }
    // NUL is valid UTF-8 but no text: a UTF-16 file of ASCII letters is
    // valid UTF-8 with a NUL after each, and would be tokenised as such.
    if (size_t at = line.find('\0'); at != std::string_view::npos) {
      error = path + ":" + std::to_string(lines.size() + 1) +
              ": a NUL byte at byte " + std::to_string(at + 1) +
              " of the line; text holds no NUL (a UTF-16 file has one after "
              "every ASCII letter: convert it with iconv -f UTF-16 -t UTF-8)";
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
