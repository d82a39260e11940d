//===- CublasTypes.h - a GEMM's types as cuBLAS spells them ---------------===//
//
// The one mapping from a .tcx GEMM's operand and compute types to cuBLAS's
// data and compute types, for the CUDA device (CudaDevice.cpp) alone: it
// runs the GEMMs of the types listed here (tcx::rowFor) and refuses an
// executable with others when it opens it (tcx::checkGemmTypes). Each row is a
// combination cublasGemmStridedBatchedEx, cublasGemmBatchedEx and
// cublasLtMatmul all accept. The call's A is the plan's rhs and its B the
// plan's lhs (CublasGemm.h).
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
};

inline constexpr CublasTypes kCublasTypes[] = {
    {{tcx::DType::F32, tcx::DType::F32, tcx::DType::F32, tcx::GemmCompute::F32},
     CUDA_R_32F,
     CUDA_R_32F,
     CUDA_R_32F,
     CUBLAS_COMPUTE_32F,
     CUDA_R_32F},
};

} // namespace tc::rt

#endif // TC_RUNTIME_CUDA_CUBLASTYPES_H
