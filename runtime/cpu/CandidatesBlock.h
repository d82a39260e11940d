//===- CandidatesBlock.h - where a row block's candidates go ---------------===//
//
// A decoder step's candidates (tc.log_softmax_top_k's results) for a block
// of rows, when the CPU device takes them from an int8 GEMM's tiles instead
// of the generated kernel (CandidatesFusion.h, RowCandidates.h).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_CANDIDATESBLOCK_H
#define TC_RUNTIME_CPU_CANDIDATESBLOCK_H

#include <cstdint>

namespace tc::rt {

/// What a block of rows' candidates are of, and where they go.
struct CandidatesBlock {
  const float *addend; ///< [columns]: added to each log-probability
  int64_t columns, k, column;
  float *values;       ///< [rows, k], the block's first row first
  int32_t *indices;    ///< [rows, k]
  float *columnValues; ///< [rows]
};

/// The widest top-k taken this way (2 x a beam of 8); wider ones are left
/// to the generated kernel.
constexpr int64_t kMaxRowCandidates = 16;

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_CANDIDATESBLOCK_H
