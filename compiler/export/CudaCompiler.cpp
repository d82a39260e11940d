//===- CudaCompiler.cpp - the CUDA kernels of an executable, compiled ------===//

#include "compiler/export/CudaCompiler.h"

#ifdef TC_HAVE_NVRTC
#include "compiler/export/KernelCache.h"
#include "compiler/export/Nvrtc.h"
#include "runtime/format/Contract.h"

#include <algorithm>
#include <future>
#include <thread>
#endif

namespace tc {

#ifdef TC_HAVE_NVRTC

bool haveCudaCompiler() { return true; }

std::vector<unsigned> cudaCompilerArchitectures() {
  return nvrtcArchitectures();
}

std::optional<std::vector<CudaModule>> compileCudaModules(
    const std::string &prelude, const std::vector<std::string> &kernels,
    const std::vector<unsigned> &architectures, std::string &error) {
  // CUBIN for each architecture, PTX for the newest.
  std::vector<CudaModule> targets;
  for (unsigned arch : architectures)
    targets.push_back({arch, false, {}, {}});
  targets.push_back(
      {*std::max_element(architectures.begin(), architectures.end()),
       true,
       {},
       {}});
  std::optional<KernelCache> cache = KernelCache::open(error);
  if (!cache)
    return std::nullopt;
  unsigned parts =
      std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(),
                                      kernels.size()));
  // Each (target, part) is one NVRTC run, cached on its own.
  std::vector<std::future<std::optional<CudaModule>>> builds;
  std::vector<std::string> errors(targets.size() * parts);
  for (size_t t = 0; t < targets.size(); ++t)
    for (unsigned part = 0; part < parts; ++part)
      builds.push_back(std::async(
          std::launch::async, [&, t, part]() -> std::optional<CudaModule> {
            std::string source = prelude;
            for (size_t k = part; k < kernels.size(); k += parts)
              source += "\n" + kernels[k];
            std::string arch =
                contract::cudaArchitectureName(targets[t].arch, targets[t].ptx);
            std::string identity = cudaCompilerIdentity(arch);
            std::string name = KernelCache::keyOf(identity + "\n" + source) +
                               "." + arch +
                               (targets[t].ptx ? ".ptx" : ".cubin");
            CudaModule module = targets[t];
            module.options = identity.substr(0, identity.find('\n'));
            if (std::optional<std::vector<uint8_t>> bytes = cache->find(name)) {
              module.binary = std::move(*bytes);
              return module;
            }
            std::string &partError = errors[t * parts + part];
            std::optional<CudaBinary> binary =
                compileCuda(source, arch, partError);
            if (!binary)
              return std::nullopt;
            if (binary->ptx.empty())
              module.binary.assign(binary->cubin.begin(), binary->cubin.end());
            else
              module.binary.assign(binary->ptx.begin(), binary->ptx.end());
            if (!cache->store(name, module.binary, partError))
              return std::nullopt;
            return module;
          }));
  std::vector<CudaModule> modules;
  for (size_t b = 0; b < builds.size(); ++b) {
    std::optional<CudaModule> module = builds[b].get();
    if (!module) {
      if (error.empty())
        error = errors[b];
      continue;
    }
    modules.push_back(std::move(*module));
  }
  if (!error.empty())
    return std::nullopt;
  return modules;
}

#else

bool haveCudaCompiler() { return false; }

std::vector<unsigned> cudaCompilerArchitectures() { return {}; }

std::optional<std::vector<CudaModule>>
compileCudaModules(const std::string &, const std::vector<std::string> &,
                   const std::vector<unsigned> &, std::string &error) {
  error = "this tc-compile was built without the CUDA toolkit (NVRTC); "
          "install it and rebuild to use --target=cuda";
  return std::nullopt;
}

#endif

} // namespace tc
