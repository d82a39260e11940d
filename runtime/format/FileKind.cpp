//===- FileKind.cpp - which of tc's files a file is ------------------------===//

#include "runtime/format/FileKind.h"
#include "runtime/format/TokenFile.h"

namespace tc::rt {

std::optional<std::string> tcFileKind(const uint8_t *data, size_t size) {
  auto startsWith = [&](std::string_view magic) {
    return size >= magic.size() &&
           std::string_view(reinterpret_cast<const char *>(data),
                            magic.size()) == magic;
  };
  if (startsWith(kCheckpointMagic))
    return "a checkpoint (written by tc-run train or average; it goes with "
           "its executable: --checkpoint CK)";
  if (startsWith(kTokenFileMagic))
    return "a token file (written by tc-run prepare; it goes to --data)";
  // A zip archive's local file header: tc-run export's .npz.
  if (startsWith(std::string_view("PK\x03\x04", 4)))
    return "a zip archive, such as tc-run export's .npz (parameters for "
           "tc-run train --init)";
  return std::nullopt;
}

} // namespace tc::rt
