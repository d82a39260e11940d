//===- TextLines.cpp - a UTF-8 text file as lines --------------------------===//

#include "support/TextLines.h"
#include "support/FileBytes.h"
#include "support/Utf8.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tc::support {
namespace {

/// `line` (line `number` of `path`, its end removed) when it is text;
/// false with `error` naming the line and byte otherwise.
bool checkLine(std::string_view line, const std::string &path,
               uint64_t number, std::string &error) {
  if (std::optional<size_t> at = findInvalidUtf8(line)) {
    error = path + ":" + std::to_string(number) + ": invalid UTF-8 at byte " +
            std::to_string(*at + 1) +
            " of the line; convert the file to UTF-8 (iconv -f ENCODING "
            "-t UTF-8)";
    return false;
  }
  // NUL is valid UTF-8 but no text: a UTF-16 file of ASCII letters is
  // valid UTF-8 with a NUL after each, and would be tokenised as such.
  if (size_t at = line.find('\0'); at != std::string_view::npos) {
    error = path + ":" + std::to_string(number) + ": a NUL byte at byte " +
            std::to_string(at + 1) +
            " of the line; text holds no NUL (a UTF-16 file has one after "
            "every ASCII letter: convert it with iconv -f UTF-16 -t UTF-8)";
    return false;
  }
  return true;
}

/// `line` without its "\n" or "\r\n".
std::string_view withoutLineEnd(std::string_view line) {
  if (!line.empty() && line.back() == '\n')
    line.remove_suffix(1);
  if (!line.empty() && line.back() == '\r')
    line.remove_suffix(1);
  return line;
}

} // namespace

std::optional<std::vector<std::string>>
splitUtf8Lines(std::string_view text, const std::string &path,
               std::string &error) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos)
      end = text.size();
    std::string_view line = withoutLineEnd(text.substr(start, end - start));
    if (!checkLine(line, path, lines.size() + 1, error))
      return std::nullopt;
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


std::unique_ptr<Utf8LineReader>
Utf8LineReader::open(const std::string &path, uint64_t maxBytes,
                     std::string &error) {
  // The type first, so that a device or a FIFO is never opened.
  if (!checkInputFile(path, maxBytes, error))
    return nullptr;
  // O_NONBLOCK: a FIFO put there since the check must not block the open
  // (it is refused below); reads of a regular file ignore the flag.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  struct stat info;
  if (fd < 0 || ::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    error = path + ": cannot open: " +
            (fd < 0 ? std::strerror(errno) : "not a regular file");
    if (fd >= 0)
      ::close(fd);
    return nullptr;
  }
  std::FILE *file = ::fdopen(fd, "rb");
  if (!file) {
    error = path + ": cannot open: " + std::strerror(errno);
    ::close(fd);
    return nullptr;
  }
  return std::unique_ptr<Utf8LineReader>(
      new Utf8LineReader(file, path, uint64_t(info.st_size)));
}

Utf8LineReader::~Utf8LineReader() { std::fclose(file_); }

bool Utf8LineReader::next(std::string &line, std::string &error,
                          uint64_t keep) {
  line.clear();
  uint64_t length = 0; // of the line, with its "\r" if any
  bool any = false, ended = false;
  while (!ended) {
    if (at_ == filled_) { // the next block
      at_ = 0;
      filled_ = std::fread(block_.data(), 1, block_.size(), file_);
      if (filled_ == 0) {
        if (std::ferror(file_)) {
          error = path_ + ": cannot read: " + std::strerror(errno);
          return false;
        }
        break; // the end of the file
      }
    }
    any = true;
    const char *from = block_.data() + at_;
    const void *newline = std::memchr(from, '\n', filled_ - at_);
    size_t count = newline ? static_cast<const char *>(newline) - from
                           : filled_ - at_;
    if (length < keep)
      line.append(from, std::min<uint64_t>(count, keep - length));
    length += count;
    at_ += count + (newline ? 1 : 0);
    bytesRead_ += count + (newline ? 1 : 0);
    ended = newline != nullptr;
  }
  if (!any)
    return false;
  ++lines_;
  if (length > keep)
    return true; // left out by the caller: not checked
  line.resize(withoutLineEnd(line).size());
  return checkLine(line, path_, lines_, error);
}

} // namespace tc::support
