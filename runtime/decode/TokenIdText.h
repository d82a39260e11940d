//===- TokenIdText.h - token ids written as text ("4 17 9") ---------------===//
//
// tc-run translate --ids reads and writes sentences as token ids in decimal,
// separated by spaces or tabs, instead of text.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DECODE_TOKENIDTEXT_H
#define TC_RUNTIME_DECODE_TOKENIDTEXT_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tc::rt {

/// "4 17 9" -> its ids, each in [0, vocabulary); none with `error` (which
/// starts with `where`).
std::optional<std::vector<int32_t>> parseTokenIds(std::string_view line,
                                                  int64_t vocabulary,
                                                  const std::string &where,
                                                  std::string &error);

/// {4, 17, 9} -> "4 17 9".
std::string tokenIdText(const std::vector<int32_t> &ids);

} // namespace tc::rt

#endif // TC_RUNTIME_DECODE_TOKENIDTEXT_H
