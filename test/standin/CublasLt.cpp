//===- CublasLt.cpp - a stand-in for cuBLASLt (libcublasLt) -----------------===//
//
// The cuBLASLt calls of tc's CUDA plug-in: one matmul with a bias and/or
// ReLU epilogue, D = epilogue(alpha op(A) op(B) + beta C), in the types the
// plug-in uses (f32; bf16 A and B; TF32 compute; an f32 bias: Standin.h),
// by the reference on the call's stream. Descriptors and layouts are
// checked as cuBLASLt checks them.
//
//===----------------------------------------------------------------------===//

#include "Standin.h"

#include <cublasLt.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

struct cublasLtContext {};

namespace {

/// What the plug-in sets of a matmul descriptor.
struct MatmulDesc {
  standin::GemmCompute compute = standin::GemmCompute::F32;
  cublasOperation_t transA = CUBLAS_OP_N, transB = CUBLAS_OP_N;
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  const float *bias = nullptr;
  int32_t biasType = -1; ///< a cudaDataType; -1: D's
};
struct Layout {
  cudaDataType type = CUDA_R_32F;
  uint64_t rows = 0, cols = 0;
  int64_t ld = 0;
};

MatmulDesc *descOf(cublasLtMatmulDesc_t desc) {
  return reinterpret_cast<MatmulDesc *>(desc);
}
Layout *layoutOf(cublasLtMatrixLayout_t layout) {
  return reinterpret_cast<Layout *>(layout);
}

cublasStatus_t faultOf(const char *name) {
  return standin::callFails(name) ? CUBLAS_STATUS_EXECUTION_FAILED
                                  : CUBLAS_STATUS_SUCCESS;
}

/// Copies an attribute of `size` bytes, as cuBLASLt does: the size must be
/// the attribute's.
template <typename T>
cublasStatus_t setAttribute(T &field, const void *buf, size_t size) {
  if (!buf || size != sizeof(T))
    return CUBLAS_STATUS_INVALID_VALUE;
  std::memcpy(&field, buf, sizeof(T));
  return CUBLAS_STATUS_SUCCESS;
}

} // namespace

extern "C" {

cublasStatus_t cublasLtCreate(cublasLtHandle_t *handle) {
  if (faultOf("cublasLtCreate"))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  *handle = new cublasLtContext;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtDestroy(cublasLtHandle_t handle) {
  if (cublasStatus_t s = faultOf("cublasLtDestroy"))
    return s;
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *desc,
                                        cublasComputeType_t computeType,
                                        cudaDataType_t scaleType) {
  if (cublasStatus_t s = faultOf("cublasLtMatmulDescCreate"))
    return s;
  bool tf32 = computeType == CUBLAS_COMPUTE_32F_FAST_TF32;
  if ((computeType != CUBLAS_COMPUTE_32F && !tf32) || scaleType != CUDA_R_32F)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  auto *created = new MatmulDesc;
  created->compute =
      tf32 ? standin::GemmCompute::TF32 : standin::GemmCompute::F32;
  *desc = reinterpret_cast<cublasLtMatmulDesc_t>(created);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t desc) {
  if (cublasStatus_t s = faultOf("cublasLtMatmulDescDestroy"))
    return s;
  delete descOf(desc);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t
cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t desc,
                               cublasLtMatmulDescAttributes_t attribute,
                               const void *buf, size_t size) {
  if (cublasStatus_t s = faultOf("cublasLtMatmulDescSetAttribute"))
    return s;
  MatmulDesc &d = *descOf(desc);
  switch (attribute) {
  case CUBLASLT_MATMUL_DESC_TRANSA:
    return setAttribute(d.transA, buf, size);
  case CUBLASLT_MATMUL_DESC_TRANSB:
    return setAttribute(d.transB, buf, size);
  case CUBLASLT_MATMUL_DESC_EPILOGUE:
    return setAttribute(d.epilogue, buf, size);
  case CUBLASLT_MATMUL_DESC_BIAS_POINTER:
    return setAttribute(d.bias, buf, size);
  case CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE:
    return setAttribute(d.biasType, buf, size);
  default:
    return CUBLAS_STATUS_NOT_SUPPORTED; // none the plug-in sets
  }
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *layout,
                                          cudaDataType type, uint64_t rows,
                                          uint64_t cols, int64_t ld) {
  if (cublasStatus_t s = faultOf("cublasLtMatrixLayoutCreate"))
    return s;
  if (!standin::elementBytes(type))
    return CUBLAS_STATUS_NOT_SUPPORTED;
  if (ld < int64_t(std::max<uint64_t>(rows, 1)))
    return CUBLAS_STATUS_INVALID_VALUE;
  *layout = reinterpret_cast<cublasLtMatrixLayout_t>(
      new Layout{type, rows, cols, ld});
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t layout) {
  if (cublasStatus_t s = faultOf("cublasLtMatrixLayoutDestroy"))
    return s;
  delete layoutOf(layout);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmul(cublasLtHandle_t, cublasLtMatmulDesc_t desc,
                              const void *alpha, const void *A,
                              cublasLtMatrixLayout_t Adesc, const void *B,
                              cublasLtMatrixLayout_t Bdesc, const void *beta,
                              const void *C, cublasLtMatrixLayout_t Cdesc,
                              void *D, cublasLtMatrixLayout_t Ddesc,
                              const cublasLtMatmulAlgo_t *, void *, size_t,
                              cudaStream_t stream) {
  if (cublasStatus_t s = faultOf("cublasLtMatmul"))
    return s;
  const MatmulDesc d = *descOf(desc);
  const Layout a = *layoutOf(Adesc), b = *layoutOf(Bdesc),
               c = *layoutOf(Cdesc), out = *layoutOf(Ddesc);
  bool ta = d.transA == CUBLAS_OP_T, tb = d.transB == CUBLAS_OP_T;
  int64_t m = int64_t(ta ? a.cols : a.rows), k = int64_t(ta ? a.rows : a.cols);
  int64_t n = int64_t(tb ? b.rows : b.cols);
  // op(A) m x k, op(B) k x n, C and D m x n; the plug-in writes D over C.
  if (int64_t(tb ? b.cols : b.rows) != k || int64_t(c.rows) != m ||
      int64_t(c.cols) != n || out.rows != c.rows || out.cols != c.cols ||
      out.ld != c.ld || C != D)
    return CUBLAS_STATUS_INVALID_VALUE;
  bool bias = d.epilogue == CUBLASLT_EPILOGUE_BIAS ||
              d.epilogue == CUBLASLT_EPILOGUE_RELU_BIAS;
  bool relu = d.epilogue == CUBLASLT_EPILOGUE_RELU ||
              d.epilogue == CUBLASLT_EPILOGUE_RELU_BIAS;
  if (!bias && !relu && d.epilogue != CUBLASLT_EPILOGUE_DEFAULT)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  // The types: one of the plug-in's combinations, D's type C's, and an f32
  // bias (the default bias type is D's).
  if (!standin::gemmTypesModelled(a.type, b.type, c.type, d.compute) ||
      out.type != c.type ||
      (bias && (d.biasType == -1 ? out.type : d.biasType) != CUDA_R_32F))
    return CUBLAS_STATUS_NOT_SUPPORTED;
  if ((bias && (!d.bias || !standin::isDeviceMatrix(d.bias, m, 1, m))) ||
      !standin::isDeviceMatrix(A, int64_t(a.rows), int64_t(a.cols), a.ld,
                               standin::elementBytes(a.type)) ||
      !standin::isDeviceMatrix(B, int64_t(b.rows), int64_t(b.cols), b.ld,
                               standin::elementBytes(b.type)) ||
      !standin::isDeviceMatrix(D, m, n, out.ld,
                               standin::elementBytes(out.type))) {
    std::fprintf(stderr, "stand-in: a cuBLASLt operand lies outside every "
                         "allocation (m=%ld n=%ld k=%ld)\n",
                 long(m), long(n), long(k));
    return CUBLAS_STATUS_EXECUTION_FAILED;
  }
  float scale = *static_cast<const float *>(alpha),
        accumulate = *static_cast<const float *>(beta);
  const float *biasValues = bias ? d.bias : nullptr;
  standin::enqueue(stream, [=] {
    standin::referenceGemm(ta, tb, m, n, k, scale, {A, a.type, a.ld},
                           {B, b.type, b.ld}, accumulate, {D, out.type, out.ld},
                           d.compute, biasValues, relu);
  });
  return CUBLAS_STATUS_SUCCESS;
}

} // extern "C"
