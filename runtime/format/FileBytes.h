//===- FileBytes.h - a whole file in memory --------------------------------===//

#ifndef TC_RUNTIME_FORMAT_FILEBYTES_H
#define TC_RUNTIME_FORMAT_FILEBYTES_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tc::tcx {

/// The bytes of the file at `path`, or none when it cannot be opened.
std::optional<std::vector<uint8_t>> readFileBytes(const std::string &path);

/// Writes `size` bytes to `path` whole or not at all: into a temporary of
/// this process's beside it, renamed into place (readers, and concurrent
/// writers of the same bytes, never see half a file). False with `error`
/// naming the file and why.
bool writeFileAtomically(const std::string &path, const uint8_t *data,
                         size_t size, std::string &error);

} // namespace tc::tcx

#endif // TC_RUNTIME_FORMAT_FILEBYTES_H
