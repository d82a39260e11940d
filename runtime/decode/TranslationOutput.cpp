//===- TranslationOutput.cpp - translations as the text tc-run writes -----===//

#include "runtime/decode/TranslationOutput.h"
#include "runtime/data/TokenIdText.h"
#include "support/AtomicFile.h"

#include <cstdio>

namespace tc::rt {

std::string translationText(const Translations &translations,
                            const SourceLines &sources, size_t lineCount,
                            const SubwordVocabulary *subwords, bool nBest) {
  auto render = [&](const std::vector<int32_t> &tokens) {
    return subwords ? subwords->decode(tokens) : tokenIdText(tokens);
  };
  std::string output;
  size_t next = 0; // the next translated source
  for (size_t i = 0; i < lineCount; ++i) {
    bool translated = next < sources.lineOf.size() && sources.lineOf[next] == i;
    if (!nBest) {
      output += (translated ? render(translations.best(next)) : "") + "\n";
    } else if (translated) {
      for (const Hypothesis &h : translations.nBest[next]) {
        char score[32];
        std::snprintf(score, sizeof score, "%.9g", h.score);
        output += std::to_string(i) + " ||| " + render(h.tokens) + " ||| " +
                  score + "\n";
      }
    }
    next += translated;
  }
  return output;
}

bool writeTranslations(const std::string &path, const std::string &text,
                       support::IfPresent ifPresent, std::string &error) {
  if (path != "-")
    return support::writeFileAtomically(path, text.data(), text.size(), error,
                                        support::Durability::Replace,
                                        ifPresent);
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() ||
      std::fflush(stdout) != 0) {
    error = "cannot write the translations to standard output";
    return false;
  }
  return true;
}

} // namespace tc::rt
