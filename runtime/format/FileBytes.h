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

} // namespace tc::tcx

#endif // TC_RUNTIME_FORMAT_FILEBYTES_H
