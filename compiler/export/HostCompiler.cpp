//===- HostCompiler.cpp - generated host C++ -> a shared object, cached ----===//

#include "compiler/export/HostCompiler.h"
#include "runtime/format/CacheDirectory.h"
#include "runtime/format/TcxFile.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace tc {
namespace {

/// -ffp-contract=off: no fused multiply-adds the interpreter would not do,
/// so results stay within a few ulps of it.
constexpr const char *kCompileFlags =
    "-std=c++20 -O3 -fPIC -fopenmp -ffp-contract=off";
constexpr const char *kLinkFlags = "-shared -fopenmp";

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

/// `path` quoted for the shell.
std::string quoted(const fs::path &path) {
  std::string text = "'";
  for (char c : path.string())
    text += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return text + "'";
}

/// Runs `command`, its output going to `log`; the output when it fails.
std::optional<std::string> run(const std::string &command, const fs::path &log) {
  int status = std::system((command + " > " + quoted(log) + " 2>&1").c_str());
  std::string messages = readFile(log);
  std::error_code ignored;
  fs::remove(log, ignored);
  if (status == 0)
    return std::nullopt;
  return messages.substr(0, 4000);
}

} // namespace

std::optional<HostBuild> compileHostSource(const std::string &prelude,
                                           const std::vector<std::string> &kernels,
                                           std::string &error) {
  const char *cxx = std::getenv("CXX");
  std::string compiler = cxx && *cxx ? cxx : "c++";
  HostBuild build;
  build.command = compiler + " " + kCompileFlags + " " + kLinkFlags;
  std::string keyText = build.command + "\n" + prelude;
  for (const std::string &kernel : kernels)
    keyText += "\n" + kernel;
  std::string key = hex(tcx::checksum(
      reinterpret_cast<const uint8_t *>(keyText.data()), keyText.size()));
  std::string directory;
  if (!tcx::cacheDirectory("kernels", directory, error))
    return std::nullopt;
  fs::path dir = directory;
  fs::path object = dir / (key + ".so"), sum = dir / (key + ".sum");
  // A cache entry counts only with its checksum beside it (written last):
  // a build cut short or a damaged file is rebuilt.
  {
    std::string bytes = readFile(object);
    if (!bytes.empty() &&
        readFile(sum) == hex(tcx::checksum(
                             reinterpret_cast<const uint8_t *>(bytes.data()),
                             bytes.size()))) {
      build.sharedObject.assign(bytes.begin(), bytes.end());
      build.cached = true;
      return build;
    }
  }
  // One translation unit per core, compiled in parallel, then linked;
  // everything is built beside the cache entry under a unique name and
  // renamed into place, so concurrent builds never see half an object.
  unsigned jobs = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(),
                                                  kernels.size()));
  std::string unique = key + "." + std::to_string(getpid());
  std::vector<fs::path> sources, objects;
  for (unsigned j = 0; j < jobs; ++j) {
    std::string source = prelude;
    for (size_t k = j; k < kernels.size(); k += jobs)
      source += "\n" + kernels[k];
    sources.push_back(dir / (unique + "." + std::to_string(j) + ".cpp"));
    objects.push_back(dir / (unique + "." + std::to_string(j) + ".o"));
    std::ofstream(sources.back()) << source;
  }
  std::vector<std::future<std::optional<std::string>>> compiles;
  for (unsigned j = 0; j < jobs; ++j)
    compiles.push_back(std::async(std::launch::async, [&, j] {
      return run(compiler + " " + kCompileFlags + " -c -o " +
                     quoted(objects[j]) + " " + quoted(sources[j]),
                 objects[j].string() + ".log");
    }));
  std::optional<std::string> failure;
  for (unsigned j = 0; j < jobs; ++j)
    if (std::optional<std::string> messages = compiles[j].get(); messages && !failure)
      failure = "the C++ compiler failed on the generated kernels (" +
                sources[j].string() + ", kept): " + compiler + " " +
                kCompileFlags + "\n" + *messages;
  fs::path temporary = dir / (unique + ".so.tmp");
  if (!failure) {
    std::string link = compiler + " " + kLinkFlags + " -o " + quoted(temporary);
    for (const fs::path &o : objects)
      link += " " + quoted(o);
    if (std::optional<std::string> messages = run(link, dir / (unique + ".log")))
      failure = "linking the generated kernels failed: " + link + "\n" + *messages;
  }
  std::error_code ignored;
  for (unsigned j = 0; j < jobs; ++j) {
    fs::remove(objects[j], ignored);
    if (!failure)
      fs::remove(sources[j], ignored);
  }
  if (failure) {
    fs::remove(temporary, ignored);
    error = *failure;
    return std::nullopt;
  }
  std::string bytes = readFile(temporary);
  std::error_code ec;
  fs::rename(temporary, object, ec);
  std::ofstream(sum) << hex(tcx::checksum(
      reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
  if (ec || bytes.empty()) {
    error = "cannot store the compiled kernels in " + object.string() +
            (ec ? ": " + ec.message() : std::string(": empty output"));
    return std::nullopt;
  }
  build.sharedObject.assign(bytes.begin(), bytes.end());
  return build;
}

} // namespace tc
