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
//  * GEMMs: a reference of cuBLAS's column-major definition (ReferenceGemm).
//  * Streams: with TC_STANDIN_ORDER=late, work on a stream runs only when
//    something makes it (a synchronisation, an event waited for, a free, a
//    copy to host memory): a plug-in that reads or reuses memory before its
//    work is ordered gets stale data. With late-first only the first
//    stream's work waits (the plug-in's compute stream), so that work on
//    the other streams overtakes what it is not ordered after. Else
//    (immediate) every call runs when made. Only non-blocking streams are
//    modelled, and no call on the legacy stream (the plug-in makes none).
//  * Faults: TC_STANDIN_FAIL=NAME@N makes the N-th call of entry point NAME
//    fail (cudaMalloc: out of memory; cudaLaunchKernel: a launch failure;
//    cublas...: an execution failure); TC_STANDIN_FAIL=lost@N makes every
//    call from the N-th on fail as if the GPU had gone.
//  * TC_STANDIN_CALLS=FILE appends each entry point's call count to FILE at
//    exit (test/Runtime/cuda-standin-coverage.test).
//
//===----------------------------------------------------------------------===//

#ifndef TC_TEST_STANDIN_STANDIN_H
#define TC_TEST_STANDIN_STANDIN_H

#include <cuda_runtime_api.h>

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

/// Whether the `rows` x `cols` column-major f32 matrix at `pointer` with
/// leading dimension `ld` lies in one cudaMalloc allocation (cuBLAS would
/// read or write outside it otherwise: a wrong pointer or leading dimension).
bool isDeviceMatrix(const void *pointer, int64_t rows, int64_t cols,
                    int64_t ld);

/// Runs `work` on `stream` in its order (now, or late: see above).
void enqueue(cudaStream_t stream, std::function<void()> work);

/// Column-major C = alpha op(A) op(B) + beta C, as cuBLAS defines it (op:
/// the transpose when `transA`/`transB`; A is m x k after op, B k x n, C
/// m x n, each with its leading dimension), summed in double. With beta 0,
/// C is not read. Then, per row i of C, `bias[i]` added when `bias`, and
/// negatives set to 0 when `relu` (cuBLASLt's epilogues).
void referenceGemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
                   float alpha, const float *a, int64_t lda, const float *b,
                   int64_t ldb, float beta, float *c, int64_t ldc,
                   const float *bias = nullptr, bool relu = false);

} // namespace standin

#endif // TC_TEST_STANDIN_STANDIN_H
