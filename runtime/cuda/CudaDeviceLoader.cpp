//===- CudaDeviceLoader.cpp - the CUDA device, loaded when one is made ----===//

#include "runtime/cuda/CudaDeviceLoader.h"
#include "runtime/Plugin.h"

namespace tc::rt {
namespace {

std::unique_ptr<Device> createCudaDevice(const Executable &executable,
                                         std::string &error) {
  using Create = Device *(*)(const Executable &, std::string &);
  auto create = reinterpret_cast<Create>(
      loadPlugin("tc-cuda-device.so", "tc_create_cuda_device", "CUDA device",
                 "build tc with the CUDA toolkit installed", error));
  return std::unique_ptr<Device>(create ? create(executable, error) : nullptr);
}

} // namespace

void registerCudaDevice(DeviceRegistry &registry) {
  registry.add(
      {"cuda", {tcx::CodeKind::Cubin, tcx::CodeKind::Ptx}, createCudaDevice});
}

} // namespace tc::rt
