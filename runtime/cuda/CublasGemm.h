//===- CublasGemm.h - a plan GEMM as a cuBLAS call -------------------------===//
//
// cuBLAS is column-major; a plan GEMM is row-major (C = op(A) op(B) per batch
// index, runtime/format/tcx.fbs). A row-major matrix is the column-major
// transpose, so the call computes C^T = op(B)^T op(A)^T: the operands swap,
// m and n swap, the leading dimensions stay. Batches become one strided
// batch when every operand's batch dimensions collapse into one stride
// (attention's [batch, heads] does when heads are adjacent), else a batch of
// pointer arrays (cublasGemmBatchedEx). Plain C++, no CUDA headers: the CUDA
// device uses it, and tests check it on the CPU.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CUDA_CUBLASGEMM_H
#define TC_RUNTIME_CUDA_CUBLASGEMM_H

#include "tcx_generated.h"

#include <cstdint>
#include <vector>

namespace tc::rt {

struct CublasGemm {
  bool transposeA = false, transposeB = false; ///< CUBLAS_OP_T when true
  int64_t m = 0, n = 0, k = 0;                 ///< column-major sizes
  int64_t lda = 0, ldb = 0, ldc = 0;
  float alpha = 1, beta = 0;
  int64_t batchCount = 1;
  bool strided = true; ///< one stride per operand (else pointer arrays)
  int64_t strideA = 0, strideB = 0, strideC = 0; ///< elements, when strided
  /// Element offsets of each batch's A, B, C from the operands' starts
  /// (the pointer arrays, when not strided; also when strided, for checks).
  std::vector<int64_t> offsetsA, offsetsB, offsetsC;
};

/// The cuBLAS call computing `gemm`; A is the call's first operand (the
/// plan's rhs), B its second (the plan's lhs), C the plan's out. Bias and
/// ReLU epilogues are not part of it (cuBLASLt's, applied by the device).
CublasGemm cublasGemmOf(const tcx::Gemm &gemm);

} // namespace tc::rt

#endif // TC_RUNTIME_CUDA_CUBLASGEMM_H
