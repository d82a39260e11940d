//===- FileBytes.h - a whole file in memory, bounded -----------------------===//
//
// Every input tc reads whole goes through here: only a regular file is read
// (a directory, a device such as /dev/zero, a FIFO or a socket is refused
// before anything is read or waited for), and only up to a size limit that
// the caller states for that kind of file.
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_FILEBYTES_H
#define TC_SUPPORT_FILEBYTES_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tc::support {

constexpr uint64_t kKiB = 1024, kMiB = 1024 * kKiB, kGiB = 1024 * kMiB;

/// The bytes of the regular file at `path`, or none with `error` saying
/// "<path>: <why>" (missing, unreadable, a directory, not a regular file,
/// larger than `maxBytes`).
std::optional<std::vector<uint8_t>>
readFileBytes(const std::string &path, uint64_t maxBytes, std::string &error);

/// The same, as text.
std::optional<std::string> readFileText(const std::string &path,
                                        uint64_t maxBytes, std::string &error);

/// The same, or for `path` "-" standard input, read whole up to
/// `maxBytes` (error "standard input: ...").
std::optional<std::string> readTextOrStandardInput(const std::string &path,
                                                   uint64_t maxBytes,
                                                   std::string &error);

/// The same checks without reading, for a file that a library (MLIR's
/// parser) opens itself.
bool checkInputFile(const std::string &path, uint64_t maxBytes,
                    std::string &error);

/// The first `bytes` bytes of the regular file at `path` (fewer when it is
/// shorter), or none when it is not a regular file that can be read; opening
/// never waits (a FIFO).
std::optional<std::string> readFilePrefix(const std::string &path,
                                          size_t bytes);

/// Whether the file at `path` can be read and starts with `prefix` (a
/// format's magic bytes).
bool fileStartsWith(const std::string &path, std::string_view prefix);

/// "512 bytes", "1.5 KiB", "2.0 GiB": a size for messages.
std::string byteCount(uint64_t bytes);

} // namespace tc::support

#endif // TC_SUPPORT_FILEBYTES_H
