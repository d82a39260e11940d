//===- CacheDirectory.cpp - where compiled kernels are kept ---------------===//

#include "support/CacheDirectory.h"

#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace fs = std::filesystem;

namespace tc::support {

bool cacheDirectory(const std::string &name, std::string &directory,
                    std::string &error) {
  fs::path dir;
  if (const char *env = std::getenv("TC_CACHE_DIR"); env && *env)
    dir = env;
  else if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    dir = fs::path(xdg) / "tc";
  else if (const char *home = std::getenv("HOME"); home && *home)
    dir = fs::path(home) / ".cache" / "tc";
  else // per user: another user cannot plant code in it
    dir = fs::temp_directory_path() / ("tc-cache-" + std::to_string(getuid()));
  std::error_code ec;
  fs::create_directories(dir / name, ec);
  if (ec || !fs::is_directory(dir / name)) {
    error = "cannot create the kernel cache directory " +
            (dir / name).string() + ": " +
            (ec ? ec.message() : std::string("not a directory")) +
            "; set TC_CACHE_DIR to a writable directory";
    return false;
  }
  directory = (dir / name).string();
  return true;
}

} // namespace tc::support
