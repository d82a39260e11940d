//===- KernelCache.h - compiled kernels kept between tc-compile runs -------===//
//
// Host shared objects and CUDA CUBIN/PTX are kept in the cache directory
// (support/CacheDirectory.h: $TC_CACHE_DIR, ...) under a key: a hash
// of everything that decides the bytes (compiler and options, source). An
// entry counts only with its checksum beside it, written last, so a build
// cut short or a damaged file is rebuilt; entries are written under a unique
// name and renamed into place, so concurrent builds never see half a file.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_EXPORT_KERNELCACHE_H
#define TC_COMPILER_EXPORT_KERNELCACHE_H

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tc {

class KernelCache {
public:
  /// The cache's "kernels" directory, created if missing; none with `error`.
  static std::optional<KernelCache> open(std::string &error);

  /// The key of a build whose output `text` decides.
  static std::string keyOf(const std::string &text);

  /// The bytes stored under `name` ("<key>.so"), if present and intact.
  std::optional<std::vector<uint8_t>> find(const std::string &name) const;
  /// Stores `bytes` under `name`; false with `error` when it cannot.
  bool store(const std::string &name, const std::vector<uint8_t> &bytes,
             std::string &error) const;

  const std::filesystem::path &directory() const { return directory_; }

private:
  std::filesystem::path directory_;
};

} // namespace tc

#endif // TC_COMPILER_EXPORT_KERNELCACHE_H
