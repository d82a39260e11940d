//===- SourceLines.cpp - lines of text as the sources to translate --------===//

#include "runtime/decode/SourceLines.h"
#include "runtime/data/TokenIdText.h"
#include "support/BlankText.h"
#include "support/Utf8.h"

namespace tc::rt {

std::string_view cutLine(std::string_view line, int64_t maxBytes, bool ids) {
  std::string_view cut =
      line.substr(0, support::utf8PrefixLength(line, size_t(maxBytes)));
  if (cut.size() < line.size() && ids && line[cut.size()] != ' ' &&
      line[cut.size()] != '\t') {
    size_t space = cut.find_last_of(" \t");
    if (space != std::string_view::npos)
      cut = cut.substr(0, space);
  }
  return cut;
}

std::optional<SourceLines> sourcesOfLines(const std::vector<std::string> &lines,
                                          const SubwordVocabulary *subwords,
                                          const Vocabulary &vocab,
                                          const LineLimit &limit,
                                          const std::string &inputName,
                                          std::string &error) {
  SourceLines result;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (support::isBlankLine(lines[i]))
      continue;
    std::string_view line = cutLine(lines[i], limit.bytes, !subwords);
    result.cut += line.size() < lines[i].size();
    std::vector<int32_t> ids;
    if (subwords) {
      ids = subwords->encode(line);
    } else {
      auto parsed = parseTokenIds(
          line, vocab, inputName + ":" + std::to_string(i + 1), error);
      if (!parsed) {
        error += "; leave out --ids to translate text";
        return std::nullopt;
      }
      ids = std::move(*parsed);
    }
    ids.push_back(vocab.eos);
    result.sources.push_back(std::move(ids));
    result.lineOf.push_back(i);
  }
  return result;
}

} // namespace tc::rt
