//===- CudaKernel.h - CUDA C++ for the GPU: kernels and their headers ------===//
//
// The CUDA skeletons around the expression emitter (the same as the host's:
// compiler/codegen/ExpressionEmitter.h). A kernel has the host kernels' ABI
// — `extern "C" __global__ void name(void **buffers)`, a device array of
// pointers, inputs then outputs — so the runtime builds each launch's pointer
// array once, and the SIMT test harness runs the same source on the host.
//
// The source starts with the host prelude (dialects/tc/Philox.h and the
// helpers), compiled as device code (NVRTC's -default-device); NVRTC gets
// small stand-ins for the C++ headers it includes (<cmath>, <cstdint>,
// <limits>, <array>, <vector>), which CUDA has no library of.
//
// So far: elementwise groups and single elementwise ops (a grid-stride
// loop). Row-wise kernels with warp reductions, groups with reductions and
// multi-tensor Adam are next; emitCudaKernel says so for them.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_CODEGEN_CUDAKERNEL_H
#define TC_COMPILER_CODEGEN_CUDAKERNEL_H

#include "compiler/codegen/HostKernel.h"

#include <string>
#include <utility>
#include <vector>

namespace tc::codegen {

/// (name, text) of each header NVRTC gets in place of the C++ library's.
const std::vector<std::pair<std::string, std::string>> &cudaHeaders();

/// The CUDA kernel `name` computing `op`, or failure saying why (an op with
/// no CUDA skeleton yet).
mlir::FailureOr<std::string> emitCudaKernel(mlir::Operation *op,
                                            llvm::StringRef name,
                                            std::string &error);

/// The CUDA source of each kernel function of a plan module that has a CUDA
/// skeleton; the names and reasons of those that do not go to `missing`.
std::vector<NamedKernelSource>
emitCudaKernels(mlir::ModuleOp planModule,
                std::vector<std::pair<std::string, std::string>> &missing);

} // namespace tc::codegen

#endif // TC_COMPILER_CODEGEN_CUDAKERNEL_H
