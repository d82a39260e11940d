//===- HostCompiler.cpp - generated host C++ -> a shared object, cached ----===//

#include "compiler/export/HostCompiler.h"
#include "compiler/export/KernelCache.h"
#include "runtime/format/TcxFile.h"
#include "support/ChildProcess.h"
#include "support/FileBytes.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace tc {
namespace {

/// -ffp-contract=off: no fused multiply-adds the interpreter would not do,
/// so results stay within a few ulps of it. -fno-trapping-math: loops with
/// selects and floor vectorise (tc reads no floating-point exception flags;
/// values are unchanged). -fno-math-errno: std::sqrt becomes the instruction
/// alone, with no branch to set errno (which tc never reads), so loops with
/// it vectorise (Adam's).
constexpr const char *kCompileFlags = "-std=c++20 -O3 -fPIC -fopenmp "
                                      "-ffp-contract=off -fno-trapping-math "
                                      "-fno-math-errno";
constexpr const char *kLinkFlags = "-shared -fopenmp";

/// `path` quoted for the shell.
std::string quoted(const fs::path &path) {
  std::string text = "'";
  for (char c : path.string())
    text += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return text + "'";
}

/// Runs `command`, its output going to `log`; the output when it fails.
/// The compiler dies with tc-compile (support/ChildProcess.h).
std::optional<std::string> run(const std::string &command,
                               const fs::path &log) {
  int status = support::runShellCommand(command, log.string());
  std::string why;
  std::string messages =
      support::readFileText(log.string(), 64 * support::kMiB, why)
          .value_or(why);
  std::error_code ignored;
  fs::remove(log, ignored);
  if (status == 0)
    return std::nullopt;
  return messages.substr(0, 4000);
}

} // namespace

std::optional<HostBuild>
compileHostSource(const std::string &prelude,
                  const std::vector<std::string> &kernels,
                  const std::string &cpuLevel, std::string &error) {
  const char *cxx = std::getenv("CXX");
  std::string compiler = cxx && *cxx ? cxx : "c++";
  std::string flags = std::string(kCompileFlags) + " -march=" + cpuLevel;
  HostBuild build;
  build.command = compiler + " " + flags + " " + kLinkFlags;
  std::string keyText = build.command + "\n" + prelude;
  for (const std::string &kernel : kernels)
    keyText += "\n" + kernel;
  std::string key = KernelCache::keyOf(keyText);
  std::optional<KernelCache> cache = KernelCache::open(error);
  if (!cache)
    return std::nullopt;
  fs::path dir = cache->directory();
  if (std::optional<std::vector<uint8_t>> bytes = cache->find(key + ".so")) {
    build.sharedObject = std::move(*bytes);
    build.cached = true;
    return build;
  }
  // One translation unit per core, compiled in parallel, then linked, in
  // the cache directory under names of this process's own.
  unsigned jobs =
      std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(),
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
      return run(compiler + " " + flags + " -c -o " + quoted(objects[j]) + " " +
                     quoted(sources[j]),
                 objects[j].string() + ".log");
    }));
  std::optional<std::string> failure;
  for (unsigned j = 0; j < jobs; ++j)
    if (std::optional<std::string> messages = compiles[j].get();
        messages && !failure)
      failure = "the C++ compiler failed on the generated kernels (" +
                sources[j].string() + ", kept): " + compiler + " " + flags +
                "\n" + *messages;
  fs::path temporary = dir / (unique + ".so.tmp");
  if (!failure) {
    std::string link = compiler + " " + kLinkFlags + " -o " + quoted(temporary);
    for (const fs::path &o : objects)
      link += " " + quoted(o);
    if (std::optional<std::string> messages =
            run(link, dir / (unique + ".log")))
      failure =
          "linking the generated kernels failed: " + link + "\n" + *messages;
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
  std::string why;
  std::optional<std::vector<uint8_t>> bytes =
      support::readFileBytes(temporary.string(), tcx::kMaxFileBytes, why);
  fs::remove(temporary, ignored);
  if (!bytes || bytes->empty()) {
    error = "the linker left no kernels in " + temporary.string() +
            (why.empty() ? "" : ": " + why);
    return std::nullopt;
  }
  if (!cache->store(key + ".so", *bytes, error))
    return std::nullopt;
  build.sharedObject = std::move(*bytes);
  return build;
}

} // namespace tc
