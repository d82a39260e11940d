//===- TextLines.h - a UTF-8 text file as lines ----------------------------===//
//
// Corpora, hypotheses and references are read through here: one segment per
// line, valid UTF-8 without NUL (an error names the file, the line and the
// byte), "\n" or "\r\n" line ends, a missing final newline accepted.
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_TEXTLINES_H
#define TC_SUPPORT_TEXTLINES_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tc::support {

/// The lines of `text` (read from `path`, named in messages), or none with
/// `error` "<path>:<line>: invalid UTF-8 at byte <column>" or "...: a NUL
/// byte at byte <column>".
std::optional<std::vector<std::string>>
splitUtf8Lines(std::string_view text, const std::string &path,
               std::string &error);

/// The lines of the UTF-8 text file at `path` (a regular file of at most
/// `maxBytes`), or none with `error` naming the file and what is wrong.
std::optional<std::vector<std::string>>
readUtf8Lines(const std::string &path, uint64_t maxBytes, std::string &error);

} // namespace tc::support

#endif // TC_SUPPORT_TEXTLINES_H
