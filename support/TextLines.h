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
#include <cstdio>
#include <memory>
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

/// The lines of a UTF-8 text file read one at a time, with the checks of
/// readUtf8Lines: a corpus of gigabytes is never whole in memory.
class Utf8LineReader {
public:
  /// The regular file at `path` (of at most `maxBytes`) opened for reading,
  /// or null with `error` naming the file and what is wrong.
  static std::unique_ptr<Utf8LineReader>
  open(const std::string &path, uint64_t maxBytes, std::string &error);
  ~Utf8LineReader();
  Utf8LineReader(const Utf8LineReader &) = delete;
  Utf8LineReader &operator=(const Utf8LineReader &) = delete;

  /// The next line (without its line end) in `line`: true; false at the
  /// end of the file, or with `error` set ("<path>:<line>: ...") when the
  /// line is not valid text or the file cannot be read. A line longer than
  /// `keep` bytes is read past in blocks, never held: `line` gets its first
  /// `keep` bytes, unchecked (the caller leaves such a line out), so a
  /// file of one huge line costs no more memory than a short one.
  bool next(std::string &line, std::string &error,
            uint64_t keep = UINT64_MAX);
  /// The number of lines returned so far (the last one's, from 1).
  uint64_t lines() const { return lines_; }
  /// The bytes read so far and the file's size, for progress.
  uint64_t bytesRead() const { return bytesRead_; }
  uint64_t size() const { return size_; }

private:
  Utf8LineReader(std::FILE *file, std::string path, uint64_t size)
      : file_(file), path_(std::move(path)), size_(size) {}
  std::FILE *file_;
  std::string path_;
  uint64_t size_, bytesRead_ = 0, lines_ = 0;
  std::vector<char> block_ = std::vector<char>(1 << 20);
  size_t at_ = 0, filled_ = 0; ///< block_[at_, filled_) is not yet read
};

} // namespace tc::support

#endif // TC_SUPPORT_TEXTLINES_H
