//===- Plugin.cpp - loading tc-run's plug-ins -------------------------------===//

#include "runtime/Plugin.h"

#include <dlfcn.h>
#include <filesystem>

namespace tc::rt {

void *loadPlugin(const std::string &fileName, const char *symbol,
                 const std::string &what, const std::string &missing,
                 std::string &error) {
  std::error_code ec;
  std::filesystem::path self =
      std::filesystem::read_symlink("/proc/self/exe", ec);
  std::string path =
      (self.parent_path().parent_path() / "lib" / fileName).string();
  if (!std::filesystem::exists(path)) {
    error = "this tc-run has no " + what + " (" + path + " is missing: " +
            missing + ")";
    return nullptr;
  }
  // Loaded for good: the libraries' own threads may outlive their objects.
  void *plugin = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!plugin) {
    error = "cannot load the " + what + " " + path + ": " + dlerror();
    return nullptr;
  }
  void *entry = dlsym(plugin, symbol);
  if (!entry)
    error = path + " is not tc's " + what + " plug-in (no " + symbol + ")";
  return entry;
}

} // namespace tc::rt
