//===- FileBytes.cpp - a whole file in memory ------------------------------===//

#include "support/FileBytes.h"

#include <fstream>
#include <iterator>

namespace tc::support {

std::optional<std::vector<uint8_t>> readFileBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

} // namespace tc::support
