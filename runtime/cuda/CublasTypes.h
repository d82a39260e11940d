//===- CublasTypes.h - a GEMM's types as cuBLAS spells them ---------------===//
//
// The one mapping from a .tcx GEMM's operand and compute types to cuBLAS's
// data and compute types, for the CUDA device (CudaDevice.cpp) alone: it
// runs the GEMMs of the types listed here (tcx::rowFor) and refuses an
// executable with others when it opens it (tcx::checkGemmTypes), or when
// the GPU is older than a row needs. Each row is a combination
// cublasGemmStridedBatchedEx, cublasGemmBatchedEx and cublasLtMatmul (with
// its bias epilogue) all accept. The call's A is the plan's rhs and its B
// the plan's lhs (CublasGemm.h).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CUDA_CUBLASTYPES_H
#define TC_RUNTIME_CUDA_CUBLASTYPES_H

#include "runtime/format/GemmTypes.h"

#include <cublas_v2.h>

namespace tc::rt {

struct CublasTypes {
  tcx::GemmTypes types;
  cudaDataType_t lhs, rhs, out;
  cublasComputeType_t compute;
  cudaDataType_t scale; ///< of alpha and beta (CublasGemm's floats)
  cudaDataType_t bias;  ///< of cuBLASLt's bias epilogue (out's type)
  /// The oldest GPU that runs it, as major * 10 + minor: bf16 and TF32
  /// inputs need Ampere's tensor cores (sm_80).
  int capability;
  const char *why; ///< what the GPU needs, for the refusal
};

inline constexpr CublasTypes kCublasTypes[] = {
    {{tcx::DType::F32, tcx::DType::F32, tcx::DType::F32, tcx::GemmCompute::F32},
     CUDA_R_32F,
     CUDA_R_32F,
     CUDA_R_32F,
     CUBLAS_COMPUTE_32F,
     CUDA_R_32F,
     CUDA_R_32F,
     0,
     ""},
    // bf16 operands, products and sums in f32 (f32 bias): issue 31's bf16.
    {{tcx::DType::BF16, tcx::DType::BF16, tcx::DType::F32,
      tcx::GemmCompute::F32},
     CUDA_R_16BF,
     CUDA_R_16BF,
     CUDA_R_32F,
     CUBLAS_COMPUTE_32F,
     CUDA_R_32F,
     CUDA_R_32F,
     80,
     "bf16 tensor cores"},
    // bf16 operands, f32 sums stored rounded to bf16 (tc-fuse-convert's
    // narrowed products). No bias and beta 0 (checkGemmTypes refuses
    // others): the bias type is never used.
    {{tcx::DType::BF16, tcx::DType::BF16, tcx::DType::BF16,
      tcx::GemmCompute::F32},
     CUDA_R_16BF,
     CUDA_R_16BF,
     CUDA_R_16BF,
     CUBLAS_COMPUTE_32F,
     CUDA_R_32F,
     CUDA_R_32F,
     80,
     "bf16 tensor cores"},
    // f32 operands rounded to TF32 on tensor cores, sums in f32.
    {{tcx::DType::F32, tcx::DType::F32, tcx::DType::F32,
      tcx::GemmCompute::TF32},
     CUDA_R_32F,
     CUDA_R_32F,
     CUDA_R_32F,
     CUBLAS_COMPUTE_32F_FAST_TF32,
     CUDA_R_32F,
     CUDA_R_32F,
     80,
     "TF32 tensor cores"},
};

} // namespace tc::rt

#endif // TC_RUNTIME_CUDA_CUBLASTYPES_H
