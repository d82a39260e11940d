//===- FileBytes.cpp - a whole file in memory, bounded ---------------------===//

#include "support/FileBytes.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tc::support {
namespace {

/// Whether `info` is of a regular file of at most `maxBytes`; otherwise
/// `error` says why.
bool isReadableInput(const std::string &path, const struct stat &info,
                     uint64_t maxBytes, std::string &error) {
  if (S_ISDIR(info.st_mode)) {
    error = path + ": is a directory; give the path of a file";
    return false;
  }
  if (!S_ISREG(info.st_mode)) {
    error = path + ": is not a regular file (a device, FIFO or socket); "
                   "give the path of a file";
    return false;
  }
  if (uint64_t(info.st_size) > maxBytes) {
    error = path + ": is " + byteCount(uint64_t(info.st_size)) +
            ", larger than the " + byteCount(maxBytes) +
            " such a file may have";
    return false;
  }
  return true;
}

/// One read(2) of at most `size` bytes into `into`, retried when a signal
/// interrupts it; -1 with `error` naming `path` when it fails.
ssize_t readSome(const std::string &path, int fd, void *into, size_t size,
                 std::string &error) {
  while (true) {
    ssize_t got = ::read(fd, into, size);
    if (got >= 0 || errno != EINTR) {
      if (got < 0)
        error = path + ": cannot read: " + std::strerror(errno);
      return got;
    }
  }
}

/// Reads what `fd` (of `path`) holds until its end into `out`: a file of
/// /proc states a size of 0 whatever it holds.
template <typename Container>
bool readToEnd(const std::string &path, int fd, uint64_t maxBytes,
               Container &out, std::string &error) {
  char block[1 << 16];
  while (true) {
    ssize_t got = readSome(path, fd, block, sizeof block, error);
    if (got < 0)
      return false;
    if (got == 0)
      return true;
    if (out.size() + uint64_t(got) > maxBytes) {
      error = path + ": is larger than the " + byteCount(maxBytes) +
              " such a file may have";
      return false;
    }
    out.insert(out.end(), block, block + got);
  }
}

/// Reads the regular file at `path` into `out` (a vector or a string).
template <typename Container>
bool readInto(const std::string &path, uint64_t maxBytes, Container &out,
              std::string &error) {
  // The type first, so that a device or a socket is never opened; then
  // O_NONBLOCK: opening a FIFO put there since must not wait for a writer
  // (it is refused below); reads of a regular file ignore the flag.
  if (!checkInputFile(path, maxBytes, error))
    return false;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    int why = errno;
    error = path + ": cannot open: " + std::strerror(why);
    return false;
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat info;
  if (::fstat(fd, &info) != 0) {
    int why = errno;
    error = path + ": cannot read: " + std::strerror(why);
    return false;
  }
  if (!isReadableInput(path, info, maxBytes, error))
    return false;
  uint64_t size = uint64_t(info.st_size);
  out.resize(size);
  uint64_t done = 0;
  while (done < size) {
    ssize_t got = readSome(path, fd, out.data() + done, size - done, error);
    if (got < 0)
      return false;
    if (got == 0) {
      error = path + ": changed while it was read (it shrank); try again";
      return false;
    }
    done += uint64_t(got);
  }
  if (size == 0)
    return readToEnd(path, fd, maxBytes, out, error);
  return true;
}

} // namespace

bool checkInputFile(const std::string &path, uint64_t maxBytes,
                    std::string &error) {
  struct stat info;
  if (::stat(path.c_str(), &info) != 0) {
    int why = errno;
    error = path + ": cannot open: " + std::strerror(why);
    return false;
  }
  return isReadableInput(path, info, maxBytes, error);
}

std::optional<std::vector<uint8_t>>
readFileBytes(const std::string &path, uint64_t maxBytes, std::string &error) {
  std::vector<uint8_t> bytes;
  if (!readInto(path, maxBytes, bytes, error))
    return std::nullopt;
  return bytes;
}

std::optional<std::string> readFileText(const std::string &path,
                                        uint64_t maxBytes, std::string &error) {
  std::string text;
  if (!readInto(path, maxBytes, text, error))
    return std::nullopt;
  return text;
}

std::optional<std::string> readFilePrefix(const std::string &path,
                                          size_t bytes) {
  struct stat info;
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
    return std::nullopt;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0)
    return std::nullopt;
  std::string start(bytes, '\0');
  ssize_t got = ::pread(fd, start.data(), start.size(), 0);
  ::close(fd);
  if (got < 0)
    return std::nullopt;
  start.resize(size_t(got));
  return start;
}

bool fileStartsWith(const std::string &path, std::string_view prefix) {
  std::optional<std::string> start = readFilePrefix(path, prefix.size());
  return start && *start == prefix;
}

std::string byteCount(uint64_t bytes) {
  if (bytes < kKiB)
    return std::to_string(bytes) + " bytes";
  const char *unit = bytes >= kGiB ? "GiB" : bytes >= kMiB ? "MiB" : "KiB";
  uint64_t scale = bytes >= kGiB ? kGiB : bytes >= kMiB ? kMiB : kKiB;
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", double(bytes) / double(scale),
                unit);
  return text;
}

std::optional<std::string> readTextOrStandardInput(const std::string &path,
                                                   uint64_t maxBytes,
                                                   std::string &error) {
  if (path != "-")
    return readFileText(path, maxBytes, error);
  std::string text;
  char buffer[1 << 16];
  while (size_t got = std::fread(buffer, 1, sizeof buffer, stdin)) {
    text.append(buffer, got);
    if (text.size() > maxBytes) {
      error = "standard input: is larger than " + byteCount(maxBytes) +
              ", the largest text tc reads there";
      return std::nullopt;
    }
  }
  if (std::ferror(stdin)) {
    error = "standard input: cannot read";
    return std::nullopt;
  }
  return text;
}

} // namespace tc::support
