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

/// What a program asks of the CUDA device.
struct CudaDeviceOptions {
  /// Every step launched one call at a time, each run (tc-run
  /// --eager-launches, for debugging), instead of a function's steps
  /// captured once as a CUDA graph and replayed.
  bool eagerLaunches = false;
};

/// Registers "cuda", which runs Cubin and Ptx code.
void registerCudaDevice(DeviceRegistry &registry,
                        const CudaDeviceOptions &options = {});

} // namespace tc::rt

#endif // TC_RUNTIME_CUDA_CUDADEVICELOADER_H
