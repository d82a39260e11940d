//===- Device.cpp - choosing a device --------------------------------------===//

#include "runtime/Device.h"
#include "runtime/Plugin.h"
#include "runtime/cpu/CpuDevice.h"

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

/// The CUDA device (runtime/cuda/CudaDevice.cpp), loaded on demand so that
/// the runtime needs no CUDA library until a GPU is asked for.
std::unique_ptr<Device> createCudaDevice(const Executable &executable,
                                         std::string &error) {
  using Create = Device *(*)(const Executable &, std::string &);
  auto create = reinterpret_cast<Create>(
      loadPlugin("tc-cuda-device.so", "tc_create_cuda_device",
                 "CUDA device", "build tc with the CUDA toolkit installed",
                 error));
  return std::unique_ptr<Device>(create ? create(executable, error) : nullptr);
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
