//===- TranslationOutput.h - translations as the text tc-run writes -------===//
//
// One line out per line in: the best translation of a source line, an empty
// line for a blank one. With n-best, for each source line its hypotheses,
// best first, as lines "LINE ||| TRANSLATION ||| SCORE" (LINE counts from 0;
// the score to 9 significant digits), and nothing for a blank line. A
// translation is text decoded with the run's vocabulary, or token ids
// (runtime/data/TokenIdText.h).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DECODE_TRANSLATIONOUTPUT_H
#define TC_RUNTIME_DECODE_TRANSLATIONOUTPUT_H

#include "runtime/decode/SourceLines.h"
#include "runtime/decode/Translator.h"
#include "support/AtomicFile.h"

#include <string>

namespace tc::rt {

/// The output for `lineCount` lines in, of which `sources` were translated
/// into `translations`; decoded with `subwords`, or token ids where it is
/// null.
std::string translationText(const Translations &translations,
                            const SourceLines &sources, size_t lineCount,
                            const SubwordVocabulary *subwords, bool nBest);

/// Writes `text` to `path` (atomically; `ifPresent` says what becomes of a
/// file there), or to standard output for "-"; false with `error` when it
/// cannot.
bool writeTranslations(const std::string &path, const std::string &text,
                       support::IfPresent ifPresent, std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_DECODE_TRANSLATIONOUTPUT_H
