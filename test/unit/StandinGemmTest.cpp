//===- StandinGemmTest.cpp - the stand-in cuBLAS's GEMM types --------------===//
//
// The stand-in cuBLAS and cuBLASLt (test/standin) run the CUDA plug-in's
// GEMMs on the CPU: f32, bf16 operands with an f32 result, and f32 with TF32
// compute. Here they are called as the plug-in calls them, on values whose
// products a hand can work out: bf16 operands are read exactly, TF32
// rounds each f32 operand to nearest with ties away from zero
// (cvt.rna.tf32.f32), and every other type fails as cuBLAS fails it.
//
//===----------------------------------------------------------------------===//

#include "../standin/Standin.h"

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace {

float fromBits(uint32_t bits) { return std::bit_cast<float>(bits); }
uint32_t bitsOf(float value) { return std::bit_cast<uint32_t>(value); }

TEST(StandinTf32, RoundsToNearestTiesAwayFromZero) {
  using standin::roundToTf32;
  // TF32 keeps 10 mantissa bits: near 1 its ulp is 2^-10.
  EXPECT_EQ(roundToTf32(1.0f), 1.0f);
  EXPECT_EQ(roundToTf32(1.0f + 0x1p-12f), 1.0f);            // below half
  EXPECT_EQ(roundToTf32(1.0f + 0x1p-11f - 0x1p-23f), 1.0f); // just below
  // Exactly half an ulp: away from zero (ties to even would give 1).
  EXPECT_EQ(roundToTf32(1.0f + 0x1p-11f), 1.0f + 0x1p-10f);
  EXPECT_EQ(roundToTf32(-1.0f - 0x1p-11f), -1.0f - 0x1p-10f);
  EXPECT_EQ(roundToTf32(1.0f + 3 * 0x1p-11f), 1.0f + 0x1p-9f);
  // e = 0x402DF854: its low 13 bits 0x1854 are past half (0x1000), so up
  // to 0x402E0000 = 2.71875; pi = 0x40490FDB (0x0FDB) goes down.
  EXPECT_EQ(bitsOf(roundToTf32(fromBits(0x402DF854))), 0x402E0000u);
  EXPECT_EQ(roundToTf32(fromBits(0x402DF854)), 2.71875f);
  EXPECT_EQ(bitsOf(roundToTf32(fromBits(0x40490FDB))), 0x40490000u);
  // 1/3 = 0x3EAAAAAB: low bits 0x0AAB, down.
  EXPECT_EQ(bitsOf(roundToTf32(1.0f / 3)), 0x3EAAA000u);
  // The largest TF32 stays; past it (half an ulp and more) is infinity.
  EXPECT_EQ(bitsOf(roundToTf32(fromBits(0x7F7FE000))), 0x7F7FE000u);
  EXPECT_EQ(roundToTf32(std::numeric_limits<float>::max()),
            std::numeric_limits<float>::infinity());
  EXPECT_EQ(roundToTf32(-std::numeric_limits<float>::infinity()),
            -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(roundToTf32(std::nanf(""))));
  // Subnormals round in the same 13 bits: half of 2^-136 ties up to it.
  EXPECT_EQ(bitsOf(roundToTf32(fromBits(0x00001000))), 0x00002000u);
  EXPECT_EQ(roundToTf32(fromBits(0x00000FFF)), 0.0f);
}

/// Device memory (the stand-in's: host memory) holding `values`.
template <typename T> T *onDevice(const std::vector<T> &values) {
  void *pointer = nullptr;
  EXPECT_EQ(cudaMalloc(&pointer, values.size() * sizeof(T)), cudaSuccess);
  std::memcpy(pointer, values.data(), values.size() * sizeof(T));
  return static_cast<T *>(pointer);
}

/// A stream and a cuBLAS handle on it, as the plug-in makes them.
struct Blas : ::testing::Test {
  cudaStream_t stream = nullptr;
  cublasHandle_t handle = nullptr;
  void SetUp() override {
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
              cudaSuccess);
    ASSERT_EQ(cublasCreate(&handle), CUBLAS_STATUS_SUCCESS);
    ASSERT_EQ(cublasSetStream(handle, stream), CUBLAS_STATUS_SUCCESS);
  }
  void TearDown() override {
    cublasDestroy(handle);
    cudaStreamDestroy(stream);
  }
  /// C (1 x 1, of cType) = A (1 x k) B (k x 1), strided, one batch.
  cublasStatus_t dot(const void *a, cudaDataType aType, const void *b,
                     cudaDataType bType, int k, void *c, cudaDataType cType,
                     cublasComputeType_t compute) {
    float alpha = 1, beta = 0;
    cublasStatus_t status = cublasGemmStridedBatchedEx(
        handle, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, k, &alpha, a, aType, 1, k, b,
        bType, k, k, &beta, c, cType, 1, 1, 1, compute, CUBLAS_GEMM_DEFAULT);
    EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    return status;
  }
};

TEST_F(Blas, Tf32ComputeRoundsEachOperand) {
  // (1 + 2^-11) * 1 + e * 1: TF32 makes the operands 1 + 2^-10 and
  // 2.71875, whose products and sum are exact: 3.7197265625. f32 compute
  // keeps 1.00048828125 + 2.71828174591064453125.
  float *a = onDevice<float>({1.0f + 0x1p-11f, fromBits(0x402DF854)});
  float *b = onDevice<float>({1.0f, 1.0f});
  float *c = onDevice<float>({0.0f});
  ASSERT_EQ(dot(a, CUDA_R_32F, b, CUDA_R_32F, 2, c, CUDA_R_32F,
                CUBLAS_COMPUTE_32F_FAST_TF32),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(*c, 3.7197265625f);
  ASSERT_EQ(
      dot(a, CUDA_R_32F, b, CUDA_R_32F, 2, c, CUDA_R_32F, CUBLAS_COMPUTE_32F),
      CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(*c, float(1.00048828125 + 2.71828174591064453125));
  for (void *p : {(void *)a, (void *)b, (void *)c})
    cudaFree(p);
}

TEST_F(Blas, Bf16OperandsAreReadExactlyIntoAnF32Result) {
  // bf16 0x3FC0 = 1.5, 0x3EAB = 0.333984375, 0xC040 = -3,
  // 0x4049 = 3.140625: 1.5 * -3 + 0.333984375 * 3.140625 = -3.451080322265625
  // (exact in f32).
  uint16_t *a = onDevice<uint16_t>({0x3FC0, 0x3EAB});
  uint16_t *b = onDevice<uint16_t>({0xC040, 0x4049});
  float *c = onDevice<float>({0.0f});
  ASSERT_EQ(
      dot(a, CUDA_R_16BF, b, CUDA_R_16BF, 2, c, CUDA_R_32F, CUBLAS_COMPUTE_32F),
      CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(*c, -3.451080322265625f);

  // Pointer arrays: batch 1's operands start 2 bf16 elements (4 bytes) on.
  uint16_t *a2 = onDevice<uint16_t>({0, 0, 0x3FC0, 0x3EAB});
  uint16_t *b2 = onDevice<uint16_t>({0, 0, 0xC040, 0x4049});
  float *c2 = onDevice<float>({7.0f, 7.0f});
  const void **arrays =
      onDevice<const void *>({a2, a2 + 2, b2, b2 + 2, c2, c2 + 1});
  float alpha = 1, beta = 0;
  ASSERT_EQ(cublasGemmBatchedEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 2,
                                &alpha, arrays, CUDA_R_16BF, 1, arrays + 2,
                                CUDA_R_16BF, 2, &beta,
                                const_cast<void **>(arrays + 4), CUDA_R_32F, 1,
                                2, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
            CUBLAS_STATUS_SUCCESS);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  EXPECT_EQ(c2[0], 0.0f);
  EXPECT_EQ(c2[1], -3.451080322265625f);
  for (void *p : {(void *)a, (void *)b, (void *)c, (void *)a2, (void *)b2,
                  (void *)c2, (void *)arrays})
    cudaFree(p);
}

TEST_F(Blas, Bf16ResultsAreTheF32SumsRoundedToNearestEven) {
  // bf16 0x3F80 = 1, 0x3C40 = 3 * 2^-8, 0x3B80 = 2^-8.
  uint16_t *a = onDevice<uint16_t>({0x3F80, 0x3C40, 0x3F80, 0x3B80});
  uint16_t *ones = onDevice<uint16_t>({0x3F80, 0x3F80});
  uint16_t *c = onDevice<uint16_t>({0, 0});
  // 1 + 3 * 2^-8 lies halfway between bf16's 1 + 2^-7 (odd) and 1 + 2^-6
  // (even): 0x3F82; 1 + 2^-8 halfway between 1 (even) and 1 + 2^-7: 0x3F80.
  // Ties away from zero, or truncation, would give others.
  ASSERT_EQ(dot(a, CUDA_R_16BF, ones, CUDA_R_16BF, 2, c, CUDA_R_16BF,
                CUBLAS_COMPUTE_32F),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(c[0], 0x3F82);
  ASSERT_EQ(dot(a + 2, CUDA_R_16BF, ones, CUDA_R_16BF, 2, c + 1, CUDA_R_16BF,
                CUBLAS_COMPUTE_32F),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(c[1], 0x3F80);
  EXPECT_EQ(c[0], 0x3F82) << "the second GEMM wrote past its one element";
  for (void *p : {(void *)a, (void *)ones, (void *)c})
    cudaFree(p);
}

TEST_F(Blas, OtherTypesAreNotSupported) {
  float *x = onDevice<float>({1.0f, 1.0f});
  float *c = onDevice<float>({0.0f});
  for (auto [type, compute] :
       {std::pair{CUDA_R_16F, CUBLAS_COMPUTE_32F},
        std::pair{CUDA_R_16BF, CUBLAS_COMPUTE_32F_FAST_TF32},
        std::pair{CUDA_R_32F, CUBLAS_COMPUTE_64F},
        std::pair{CUDA_R_32F, CUBLAS_COMPUTE_16F}})
    EXPECT_EQ(dot(x, type, x, type, 2, c, CUDA_R_32F, compute),
              CUBLAS_STATUS_NOT_SUPPORTED)
        << type << " " << compute;
  // bf16 out of f32 operands, and mixed operands: cuBLAS runs them, the
  // plug-in asks for neither, and the stand-in refuses them.
  EXPECT_EQ(
      dot(x, CUDA_R_32F, x, CUDA_R_32F, 2, c, CUDA_R_16BF, CUBLAS_COMPUTE_32F),
      CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(
      dot(x, CUDA_R_16BF, x, CUDA_R_32F, 2, c, CUDA_R_32F, CUBLAS_COMPUTE_32F),
      CUBLAS_STATUS_NOT_SUPPORTED);
  cudaFree(x);
  cudaFree(c);
}

/// One cuBLASLt matmul with a bias epilogue: c (1 x 1) = a (1 x 2) b (2 x
/// 1) + bias, A and B of `type`, computed in `compute`, the bias of
/// `biasType` (-1: not said).
cublasStatus_t ltDot(cudaStream_t stream, const void *a, const void *b,
                     cudaDataType type, cublasComputeType_t compute,
                     const float *bias, int32_t biasType, float *c) {
  cublasLtHandle_t lt;
  cublasLtMatmulDesc_t desc;
  cublasLtMatrixLayout_t la, lb, lc;
  EXPECT_EQ(cublasLtCreate(&lt), CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasLtMatmulDescCreate(&desc, compute, CUDA_R_32F),
            CUBLAS_STATUS_SUCCESS);
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue,
                                 sizeof epilogue);
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias,
                                 sizeof bias);
  if (biasType != -1)
    cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE,
                                   &biasType, sizeof biasType);
  EXPECT_EQ(cublasLtMatrixLayoutCreate(&la, type, 1, 2, 1),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasLtMatrixLayoutCreate(&lb, type, 2, 1, 2),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, 1, 1, 1),
            CUBLAS_STATUS_SUCCESS);
  float alpha = 1, beta = 0;
  cublasStatus_t status =
      cublasLtMatmul(lt, desc, &alpha, a, la, b, lb, &beta, c, lc, c, lc,
                     nullptr, nullptr, 0, stream);
  EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  for (cublasLtMatrixLayout_t layout : {la, lb, lc})
    cublasLtMatrixLayoutDestroy(layout);
  cublasLtMatmulDescDestroy(desc);
  cublasLtDestroy(lt);
  return status;
}

TEST_F(Blas, LtEpilogueTakesTheRowsTypes) {
  float *bias = onDevice<float>({0.25f});
  float *c = onDevice<float>({0.0f});
  // TF32: 3.7197265625 as above, + 0.25.
  float *a = onDevice<float>({1.0f + 0x1p-11f, fromBits(0x402DF854)});
  float *b = onDevice<float>({1.0f, 1.0f});
  ASSERT_EQ(ltDot(stream, a, b, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, bias,
                  CUDA_R_32F, c),
            CUBLAS_STATUS_SUCCESS);
  EXPECT_EQ(*c, 3.9697265625f);
  // bf16 operands, f32 bias said or left to D's type: -3.451080322265625
  // + 0.25.
  uint16_t *a16 = onDevice<uint16_t>({0x3FC0, 0x3EAB});
  uint16_t *b16 = onDevice<uint16_t>({0xC040, 0x4049});
  for (int32_t biasType : {int32_t(CUDA_R_32F), -1}) {
    *c = 0;
    ASSERT_EQ(ltDot(stream, a16, b16, CUDA_R_16BF, CUBLAS_COMPUTE_32F, bias,
                    biasType, c),
              CUBLAS_STATUS_SUCCESS);
    EXPECT_EQ(*c, -3.201080322265625f);
  }
  // A bf16 bias, bf16 with TF32 compute, an f16 layout: not supported.
  EXPECT_EQ(ltDot(stream, a16, b16, CUDA_R_16BF, CUBLAS_COMPUTE_32F, bias,
                  CUDA_R_16BF, c),
            CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_EQ(ltDot(stream, a16, b16, CUDA_R_16BF, CUBLAS_COMPUTE_32F_FAST_TF32,
                  bias, -1, c),
            CUBLAS_STATUS_NOT_SUPPORTED);
  cublasLtMatrixLayout_t layout;
  EXPECT_EQ(cublasLtMatrixLayoutCreate(&layout, CUDA_R_16F, 1, 2, 1),
            CUBLAS_STATUS_NOT_SUPPORTED);
  for (void *p : {(void *)bias, (void *)c, (void *)a, (void *)b, (void *)a16,
                  (void *)b16})
    cudaFree(p);
}

} // namespace
