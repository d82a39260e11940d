//===- FileBytes.cpp - a whole file in memory ------------------------------===//

#include "runtime/format/FileBytes.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>

namespace tc::tcx {

std::optional<std::vector<uint8_t>> readFileBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

bool writeFileAtomically(const std::string &path, const uint8_t *data,
                         size_t size, std::string &error) {
  std::string temporary = path + "." + std::to_string(getpid()) + ".tmp";
  std::error_code ec;
  {
    std::ofstream out(temporary, std::ios::binary);
    out.write(reinterpret_cast<const char *>(data), size);
    out.close();
    if (!out)
      ec = std::make_error_code(std::errc::io_error);
  }
  if (!ec)
    std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::filesystem::remove(temporary, ec);
    error = "cannot write " + path + ": " + ec.message();
    return false;
  }
  return true;
}

} // namespace tc::tcx
