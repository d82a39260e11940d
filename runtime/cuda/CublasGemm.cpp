//===- CublasGemm.cpp - a plan GEMM as a cuBLAS call -----------------------===//

#include "runtime/cuda/CublasGemm.h"

namespace tc::rt {

CublasGemm cublasGemmOf(const tcx::Gemm &g) {
  CublasGemm call;
  // C^T (n x m) = op(B)^T (n x k) * op(A)^T (k x m), all column-major.
  call.transposeA = g.transpose_rhs();
  call.transposeB = g.transpose_lhs();
  call.m = g.n();
  call.n = g.m();
  call.k = g.k();
  call.lda = g.ldb();
  call.ldb = g.lda();
  call.ldc = g.ldc();
  call.alpha = g.alpha();
  call.beta = g.beta();
  size_t rank = g.batch()->size();
  for (size_t i = 0; i < rank; ++i)
    call.batchCount *= g.batch()->Get(i);
  // Row-major batch indices, as the CPU device runs them.
  std::vector<int64_t> index(rank, 0);
  for (int64_t b = 0; b < call.batchCount; ++b) {
    int64_t oa = 0, ob = 0, oc = 0;
    for (size_t i = 0; i < rank; ++i) {
      oa += index[i] * g.rhs_batch_strides()->Get(i);
      ob += index[i] * g.lhs_batch_strides()->Get(i);
      oc += index[i] * g.out_batch_strides()->Get(i);
    }
    call.offsetsA.push_back(oa);
    call.offsetsB.push_back(ob);
    call.offsetsC.push_back(oc);
    for (size_t i = rank; i-- > 0;) {
      if (++index[i] < g.batch()->Get(i))
        break;
      index[i] = 0;
    }
  }
  // One stride per operand when the offsets are evenly spaced.
  auto even = [&](const std::vector<int64_t> &offsets, int64_t &stride) {
    stride = offsets.size() > 1 ? offsets[1] - offsets[0] : 0;
    for (size_t b = 1; b < offsets.size(); ++b)
      if (offsets[b] - offsets[b - 1] != stride)
        return false;
    return true;
  };
  call.strided = even(call.offsetsA, call.strideA) &&
                 even(call.offsetsB, call.strideB) &&
                 even(call.offsetsC, call.strideC);
  return call;
}

} // namespace tc::rt
