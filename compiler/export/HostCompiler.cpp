//===- HostCompiler.cpp - generated host C++ -> a shared object, cached ----===//

#include "compiler/export/HostCompiler.h"
#include "runtime/format/CacheDirectory.h"
#include "runtime/format/TcxFile.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace tc {
namespace {

/// -ffp-contract=off: no fused multiply-adds the interpreter would not do,
/// so results stay within a few ulps of it.
constexpr const char *kHostFlags =
    "-std=c++20 -O3 -fPIC -shared -fopenmp -ffp-contract=off";

std::string readFile(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string hex(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", (unsigned long long)value);
  return text;
}

} // namespace

std::optional<HostBuild> compileHostSource(const std::string &source,
                                           std::string &error) {
  const char *cxx = std::getenv("CXX");
  HostBuild build;
  build.command = std::string(cxx && *cxx ? cxx : "c++") + " " + kHostFlags;
  std::string keyText = build.command + "\n" + source;
  std::string key = hex(tcx::checksum(
      reinterpret_cast<const uint8_t *>(keyText.data()), keyText.size()));
  fs::path dir = tcx::cacheDirectory("kernels");
  fs::path object = dir / (key + ".so");
  if (fs::exists(object)) {
    std::string bytes = readFile(object);
    build.sharedObject.assign(bytes.begin(), bytes.end());
    build.cached = true;
    return build;
  }
  // Build beside the cache entry, then rename: concurrent builds of the
  // same kernels never see a half-written object.
  std::string unique = key + "." + std::to_string(getpid());
  fs::path cpp = dir / (key + ".cpp"), temporary = dir / (unique + ".so.tmp"),
           log = dir / (unique + ".log");
  std::ofstream(cpp) << source;
  std::string command = build.command + " -o '" + temporary.string() + "' '" +
                        cpp.string() + "' > '" + log.string() + "' 2>&1";
  int status = std::system(command.c_str());
  std::string messages = readFile(log);
  std::error_code ignored;
  fs::remove(log, ignored);
  if (status != 0) {
    fs::remove(temporary, ignored);
    error = "the C++ compiler failed on the generated kernels (" +
            cpp.string() + "): " + build.command + "\n" +
            messages.substr(0, 4000);
    return std::nullopt;
  }
  fs::rename(temporary, object);
  std::string bytes = readFile(object);
  build.sharedObject.assign(bytes.begin(), bytes.end());
  return build;
}

} // namespace tc
