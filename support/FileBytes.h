//===- FileBytes.h - a whole file in memory --------------------------------===//

#ifndef TC_SUPPORT_FILEBYTES_H
#define TC_SUPPORT_FILEBYTES_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tc::support {

/// The bytes of the file at `path`, or none when it cannot be read.
std::optional<std::vector<uint8_t>> readFileBytes(const std::string &path);

} // namespace tc::support

#endif // TC_SUPPORT_FILEBYTES_H
