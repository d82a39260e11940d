//===- Cublas.cpp - a stand-in for cuBLAS (libcublas) -----------------------===//
//
// The cuBLAS calls of tc's CUDA plug-in: GEMMs of the types it uses (f32;
// bf16 operands; TF32 compute: Standin.h), strided batched and with arrays
// of pointers, by the reference, on the handle's stream. Arguments are
// checked as cuBLAS checks them (and operands must lie in allocations).
//
//===----------------------------------------------------------------------===//

#include "Standin.h"

#include <cublas_v2.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

struct cublasContext {
  cudaStream_t stream = nullptr;
  void *workspace = nullptr; ///< cublasSetWorkspace's, if any
};

using namespace standin;

namespace {

cublasStatus_t faultOf(const char *name) {
  return callFails(name) ? CUBLAS_STATUS_EXECUTION_FAILED
                         : CUBLAS_STATUS_SUCCESS;
}

/// A GEMM captured into a graph on a handle with no workspace of its own:
/// cuBLAS may allocate one then, which a capture forbids (its docs ask for
/// cublasSetWorkspace before a capture). The stand-in refuses it always.
cublasStatus_t captureWithoutWorkspace(cublasHandle_t handle) {
  if (!isCapturing(handle->stream) || handle->workspace)
    return CUBLAS_STATUS_SUCCESS;
  std::fprintf(stderr, "stand-in: a cuBLAS GEMM captured into a graph on a "
                       "handle without cublasSetWorkspace\n");
  return CUBLAS_STATUS_NOT_SUPPORTED;
}

/// The stand-in's compute type for cuBLAS's, if it models it.
bool computeOf(cublasComputeType_t type, GemmCompute &compute) {
  compute = type == CUBLAS_COMPUTE_32F_FAST_TF32 ? GemmCompute::TF32
                                                 : GemmCompute::F32;
  return type == CUBLAS_COMPUTE_32F || type == CUBLAS_COMPUTE_32F_FAST_TF32;
}

/// cuBLAS's own checks of a GEMM's shape (CUBLAS_STATUS_INVALID_VALUE),
/// and the types the stand-in models (CUBLAS_STATUS_NOT_SUPPORTED).
cublasStatus_t checkGemm(cublasOperation_t transa, cublasOperation_t transb,
                         int m, int n, int k, int lda, int ldb, int ldc,
                         int batchCount, cudaDataType a, cudaDataType b,
                         cudaDataType c, cublasComputeType_t type) {
  bool ta = transa == CUBLAS_OP_T, tb = transb == CUBLAS_OP_T;
  if ((transa != CUBLAS_OP_N && !ta) || (transb != CUBLAS_OP_N && !tb) ||
      m < 0 || n < 0 || k < 0 || batchCount < 0 ||
      lda < std::max(1, ta ? k : m) || ldb < std::max(1, tb ? n : k) ||
      ldc < std::max(1, m))
    return CUBLAS_STATUS_INVALID_VALUE;
  GemmCompute compute;
  if (!computeOf(type, compute) || !gemmTypesModelled(a, b, c, compute))
    return CUBLAS_STATUS_NOT_SUPPORTED;
  return CUBLAS_STATUS_SUCCESS;
}

/// Whether one batch entry's operands lie in allocations.
bool inBounds(cublasOperation_t transa, cublasOperation_t transb, int m, int n,
              int k, Matrix a, Matrix b, Output c) {
  bool ta = transa == CUBLAS_OP_T, tb = transb == CUBLAS_OP_T;
  bool ok = isDeviceMatrix(a.data, ta ? k : m, ta ? m : k, a.ld,
                           elementBytes(a.type)) &&
            isDeviceMatrix(b.data, tb ? n : k, tb ? k : n, b.ld,
                           elementBytes(b.type)) &&
            isDeviceMatrix(c.data, m, n, c.ld, elementBytes(c.type));
  if (!ok)
    std::fprintf(stderr,
                 "stand-in: a GEMM operand lies outside every "
                 "allocation (m=%d n=%d k=%d lda=%ld ldb=%ld ldc=%d)\n",
                 m, n, k, long(a.ld), long(b.ld), long(c.ld));
  return ok;
}

} // namespace

extern "C" {

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle) {
  if (faultOf("cublasCreate_v2"))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  *handle = new cublasContext;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  if (cublasStatus_t s = faultOf("cublasDestroy_v2"))
    return s;
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream) {
  if (cublasStatus_t s = faultOf("cublasSetStream_v2"))
    return s;
  handle->stream = stream;
  handle->workspace = nullptr; // cuBLAS: setting the stream resets it
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void *workspace,
                                     size_t bytes) {
  if (cublasStatus_t s = faultOf("cublasSetWorkspace_v2"))
    return s;
  if (bytes > 0 && !isDeviceRange(workspace, bytes))
    return CUBLAS_STATUS_INVALID_VALUE;
  handle->workspace = bytes > 0 ? workspace : nullptr;
  return CUBLAS_STATUS_SUCCESS;
}

const char *cublasGetStatusString(cublasStatus_t status) {
  countCall("cublasGetStatusString"); // never fails
  switch (status) {
  case CUBLAS_STATUS_SUCCESS:
    return "the operation completed successfully";
  case CUBLAS_STATUS_NOT_INITIALIZED:
    return "the library was not initialized";
  case CUBLAS_STATUS_INVALID_VALUE:
    return "an invalid numeric value was used as an argument";
  case CUBLAS_STATUS_EXECUTION_FAILED:
    return "the GPU program failed to execute";
  case CUBLAS_STATUS_NOT_SUPPORTED:
    return "the functionality requested is not supported";
  default:
    return "unknown error";
  }
}

cublasStatus_t cublasGemmStridedBatchedEx(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
    int m, int n, int k, const void *alpha, const void *A, cudaDataType Atype,
    int lda, long long strideA, const void *B, cudaDataType Btype, int ldb,
    long long strideB, const void *beta, void *C, cudaDataType Ctype, int ldc,
    long long strideC, int batchCount, cublasComputeType_t computeType,
    cublasGemmAlgo_t) {
  if (cublasStatus_t s = faultOf("cublasGemmStridedBatchedEx"))
    return s;
  if (cublasStatus_t s = captureWithoutWorkspace(handle))
    return s;
  if (cublasStatus_t s = checkGemm(transa, transb, m, n, k, lda, ldb, ldc,
                                   batchCount, Atype, Btype, Ctype,
                                   computeType))
    return s;
  GemmCompute compute;
  computeOf(computeType, compute);
  // Strides count elements of each operand's own type.
  size_t aBytes = elementBytes(Atype), bBytes = elementBytes(Btype);
  auto a = [=](int batch) {
    return Matrix{static_cast<const uint8_t *>(A) + batch * strideA * aBytes,
                  Atype, lda};
  };
  auto b = [=](int batch) {
    return Matrix{static_cast<const uint8_t *>(B) + batch * strideB * bBytes,
                  Btype, ldb};
  };
  size_t cBytes = elementBytes(Ctype);
  auto c = [=](int batch) {
    return Output{static_cast<uint8_t *>(C) + batch * strideC * cBytes, Ctype,
                  ldc};
  };
  for (int batch = 0; batch < batchCount; ++batch)
    if (!inBounds(transa, transb, m, n, k, a(batch), b(batch), c(batch)))
      return CUBLAS_STATUS_EXECUTION_FAILED;
  float scale = *static_cast<const float *>(alpha),
        accumulate = *static_cast<const float *>(beta);
  enqueue(handle->stream, [=] {
    for (int batch = 0; batch < batchCount; ++batch)
      referenceGemm(transa == CUBLAS_OP_T, transb == CUBLAS_OP_T, m, n, k,
                    scale, a(batch), b(batch), accumulate, c(batch), compute);
  });
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGemmBatchedEx(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
    int m, int n, int k, const void *alpha, const void *const Aarray[],
    cudaDataType Atype, int lda, const void *const Barray[],
    cudaDataType Btype, int ldb, const void *beta, void *const Carray[],
    cudaDataType Ctype, int ldc, int batchCount,
    cublasComputeType_t computeType, cublasGemmAlgo_t) {
  if (cublasStatus_t s = faultOf("cublasGemmBatchedEx"))
    return s;
  if (cublasStatus_t s = captureWithoutWorkspace(handle))
    return s;
  if (cublasStatus_t s = checkGemm(transa, transb, m, n, k, lda, ldb, ldc,
                                   batchCount, Atype, Btype, Ctype,
                                   computeType))
    return s;
  // The pointer arrays are device memory, read when the call runs.
  size_t arrayBytes = size_t(batchCount) * sizeof(void *);
  if (!isDeviceRange(Aarray, arrayBytes) ||
      !isDeviceRange(Barray, arrayBytes) ||
      !isDeviceRange(Carray, arrayBytes)) {
    std::fprintf(stderr, "stand-in: a GEMM's pointer array lies outside "
                         "every allocation\n");
    return CUBLAS_STATUS_EXECUTION_FAILED;
  }
  GemmCompute compute;
  computeOf(computeType, compute);
  float scale = *static_cast<const float *>(alpha),
        accumulate = *static_cast<const float *>(beta);
  enqueue(handle->stream, [=] {
    for (int batch = 0; batch < batchCount; ++batch) {
      Matrix a{Aarray[batch], Atype, lda}, b{Barray[batch], Btype, ldb};
      Output c{Carray[batch], Ctype, ldc};
      if (!inBounds(transa, transb, m, n, k, a, b, c))
        std::abort(); // on a GPU: an illegal address, the context lost
      referenceGemm(transa == CUBLAS_OP_T, transb == CUBLAS_OP_T, m, n, k,
                    scale, a, b, accumulate, c, compute);
    }
  });
  return CUBLAS_STATUS_SUCCESS;
}

} // extern "C"
