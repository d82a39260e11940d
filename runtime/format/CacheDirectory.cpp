//===- CacheDirectory.cpp - where compiled kernels are kept ---------------===//

#include "runtime/format/CacheDirectory.h"

#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;

namespace tc::tcx {

std::string cacheDirectory(const std::string &name) {
  fs::path dir;
  if (const char *env = std::getenv("TC_CACHE_DIR"); env && *env)
    dir = env;
  else if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    dir = fs::path(xdg) / "tc";
  else if (const char *home = std::getenv("HOME"); home && *home)
    dir = fs::path(home) / ".cache" / "tc";
  else
    dir = fs::temp_directory_path() / "tc-cache";
  std::error_code ignored;
  fs::create_directories(dir / name, ignored);
  return (dir / name).string();
}

} // namespace tc::tcx
