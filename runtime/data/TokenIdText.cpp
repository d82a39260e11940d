//===- TokenIdText.cpp - token ids written as text ("4 17 9") -------------===//

#include "runtime/data/TokenIdText.h"

#include <charconv>

namespace tc::rt {
namespace {

/// ASCII whitespace: a line's ids are separated by it (a CRLF file's \r
/// too).
bool separates(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

} // namespace

std::optional<std::vector<int32_t>> parseTokenIds(std::string_view line,
                                                  const Vocabulary &vocab,
                                                  const std::string &where,
                                                  std::string &error) {
  std::vector<int32_t> ids;
  const char *at = line.data(), *end = line.data() + line.size();
  while (at < end) {
    if (separates(*at)) {
      ++at;
      continue;
    }
    const char *wordEnd = at;
    while (wordEnd < end && !separates(*wordEnd))
      ++wordEnd;
    std::string word(at, wordEnd);
    int64_t id = -1;
    auto [next, ec] = std::from_chars(at, wordEnd, id);
    // An executable without run settings states no vocabulary size; ids
    // are i32 either way (4294967296 became 0, the padding id).
    int64_t limit = vocab.size > 0 ? vocab.size : int64_t(1) << 31;
    if (ec != std::errc() || next != wordEnd || id < 0 || id >= limit) {
      error = where + ": '" + word + "' is not a token id in [0, " +
              std::to_string(limit) + ")";
      return std::nullopt;
    }
    const char *special = id == vocab.pad   ? "padding"
                          : id == vocab.bos ? "the start of sentence (BOS)"
                          : id == vocab.eos ? "the end of sentence (EOS)"
                                            : nullptr;
    if (special) {
      error = where + ": '" + word + "' is " + special +
              ", which tc adds itself; give a sentence's ids without " +
              std::to_string(vocab.pad) + ", " + std::to_string(vocab.bos) +
              " or " + std::to_string(vocab.eos);
      return std::nullopt;
    }
    ids.push_back(int32_t(id));
    at = wordEnd;
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
