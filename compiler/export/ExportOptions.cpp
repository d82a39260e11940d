//===- ExportOptions.cpp - the target flags' defaults and checks -----------===//

#include "compiler/export/ExportOptions.h"
#include "compiler/export/CudaCompiler.h"
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
    // NVRTC's own error for an architecture it lacks is a page of log.
    if (std::vector<unsigned> known = cudaCompilerArchitectures();
        !known.empty() && !llvm::is_contained(known, arch)) {
      error = "--arch=" + spelled + ": the CUDA compiler (NVRTC) builds for ";
      for (size_t i = 0; i < known.size(); ++i)
        error += (i == 0 ? "sm_" : ", sm_") + std::to_string(known[i]);
      error += " only";
      return false;
    }
    options.cudaArchitectures.push_back(arch);
  }
  if (options.cudaArchitectures.empty())
    options.cudaArchitectures = {80, 90};
  return true;
}

bool checkPrecision(const ExportOptions &options, support::Precision precision,
                    std::string &error, std::string &fix) {
  std::string name(support::nameOf(precision));
  if (options.target != Target::Cuda && support::info(precision).cudaOnly) {
    error = "precision " + name +
            " runs on CUDA only (TF32 tensor cores; no CPU computes in TF32)";
    fix = "use --precision=bf16 or --precision=f32 for the CPU, or "
          "--target=cuda";
    return false;
  }
  // Ampere (sm_80) brought the bf16 and TF32 tensor cores.
  constexpr unsigned kFirstArchWithTensorCoreTypes = 80;
  if (options.target == Target::Cuda && precision != support::Precision::F32)
    for (unsigned arch : options.cudaArchitectures)
      if (arch < kFirstArchWithTensorCoreTypes) {
        error = "precision " + name + " needs " + name +
                " tensor cores, which sm_" + std::to_string(arch) +
                " does not have (sm_80 and newer do)";
        fix = "use --arch=sm_80 or newer, or --precision=f32";
        return false;
      }
  return true;
}

} // namespace tc
