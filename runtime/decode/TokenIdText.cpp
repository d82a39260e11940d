//===- TokenIdText.cpp - token ids written as text ("4 17 9") -------------===//

#include "runtime/decode/TokenIdText.h"

#include <charconv>

namespace tc::rt {

std::optional<std::vector<int32_t>> parseTokenIds(std::string_view line,
                                                  int64_t vocabulary,
                                                  const std::string &where,
                                                  std::string &error) {
  std::vector<int32_t> ids;
  const char *at = line.data(), *end = line.data() + line.size();
  while (at < end) {
    if (*at == ' ' || *at == '\t') {
      ++at;
      continue;
    }
    int64_t id = -1;
    auto [next, ec] = std::from_chars(at, end, id);
    if (ec != std::errc() || id < 0 || id >= vocabulary ||
        (next < end && *next != ' ' && *next != '\t')) {
      error = where + ": '" + std::string(line) +
              "' is not a list of token ids in [0, " +
              std::to_string(vocabulary) +
              "); leave out --ids to translate text";
      return std::nullopt;
    }
    ids.push_back(int32_t(id));
    at = next;
  }
  return ids;
}

std::string tokenIdText(const std::vector<int32_t> &ids) {
  std::string text;
  for (int32_t id : ids)
    text += (text.empty() ? "" : " ") + std::to_string(id);
  return text;
}

} // namespace tc::rt
