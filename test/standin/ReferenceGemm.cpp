//===- ReferenceGemm.cpp - cuBLAS's GEMM by its definition ------------------===//
//
// Operands are read as a GPU reads them. bf16 (CUDA_R_16BF) elements are
// the top 16 bits of an f32, widened exactly. With TF32 compute
// (CUBLAS_COMPUTE_32F_FAST_TF32) each f32 element is rounded to TF32
// before the product. cuBLAS does not document how its TF32 kernels round;
// the stand-in rounds as the CUDA toolkit's own f32 -> TF32 conversion for
// tensor cores does, nvcuda::wmma::__float_to_tf32 (crt/mma.h), which is
// cvt.rna.tf32.f32: to nearest, ties away from zero. (CUTLASS's converter
// rounds ties to even, and mma.sync ignores the low 13 bits of an operand
// given unrounded: the three differ only on ties, or by one TF32 ulp of an
// operand; docs/cuda.md.)
//
//===----------------------------------------------------------------------===//

#include "Standin.h"

#include <bit>
#include <cstring>

namespace standin {

bool gemmTypesModelled(cudaDataType a, cudaDataType b, cudaDataType c,
                       GemmCompute compute) {
  if (a != b)
    return false;
  if (a == CUDA_R_32F)
    return c == CUDA_R_32F;
  return a == CUDA_R_16BF && compute == GemmCompute::F32 &&
         (c == CUDA_R_32F || c == CUDA_R_16BF);
}

size_t elementBytes(cudaDataType type) {
  switch (type) {
  case CUDA_R_32F:
    return 4;
  case CUDA_R_16BF:
    return 2;
  default:
    return 0;
  }
}

float roundToTf32(float value) {
  uint32_t bits = std::bit_cast<uint32_t>(value);
  if ((bits & 0x7f800000u) == 0x7f800000u)
    return value; // NaN and infinity
  // Half a TF32 ulp (bit 12) added to the magnitude carries into bit 13 from
  // the halfway point up: ties go away from zero; a carry out of the
  // mantissa raises the exponent (to infinity past the largest TF32).
  bits += 1u << 12;
  bits &= ~((1u << 13) - 1);
  return std::bit_cast<float>(bits);
}

namespace {

/// Element `index` of `matrix` as the GEMM's products read it.
double operand(const Matrix &matrix, int64_t index, GemmCompute compute) {
  if (matrix.type == CUDA_R_16BF) {
    uint16_t bits;
    std::memcpy(&bits, static_cast<const uint8_t *>(matrix.data) + 2 * index,
                2);
    return std::bit_cast<float>(uint32_t(bits) << 16);
  }
  float value = static_cast<const float *>(matrix.data)[index];
  return compute == GemmCompute::TF32 ? roundToTf32(value) : value;
}

/// Element `index` of an output of `type`.
double outputAt(const void *c, cudaDataType type, int64_t index) {
  if (type == CUDA_R_16BF)
    return operand({c, type, 0}, index, GemmCompute::F32);
  return static_cast<const float *>(c)[index];
}

/// Stores `value` rounded to f32 and then, for a bf16 output, to bf16 (to
/// nearest even, as the GPU's epilogue converts its f32 result). Written
/// here rather than taken from support/Bf16Rounding.h: the stand-in models
/// the GPU apart from the code it checks.
void store(void *c, cudaDataType type, int64_t index, double value) {
  float rounded = float(value);
  if (type != CUDA_R_16BF) {
    static_cast<float *>(c)[index] = rounded;
    return;
  }
  uint32_t bits = std::bit_cast<uint32_t>(rounded);
  uint16_t top = (bits & 0x7fffffffu) > 0x7f800000u
                     ? uint16_t(bits >> 16 | 0x40u) // NaN stays NaN
                     : uint16_t((bits + 0x7fffu + (bits >> 16 & 1u)) >> 16);
  std::memcpy(static_cast<uint8_t *>(c) + 2 * index, &top, 2);
}

} // namespace

void referenceGemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
                   float alpha, Matrix a, Matrix b, float beta, Output c,
                   GemmCompute compute, const float *bias, bool relu) {
  int64_t ldc = c.ld;
  // Column-major: element (i, j) of a matrix with leading dimension ld is
  // at i + j * ld; op(A)(i, l) is A(l, i) when transposed.
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double sum = 0;
      for (int64_t l = 0; l < k; ++l) {
        double x = operand(a, transA ? l + i * a.ld : i + l * a.ld, compute);
        double y = operand(b, transB ? j + l * b.ld : l + j * b.ld, compute);
        sum += x * y;
      }
      double value = alpha * sum;
      if (beta != 0) // with beta 0, C is not read (it may hold NaNs)
        value += double(beta) * outputAt(c.data, c.type, i + j * ldc);
      if (bias)
        value += bias[i];
      if (relu && value < 0)
        value = 0;
      store(c.data, c.type, i + j * ldc, value);
    }
}

} // namespace standin
