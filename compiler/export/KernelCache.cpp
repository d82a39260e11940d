//===- KernelCache.cpp - compiled kernels kept between tc-compile runs -----===//

#include "compiler/export/KernelCache.h"
#include "runtime/format/TcxFile.h"
#include "support/AtomicFile.h"
#include "support/CacheDirectory.h"
#include "support/FileBytes.h"

#include <cstdio>
#include <fstream>

namespace fs = std::filesystem;

namespace tc {
namespace {

std::string hex(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", (unsigned long long)value);
  return text;
}

std::string checksumOf(const std::vector<uint8_t> &bytes) {
  return hex(tcx::checksum(bytes.data(), bytes.size()));
}

} // namespace

std::optional<KernelCache> KernelCache::open(std::string &error) {
  std::string directory;
  if (!support::cacheDirectory("kernels", directory, error))
    return std::nullopt;
  KernelCache cache;
  cache.directory_ = directory;
  return cache;
}

std::string KernelCache::keyOf(const std::string &text) {
  return hex(tcx::checksum(reinterpret_cast<const uint8_t *>(text.data()),
                           text.size()));
}

std::optional<std::vector<uint8_t>>
KernelCache::find(const std::string &name) const {
  // A miss, whatever the reason: the entry is built again.
  std::string ignored;
  std::optional<std::vector<uint8_t>> bytes = support::readFileBytes(
      (directory_ / name).string(), tcx::kMaxFileBytes, ignored);
  std::optional<std::vector<uint8_t>> sum = support::readFileBytes(
      (directory_ / (name + ".sum")).string(), 64, ignored);
  if (!bytes || bytes->empty() || !sum ||
      std::string(sum->begin(), sum->end()) != checksumOf(*bytes))
    return std::nullopt;
  return bytes;
}

bool KernelCache::store(const std::string &name,
                        const std::vector<uint8_t> &bytes,
                        std::string &error) const {
  std::string target = (directory_ / name).string();
  if (!support::writeFileAtomically(target, bytes.data(), bytes.size(),
                                    error)) {
    error = "cannot store the compiled kernels: " + error +
            " (is the disk full? set TC_CACHE_DIR to a writable directory)";
    return false;
  }
  std::ofstream(directory_ / (name + ".sum")) << checksumOf(bytes);
  return true;
}

} // namespace tc
