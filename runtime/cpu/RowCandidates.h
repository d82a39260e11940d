//===- RowCandidates.h - a decoder step's candidates from a GEMM's tiles --===//
//
// tc.log_softmax_top_k's results for one row (per row: the top k of
// c = log_softmax(logits) + addend, largest first, and c[column]), taken
// from the row's logits 16 columns at a time as a GEMM's tiles produce
// them, so that the logits are never stored: the CPU device runs an int8
// decoder step's output projection and its candidates this way
// (CandidatesFusion.h). The generated kernel (compiler/codegen/
// RowKernels.cpp) reads a stored row three times.
//
// The log-sum-exp is online: the row's max so far and the sum of
// exp(logit - max) in 8 f32 lanes, rescaled when the max grows. So the
// log-probabilities are not the generated kernel's bits (its max comes
// first, its sum is a double); it is used only where the products are
// int8, whose rounding is far larger. The candidates are kept by logit +
// addend, which orders them as their log-probabilities c do but for ties:
// distinct logits may round to one c. So the top k + kTieMargin are kept,
// and the k with the largest c, the lower column first among equal c, are
// returned: tc::topKOfRow's choice, unless more than kTieMargin candidates
// after the k-th tie with it. The logits must be finite (an int8 GEMM's
// are; candidatesOfRows, PanelGemm.h, handles the others).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_ROWCANDIDATES_H
#define TC_RUNTIME_CPU_ROWCANDIDATES_H

#include "runtime/cpu/Avx2.h"
#include "runtime/cpu/CandidatesBlock.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace tc::rt {

/// Candidates kept past the k-th, for ties of c among distinct logits.
constexpr int64_t kTieMargin = 4;

/// exp(x) in 8 lanes: Cephes' expf, as tc::rowExp computes it (within 2
/// ulp; 0 below -87.3, -inf included), with fused multiply-adds. Not for
/// NaN (it gives ~1e-38), which RowCandidates never has.
TC_AVX2_INLINE __m256 exp8(__m256 x) {
  __m256 c = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(-87.3f)),
                           _mm256_set1_ps(88.0f));
  __m256 n = _mm256_floor_ps(_mm256_fmadd_ps(
      c, _mm256_set1_ps(1.44269504088896341f), _mm256_set1_ps(0.5f)));
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), c);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  p = _mm256_add_ps(_mm256_fmadd_ps(_mm256_mul_ps(p, r), r, r),
                    _mm256_set1_ps(1.0f));
  __m256i bits = _mm256_slli_epi32(
      _mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  __m256 e = _mm256_mul_ps(p, _mm256_castsi256_ps(bits));
  return _mm256_andnot_ps(_mm256_cmp_ps(x, _mm256_set1_ps(-87.3f), _CMP_LT_OQ),
                          e);
}

/// One row's running state.
class RowCandidates {
public:
  explicit RowCandidates(int64_t k) : k_(k), kept_(k + kTieMargin) {}

  /// Columns first .. first + count - 1 (count <= 16) of the row: their
  /// logits in y0 (the first 8) and y1, the rest of the lanes ignored.
  TC_AVX2_INLINE void take(int64_t first, int count, __m256 y0, __m256 y1,
                           const CandidatesBlock &block) {
    __m256 addend0, addend1;
    if (count == 16) {
      addend0 = _mm256_loadu_ps(block.addend + first);
      addend1 = _mm256_loadu_ps(block.addend + first + 8);
    } else { // the lanes past the row's end count for nothing
      alignas(32) float logits[16], addend[16] = {};
      _mm256_store_ps(logits, y0);
      _mm256_store_ps(logits + 8, y1);
      for (int j = count; j < 16; ++j)
        logits[j] = -std::numeric_limits<float>::infinity();
      std::memcpy(addend, block.addend + first, count * sizeof(float));
      y0 = _mm256_load_ps(logits);
      y1 = _mm256_load_ps(logits + 8);
      addend0 = _mm256_load_ps(addend);
      addend1 = _mm256_load_ps(addend + 8);
    }
    // The log-sum-exp, rescaled to a larger max.
    __m256 wide = _mm256_max_ps(y0, y1);
    wide = _mm256_max_ps(wide, _mm256_permute2f128_ps(wide, wide, 1));
    wide = _mm256_max_ps(wide, _mm256_shuffle_ps(wide, wide, 0x4e));
    wide = _mm256_max_ps(wide, _mm256_shuffle_ps(wide, wide, 0xb1));
    float chunkMax = _mm256_cvtss_f32(wide);
    __m256 sums = _mm256_load_ps(sums_);
    if (chunkMax > max_) {
      sums = _mm256_mul_ps(sums, _mm256_set1_ps(std::exp(max_ - chunkMax)));
      max_ = chunkMax;
    }
    __m256 shift = _mm256_set1_ps(max_);
    sums = _mm256_add_ps(sums, exp8(_mm256_sub_ps(y0, shift)));
    sums = _mm256_add_ps(sums, exp8(_mm256_sub_ps(y1, shift)));
    _mm256_store_ps(sums_, sums);
    // The top k + kTieMargin by logit + addend: once there are that many,
    // only lanes above the last so far enter (ties keep the lower column:
    // it came first).
    __m256 key0 = _mm256_add_ps(y0, addend0), key1 = _mm256_add_ps(y1, addend1);
    unsigned enter = 0xffffu >> (16 - count);
    if (count_ == kept_) {
      __m256 kth = _mm256_set1_ps(keys_[kept_ - 1]);
      enter &=
          unsigned(_mm256_movemask_ps(_mm256_cmp_ps(key0, kth, _CMP_GT_OQ))) |
          unsigned(_mm256_movemask_ps(_mm256_cmp_ps(key1, kth, _CMP_GT_OQ)))
              << 8;
    }
    bool holdsColumn = block.column >= first && block.column < first + count;
    if (!enter && !holdsColumn)
      return;
    alignas(32) float logits[16], keys[16];
    _mm256_store_ps(logits, y0);
    _mm256_store_ps(logits + 8, y1);
    _mm256_store_ps(keys, key0);
    _mm256_store_ps(keys + 8, key1);
    if (holdsColumn)
      columnLogit_ = logits[block.column - first];
    for (; enter; enter &= enter - 1) {
      int j = __builtin_ctz(enter);
      insert(keys[j], logits[j], int32_t(first + j));
    }
  }

  /// Row `row` of `block`'s results, once every column was taken.
  void finish(const CandidatesBlock &block, int64_t row) const {
    double sum = 0.0;
    for (float lane : sums_)
      sum += lane;
    float logSum = std::log(float(sum));
    auto candidate = [&](float logit, int64_t column) {
      return ((logit - max_) - logSum) + block.addend[column];
    };
    // The kept ones by c, then the lower column (they are in logit order).
    float c[kMaxRowCandidates + kTieMargin];
    int order[kMaxRowCandidates + kTieMargin];
    for (int64_t i = 0; i < count_; ++i) {
      c[i] = candidate(logits_[i], columns_[i]);
      order[i] = int(i);
    }
    std::sort(order, order + count_, [&](int l, int r) {
      return c[l] > c[r] || (!(c[r] > c[l]) && columns_[l] < columns_[r]);
    });
    for (int64_t i = 0; i < k_; ++i) {
      block.values[row * k_ + i] = c[order[i]];
      block.indices[row * k_ + i] = columns_[order[i]];
    }
    block.columnValues[row] = candidate(columnLogit_, block.column);
  }

private:
  void insert(float key, float logit, int32_t column) {
    if (count_ == kept_ && !(key > keys_[kept_ - 1]))
      return;
    int64_t p = count_ < kept_ ? count_++ : kept_ - 1;
    for (; p > 0 && key > keys_[p - 1]; --p) {
      keys_[p] = keys_[p - 1];
      logits_[p] = logits_[p - 1];
      columns_[p] = columns_[p - 1];
    }
    keys_[p] = key;
    logits_[p] = logit;
    columns_[p] = column;
  }

  alignas(32) float sums_[8] = {};
  float max_ = -std::numeric_limits<float>::infinity();
  float columnLogit_ = 0.0f;
  int64_t k_, kept_, count_ = 0;
  float
      keys_[kMaxRowCandidates + kTieMargin]; ///< logit + addend, largest first
  float logits_[kMaxRowCandidates + kTieMargin]; ///< their logits
  int32_t columns_[kMaxRowCandidates + kTieMargin];
};

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_ROWCANDIDATES_H
