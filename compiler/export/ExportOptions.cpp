//===- ExportOptions.cpp - the target flags' defaults and checks -----------===//

#include "compiler/export/ExportOptions.h"
#include "support/HostCpu.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

namespace tc {

bool setTarget(ExportOptions &options, Target target, const std::string &cpu,
               const std::vector<std::string> &architectures,
               std::string &error) {
  options.target = target;
  if (cpu != "native" && !llvm::is_contained(support::cpuLevels(), cpu)) {
    error = "--cpu=" + cpu +
            ": expected native, x86-64, x86-64-v2, "
            "x86-64-v3 or x86-64-v4";
    return false;
  }
  options.hostCpu = cpu == "native" ? support::hostCpuLevel() : cpu;
  options.cudaArchitectures.clear();
  if (target != Target::Cuda)
    return true;
  for (const std::string &spelled : architectures) {
    llvm::StringRef digits = spelled;
    unsigned arch = 0;
    if (!digits.consume_front("sm_") || digits.size() < 2 ||
        digits.starts_with("0") || digits.getAsInteger(10, arch)) {
      error = "--arch=" + spelled +
              ": expected a real architecture such as sm_80 or sm_90";
      return false;
    }
    options.cudaArchitectures.push_back(arch);
  }
  if (options.cudaArchitectures.empty())
    options.cudaArchitectures = {80, 90};
  return true;
}

} // namespace tc
