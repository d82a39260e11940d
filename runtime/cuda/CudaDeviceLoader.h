//===- CudaDeviceLoader.h - the CUDA device, loaded when one is made ------===//
//
// The CUDA device is a plug-in (CudaDevice.cpp, lib/tc-cuda-device.so), so
// that a program links no CUDA library until a GPU is asked for: what it
// registers is a device whose making loads the plug-in.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CUDA_CUDADEVICELOADER_H
#define TC_RUNTIME_CUDA_CUDADEVICELOADER_H

#include "runtime/DeviceRegistry.h"

namespace tc::rt {

/// Registers "cuda", which runs Cubin and Ptx code.
void registerCudaDevice(DeviceRegistry &registry);

} // namespace tc::rt

#endif // TC_RUNTIME_CUDA_CUDADEVICELOADER_H
