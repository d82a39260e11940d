//===- KernelLibrary.cpp - the host kernels of an executable, loaded -------===//

#include "runtime/cpu/KernelLibrary.h"
#include "runtime/format/KernelSignature.h"
#include "runtime/format/TcxFile.h"
#include "support/AtomicFile.h"
#include "support/CacheDirectory.h"
#include "support/FileBytes.h"
#include "support/HostCpu.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <iterator>
#include <vector>

namespace fs = std::filesystem;

namespace tc::rt {
namespace {

/// Whether the file at `path` holds exactly `size` bytes equal to `data`.
bool sameBytes(const fs::path &path, const uint8_t *data, size_t size) {
  std::string ignored;
  std::optional<std::vector<uint8_t>> bytes =
      support::readFileBytes(path, size, ignored);
  return bytes && bytes->size() == size &&
         std::memcmp(bytes->data(), data, size) == 0;
}

} // namespace

std::unique_ptr<KernelLibrary> KernelLibrary::load(const Executable &executable,
                                                   std::string &error) {
  const tcx::CodeModule *host = nullptr;
  if (executable.root().code())
    for (const tcx::CodeModule *module : *executable.root().code())
      if (module->kind() == tcx::CodeKind::Host)
        host = module;
  if (!host || !host->binary()) {
    error = "the executable has no host code; compile it with "
            "tc-compile --target=cpu";
    return nullptr;
  }
  // Refuse code this CPU cannot run (an illegal instruction later would
  // kill the run without a word).
  std::string level = host->host_level()->str();
  if (!support::cpuSupports(level)) {
    error = "the executable's host code was compiled for " + level +
            ", which this CPU does not support (it has " +
            support::hostCpuLevel() +
            "); recompile it on this machine, or with tc-compile --cpu=" +
            support::hostCpuLevel();
    return nullptr;
  }
  const auto *binary = host->binary();
  uint64_t sum = tcx::checksum(binary->data(), binary->size());
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.so", (unsigned long long)sum);
  std::string directory;
  if (!support::cacheDirectory("loaded", directory, error))
    return nullptr;
  fs::path object = fs::path(directory) / name;
  // An entry is used only if its bytes are the module's (a full disk or a
  // crash may have left a bad one); otherwise it is written again.
  if (!sameBytes(object, binary->data(), binary->size()) &&
      !support::writeFileAtomically(object.string(), binary->data(),
                                    binary->size(), error)) {
    error += " (is the disk full?); set TC_CACHE_DIR to a writable directory "
             "with space";
    return nullptr;
  }
  void *handle = dlopen(object.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    error = std::string("cannot load the host kernels: ") + dlerror();
    return nullptr;
  }
  std::unique_ptr<KernelLibrary> library(new KernelLibrary);
  if (executable.root().kernels())
    for (const tcx::Kernel *kernel : *executable.root().kernels()) {
      void *symbol = dlsym(handle, kernel->name()->c_str());
      if (!symbol) {
        error = "the host code has no kernel '" + kernel->name()->str() +
                "'; rebuild the executable with tc-compile";
        return nullptr;
      }
      // Bound by name, checked by signature: the code must have been
      // compiled for the types the kernel table (and so every verified
      // launch) gives it.
      const char *declared = static_cast<const char *>(dlsym(
          handle, tcx::kernelSignatureSymbol(kernel->name()->str()).c_str()));
      std::string expected = tcx::kernelSignature(*kernel);
      if (!declared || expected != declared) {
        error = "the host code of kernel '" + kernel->name()->str() + "' " +
                (declared ? "was compiled for " + std::string(declared)
                          : std::string("declares no signature")) +
                ", but the kernel table gives it " + expected +
                "; the executable is inconsistent, rebuild it with tc-compile";
        return nullptr;
      }
      library->kernels_.push_back(reinterpret_cast<HostKernel>(symbol));
    }
  return library;
}

} // namespace tc::rt
