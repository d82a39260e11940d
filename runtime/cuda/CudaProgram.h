//===- CudaProgram.h - a function's steps, ready for a GPU ----------------===//
//
// The CUDA device works out once per function, on the host, everything its
// steps need: each launch's grid, block and array of buffer pointers, each
// GEMM's cuBLAS call with its operands' addresses (and pointer arrays when
// the batch is not one stride), each copy as 2-D rectangles for
// cudaMemcpy2DAsync. All pointer arrays live in one table of device
// addresses, copied to the GPU once; a step then costs one call.
//
// Plain C++ over plain addresses, no CUDA headers: the device
// (runtime/cuda/CudaDevice.cpp) walks it with real device memory, and
// test/unit/CudaProgramTest.cpp walks the same program on host memory (SIMT
// harness for the kernels, a column-major GEMM as cuBLAS defines it) against
// the CPU device.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CUDA_CUDAPROGRAM_H
#define TC_RUNTIME_CUDA_CUDAPROGRAM_H

#include "runtime/cuda/CublasGemm.h"
#include "runtime/format/GemmTypes.h"
#include "tcx_generated.h"

#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace tc::rt {

/// Where each space of one function starts in device memory.
struct SpaceAddresses {
  std::array<uint64_t, int(tcx::Space::MAX) + 1> base{};
  uint64_t of(const tcx::Buffer &buffer) const {
    return base[int(buffer.space())] + uint64_t(buffer.offset());
  }
};

struct KernelLaunch {
  uint32_t kernel = 0; ///< index into the executable's kernels
  std::array<uint32_t, 3> grid{}, block{};
  int64_t arguments = 0; ///< table index of its buffer pointers
};

struct GemmLaunch {
  CublasGemm call;
  tcx::GemmTypes types;         ///< the device's cuBLAS types come from these
  uint64_t a = 0, b = 0, c = 0; ///< the call's operands (A is the plan's rhs)
  uint64_t bias = 0;            ///< 0: none (else cuBLASLt's bias epilogue)
  bool relu = false;
  /// Table index of the batch's A pointers, then B's, then C's
  /// (batchCount each); -1 when the call is strided.
  int64_t pointerArrays = -1;
};

/// cudaMemcpy2D's arguments, in bytes.
struct CopyRectangle {
  uint64_t source = 0, target = 0;
  int64_t sourcePitch = 0, targetPitch = 0, width = 0, height = 0;
};
struct CopyLaunch {
  std::vector<CopyRectangle> rectangles;
};

/// Starts summing `count` elements (F32 or I32) at `buffer` over the ranks.
struct AllReduceLaunch {
  uint64_t buffer = 0;
  int64_t count = 0;
  bool integer = false;
};
/// Waits for the sums started.
struct WaitLaunch {};

using CudaStep = std::variant<KernelLaunch, GemmLaunch, CopyLaunch,
                              AllReduceLaunch, WaitLaunch>;

struct CudaProgram {
  std::vector<CudaStep> steps;
  /// Device addresses of every pointer array, to be copied to the GPU;
  /// entry i at table address + 8 i.
  std::vector<uint64_t> table;
};

/// Launch limits of every GPU tc targets (compute capability 7.0 and up).
constexpr uint32_t kMaxBlockThreads = 1024;
constexpr uint32_t kMaxGridX = 2147483647u, kMaxGridYZ = 65535;

/// The program of `function` with its spaces at `spaces`, or an empty one
/// with `error` naming the step whose launch geometry no GPU accepts.
CudaProgram buildCudaProgram(const tcx::Function &function,
                             const SpaceAddresses &spaces, std::string &error);

/// The 2-D rectangles that copy strided view `from` to view `to` (same
/// shape and element type): whole rows where both are contiguous in their
/// last dimension, else single elements down the last dimension.
std::vector<CopyRectangle> copyRectangles(const tcx::Buffer &from,
                                          const tcx::Buffer &to,
                                          const SpaceAddresses &spaces);

} // namespace tc::rt

#endif // TC_RUNTIME_CUDA_CUDAPROGRAM_H
