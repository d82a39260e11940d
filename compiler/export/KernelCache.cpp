//===- KernelCache.cpp - compiled kernels kept between tc-compile runs -----===//

#include "compiler/export/KernelCache.h"
#include "runtime/format/TcxFile.h"
#include "support/AtomicFile.h"
#include "support/CacheDirectory.h"
#include "support/FileBytes.h"

#include "support/ChildProcess.h"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <unistd.h>

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

/// Removes what builds of processes that have gone left in `directory`: a
/// build's files are named "<key>.<pid>.<...>" (HostCompiler.cpp) and
/// removed when it ends, but not by a tool killed during it. Only files an
/// hour old: another machine's build in a shared cache directory has a pid
/// that is not running here.
void removeDeadBuilds(const fs::path &directory) {
  std::error_code ec;
  auto hourAgo = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (const auto &entry : fs::directory_iterator(directory, ec)) {
    std::string name = entry.path().filename().string();
    size_t first = name.find('.');
    size_t second = name.find('.', first + 1);
    if (first == std::string::npos || second == std::string::npos ||
        second == first + 1)
      continue;
    std::string_view digits(name.data() + first + 1, second - first - 1);
    pid_t pid = 0;
    auto [end, failed] =
        std::from_chars(digits.data(), digits.data() + digits.size(), pid);
    if (failed != std::errc() || end != digits.data() + digits.size() ||
        pid == ::getpid() || support::processRunning(pid))
      continue;
    std::error_code ignored;
    if (entry.is_regular_file(ignored) &&
        fs::last_write_time(entry.path(), ignored) < hourAgo)
      fs::remove(entry.path(), ignored);
  }
}

} // namespace

std::optional<KernelCache> KernelCache::open(std::string &error) {
  std::string directory;
  if (!support::cacheDirectory("kernels", directory, error))
    return std::nullopt;
  KernelCache cache;
  cache.directory_ = directory;
  removeDeadBuilds(cache.directory_);
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
