//===- Device.cpp - choosing a device --------------------------------------===//

#include "runtime/Device.h"
#include "runtime/cpu/CpuDevice.h"

#include <dlfcn.h>
#include <filesystem>

namespace tc::rt {
namespace {

/// Whether the executable carries code for GPUs or for the host.
bool hasCode(const Executable &executable, bool gpu) {
  if (const auto *code = executable.root().code())
    for (const tcx::CodeModule *module : *code)
      if ((module->kind() != tcx::CodeKind::Host) == gpu)
        return true;
  return false;
}

/// The CUDA device plug-in beside this program: <bin>/../lib/tc-cuda-device.so.
std::string pluginPath() {
  std::error_code ec;
  std::filesystem::path self =
      std::filesystem::read_symlink("/proc/self/exe", ec);
  return (self.parent_path().parent_path() / "lib" / "tc-cuda-device.so")
      .string();
}

/// The CUDA device (runtime/cuda/CudaDevice.cpp), loaded on demand so that
/// the runtime needs no CUDA library until a GPU is asked for.
std::unique_ptr<Device> createCudaDevice(const Executable &executable,
                                         std::string &error) {
  std::string path = pluginPath();
  if (!std::filesystem::exists(path)) {
    error = "this tc-run has no CUDA device (" + path +
            " is missing: build tc with the CUDA toolkit installed)";
    return nullptr;
  }
  void *plugin = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!plugin) {
    error = "cannot load the CUDA device " + path + ": " + dlerror();
    return nullptr;
  }
  using Create = Device *(*)(const Executable &, std::string &);
  auto create =
      reinterpret_cast<Create>(dlsym(plugin, "tc_create_cuda_device"));
  if (!create) {
    error =
        path + " is not a tc CUDA device plug-in (no tc_create_cuda_device)";
    return nullptr;
  }
  // The plug-in stays loaded: CUDA's own threads may outlive the device.
  return std::unique_ptr<Device>(create(executable, error));
}

} // namespace

std::unique_ptr<Device> createDevice(const std::string &kind,
                                     const Executable &executable,
                                     std::string &error) {
  if (kind == "cpu")
    return CpuDevice::create(executable, error);
  if (kind == "cuda")
    return createCudaDevice(executable, error);
  if (kind != "auto") {
    error = "unknown device '" + kind + "'; expected auto, cpu or cuda";
    return nullptr;
  }
  // auto: the GPU when the executable has code for one and one is here.
  bool host = hasCode(executable, false);
  if (!hasCode(executable, true))
    return CpuDevice::create(executable, error);
  std::unique_ptr<Device> gpu = createCudaDevice(executable, error);
  if (gpu || !host)
    return gpu;
  error.clear();
  return CpuDevice::create(executable, error);
}

} // namespace tc::rt
