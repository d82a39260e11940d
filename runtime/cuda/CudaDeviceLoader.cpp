//===- CudaDeviceLoader.cpp - the CUDA device, loaded when one is made ----===//

#include "runtime/cuda/CudaDeviceLoader.h"
#include "runtime/Plugin.h"

namespace tc::rt {
namespace {

std::unique_ptr<Device> createCudaDevice(const Executable &executable,
                                         const CudaDeviceOptions &options,
                                         std::string &error) {
  using Create = Device *(*)(const Executable &, const CudaDeviceOptions &,
                             std::string &);
  auto create = reinterpret_cast<Create>(
      loadPlugin("tc-cuda-device.so", "tc_open_cuda_device", "CUDA device",
                 "build tc with the CUDA toolkit installed", error));
  return std::unique_ptr<Device>(create ? create(executable, options, error)
                                        : nullptr);
}

} // namespace

void registerCudaDevice(DeviceRegistry &registry,
                        const CudaDeviceOptions &options) {
  registry.add({"cuda",
                {tcx::CodeKind::Cubin, tcx::CodeKind::Ptx},
                [options](const Executable &executable, std::string &error) {
                  return createCudaDevice(executable, options, error);
                }});
}

} // namespace tc::rt
