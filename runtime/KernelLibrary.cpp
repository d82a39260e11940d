//===- KernelLibrary.cpp - the host kernels of an executable, loaded -------===//

#include "runtime/KernelLibrary.h"
#include "runtime/format/CacheDirectory.h"
#include "runtime/format/TcxFile.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace tc::rt {

std::unique_ptr<KernelLibrary> KernelLibrary::load(const Executable &executable,
                                                   std::string &error) {
  const tcx::CodeModule *host = nullptr;
  if (executable.root().code())
    for (const tcx::CodeModule *module : *executable.root().code())
      if (module->target() && module->target()->str().starts_with("host"))
        host = module;
  if (!host || !host->binary()) {
    error = "the executable has no host code; compile it with "
            "tc-compile --target=cpu";
    return nullptr;
  }
  const auto *binary = host->binary();
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.so",
                (unsigned long long)tcx::checksum(binary->data(), binary->size()));
  fs::path dir = tcx::cacheDirectory("loaded");
  std::error_code ec;
  fs::path object = dir / name;
  if (!fs::exists(object)) { // write once, atomically
    fs::path temporary = dir / (std::string(name) + "." +
                                std::to_string(getpid()) + ".tmp");
    std::ofstream(temporary, std::ios::binary)
        .write(reinterpret_cast<const char *>(binary->data()), binary->size());
    fs::rename(temporary, object, ec);
    if (ec) {
      error = "cannot write the kernels to " + object.string() + ": " +
              ec.message() + " (set TC_CACHE_DIR to a writable directory)";
      return nullptr;
    }
  }
  void *handle = dlopen(object.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    error = std::string("cannot load the host kernels: ") + dlerror();
    return nullptr;
  }
  std::unique_ptr<KernelLibrary> library(new KernelLibrary);
  for (const tcx::Kernel *kernel : *executable.root().kernels()) {
    void *symbol = dlsym(handle, kernel->name()->c_str());
    if (!symbol) {
      error = "the host code has no kernel '" + kernel->name()->str() +
              "'; rebuild the executable with tc-compile";
      return nullptr;
    }
    library->kernels_.push_back(reinterpret_cast<HostKernel>(symbol));
  }
  return library;
}

} // namespace tc::rt
