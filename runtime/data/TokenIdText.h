//===- TokenIdText.h - token ids written as text ("4 17 9") ---------------===//
//
// tc-run prepare --ids and translate --ids read sentences as token ids in
// decimal, separated by spaces or tabs, instead of text; translate --ids
// writes them so.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DATA_TOKENIDTEXT_H
#define TC_RUNTIME_DATA_TOKENIDTEXT_H

#include "runtime/data/Batch.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tc::rt {

/// "4 17 9" -> its ids; none with `error` (which starts with `where`) when
/// a word is not an id of `vocab`'s (any id from 0 where its size is 0), or is padding, BOS or EOS: tc adds
/// those itself, and one inside a sentence would end it early or be
/// ignored by the loss.
std::optional<std::vector<int32_t>> parseTokenIds(std::string_view line,
                                                  const Vocabulary &vocab,
                                                  const std::string &where,
                                                  std::string &error);

/// {4, 17, 9} -> "4 17 9".
std::string tokenIdText(const std::vector<int32_t> &ids);

} // namespace tc::rt

#endif // TC_RUNTIME_DATA_TOKENIDTEXT_H
