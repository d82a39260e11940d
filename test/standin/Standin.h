//===- Standin.h - what the stand-in CUDA libraries share -------------------===//
//
// Stand-ins for the CUDA runtime, cuBLAS, cuBLASLt and NCCL (issue 20): the
// subset of their entry points tc's CUDA plug-in (runtime/cuda/
// CudaDevice.cpp) calls, on host memory, built as libraries with the real
// ones' names and symbol versions so that the real plug-in, loaded by the
// real `tc-run --device=cuda`, runs on them when they come first on
// LD_LIBRARY_PATH. Test-only: never installed, never shipped.
//
//  * Device memory is host memory (cudaMalloc fills it with 0xff bytes, a
//    NaN in every float, so that reading it before it is cleared or
//    written shows).
//  * Kernels: cudaLibraryLoadData cannot run the executable's CUBIN; it
//    opens $TC_STANDIN_KERNELS instead, a shared object of the same kernels'
//    CUDA source compiled as host C++ with the SIMT harness
//    (test/simt/Simt.h), and cudaLaunchKernel runs them through it with the
//    launch's real grid and block.
//  * GEMMs: a reference of cuBLAS's column-major definition (ReferenceGemm),
//    in the types the plug-in uses (f32; bf16 operands; TF32 compute), each
//    operand rounded as a GPU rounds it.
//  * Streams: with TC_STANDIN_ORDER=late, work on a stream runs only when
//    something makes it (a synchronisation, an event waited for, a free, a
//    copy to host memory): a plug-in that reads or reuses memory before its
//    work is ordered gets stale data. With late-first only the first
//    stream's work waits (the plug-in's compute stream), so that work on
//    the other streams overtakes what it is not ordered after. Else
//    (immediate) every call runs when made. Only non-blocking streams are
//    modelled, and no call on the legacy stream (the plug-in makes none).
//  * Graphs: while a stream captures, its work is recorded, not run; a
//    graph's launch enqueues the recorded work as one item. What a capture
//    forbids (a synchronisation, a copy with host memory, an event, a
//    cuBLAS call on a handle without its own workspace, which cuBLAS may
//    otherwise allocate) fails with the error CUDA gives.
//  * Faults: TC_STANDIN_FAIL=NAME@N makes the N-th call of entry point NAME
//    fail (cudaMalloc: out of memory; cudaLaunchKernel: a launch failure;
//    cublas...: an execution failure); TC_STANDIN_FAIL=lost@N makes every
//    call from the N-th on fail as if the GPU had gone.
//  * The GPU is an sm_90 one (TC_STANDIN_CAPABILITY=75 makes it a Turing
//    GPU, for the plug-in's refusal of bf16 and TF32 GEMMs there), one of
//    them (TC_STANDIN_GPUS=N: N).
//  * TC_STANDIN_CALLS=FILE appends each entry point's call count to FILE at
//    exit (test/Runtime/cuda-standin-coverage.test).
//
//===----------------------------------------------------------------------===//

#ifndef TC_TEST_STANDIN_STANDIN_H
#define TC_TEST_STANDIN_STANDIN_H

#include <cuda_runtime_api.h>
#include <library_types.h>

#include <cstdint>
#include <functional>

namespace standin {

/// What an injected fault makes of a call, if any.
enum class Fault { None, Injected, DeviceLost };

/// Counts a call of entry point `name`; whether TC_STANDIN_FAIL fails it.
Fault countCall(const char *name);

/// countCall(name) != Fault::None: for libraries with one failure status.
bool callFails(const char *name);

/// Runs every stream's queued work (what tearing a library down waits for).
void synchronise();

/// Whether [pointer, pointer + bytes) lies in one cudaMalloc allocation.
bool isDeviceRange(const void *pointer, size_t bytes);

/// Whether the `rows` x `cols` column-major matrix of `elementBytes`-byte
/// elements at `pointer` with leading dimension `ld` lies in one cudaMalloc
/// allocation (cuBLAS would read or write outside it otherwise: a wrong
/// pointer or leading dimension).
bool isDeviceMatrix(const void *pointer, int64_t rows, int64_t cols, int64_t ld,
                    size_t elementBytes = sizeof(float));

/// Whether a capture (cudaStreamBeginCapture) is under way on `stream`.
bool isCapturing(cudaStream_t stream);

/// Runs `work` on `stream` in its order (now, or late: see above); while
/// the stream is capturing, records it in the capture instead.
void enqueue(cudaStream_t stream, std::function<void()> work);

/// The GEMM types the stand-ins run, as the plug-in asks for them
/// (runtime/cuda/CublasTypes.h): f32 operands with f32 or TF32 compute, bf16
/// operands with f32 compute; the result f32, or bf16 from bf16 operands.
/// cuBLAS runs more; the
/// stand-ins answer CUBLAS_STATUS_NOT_SUPPORTED for the rest, so that the
/// plug-in's error path stays tested.
enum class GemmCompute { F32, TF32 };
bool gemmTypesModelled(cudaDataType a, cudaDataType b, cudaDataType c,
                       GemmCompute compute);

/// The size of an element of a type gemmTypesModelled accepts (else 0).
size_t elementBytes(cudaDataType type);

/// `value` rounded to TF32 (8 exponent bits, 10 mantissa bits) as
/// cvt.rna.tf32.f32 rounds it: to nearest, ties away from zero; NaN and
/// infinity stay; a value past TF32's largest becomes infinity. The result
/// is a float whose low 13 mantissa bits are 0.
float roundToTf32(float value);

/// A GEMM operand as cuBLAS reads it: column-major elements of `type`
/// (CUDA_R_32F or CUDA_R_16BF) with leading dimension `ld`.
struct Matrix {
  const void *data = nullptr;
  cudaDataType type = CUDA_R_32F;
  int64_t ld = 0;
};

/// A GEMM's output as cuBLAS writes it: column-major elements of `type`
/// (CUDA_R_32F or CUDA_R_16BF) with leading dimension `ld`.
struct Output {
  void *data = nullptr;
  cudaDataType type = CUDA_R_32F;
  int64_t ld = 0;
};

/// Column-major C = alpha op(A) op(B) + beta C, as cuBLAS defines it (op:
/// the transpose when `transA`/`transB`; A is m x k after op, B k x n, C
/// m x n f32 or bf16). Operands are read as a GPU reads them: bf16 elements as
/// their exact f32 values, f32 elements rounded to TF32 first when
/// `compute` is TF32 (cvt.rna.tf32.f32). Each product is then exact in f32
/// (11 by 11 significant bits at most, or 24 by 24 for f32 compute, where
/// double holds it) and the products are summed in double, the exact sum
/// any f32 order approximates; rounded to f32 once (and a bf16 C's then
/// to bf16, to nearest even). With beta 0, C is not read. Then, per row i
/// of C, `bias[i]` added when `bias`, and negatives set to 0 when `relu`
/// (cuBLASLt's epilogues), before the rounding.
void referenceGemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
                   float alpha, Matrix a, Matrix b, float beta, Output c,
                   GemmCompute compute, const float *bias = nullptr,
                   bool relu = false);

} // namespace standin

#endif // TC_TEST_STANDIN_STANDIN_H
