//===- CudaKernel.h - CUDA C++ for the GPU: kernels and their headers ------===//
//
// The CUDA skeletons around the expression emitter (the same as the host's:
// compiler/codegen/ExpressionEmitter.h). A kernel has the host kernels' ABI
// — `extern "C" __global__ void name(void **buffers)`, a device array of
// pointers, inputs then outputs — so the runtime builds each launch's pointer
// array once, and the SIMT test harness runs the same source on the host.
//
// The source starts with the host prelude (support/Philox.h and the
// helpers), compiled as device code (NVRTC's -default-device); NVRTC gets
// small stand-ins for the C++ headers it includes (<cmath>, <cstdint>,
// <limits>, <array>, <vector>), which CUDA has no library of.
//
// The kernels themselves come from the same emitters as the host's
// (emitKernel with Target::Cuda, compiler/codegen/KernelDispatch.h) and the
// skeleton macros of the CUDA prelude (compiler/codegen/preludes/Cuda.h).
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_CODEGEN_CUDAKERNEL_H
#define TC_COMPILER_CODEGEN_CUDAKERNEL_H

#include "compiler/codegen/KernelDispatch.h"

#include <string>
#include <utility>
#include <vector>

namespace tc::codegen {

/// (name, text) of each header NVRTC gets in place of the C++ library's.
const std::vector<std::pair<std::string, std::string>> &cudaHeaders();

/// The CUDA source of each kernel function of a plan module; the names of
/// those the emitters refuse, with the reason, go to `missing`.
std::vector<NamedKernelSource>
emitCudaKernels(mlir::ModuleOp planModule,
                std::vector<std::pair<std::string, std::string>> &missing);

} // namespace tc::codegen

#endif // TC_COMPILER_CODEGEN_CUDAKERNEL_H
