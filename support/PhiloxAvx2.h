//===- PhiloxAvx2.h - tc.dropout's keep bytes in AVX2 lanes ---------------===//
//
// The keep bytes of 16 Philox blocks (64 elements) at once, the same bits as
// dropoutWords and dropoutKeeps in Philox.h. AVX2 has a 32 x 32 -> 64-bit
// product only for the even lanes of a vector (vpmuludq), and GCC vectorises
// Philox's products poorly with it: the plain loop took 2.0-3.0 ms per
// million elements on a Zen 3 thread, this one 0.7-0.9 (bench in the
// 2026-11-29 entry of docs/performance.md). AVX-512 machines vectorise the
// plain loop well (vpmullq), so the host prelude uses this only on AVX2.
// Embedded into the host kernels' prelude after Philox.h, whose constants
// it uses (include that first: the kernels' compiler has no tc include
// path); the target attribute lets any x86-64 build of tc's tests call it
// on an AVX2 CPU.
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_PHILOX_AVX2_H
#define TC_SUPPORT_PHILOX_AVX2_H

#include <immintrin.h>

#include <cstdint>

namespace tc {

/// Blocks (of 4 elements) that dropoutKeepsAvx2 draws per call.
constexpr int64_t kPhiloxAvx2Blocks = 16;

namespace philox_avx2 {

/// The high and low words of each 32-bit lane of `counter` times `factor`.
__attribute__((target("avx2"))) inline void
productWords(__m256i counter, __m256i factor, __m256i &high, __m256i &low) {
  __m256i even = _mm256_mul_epu32(counter, factor);
  __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(counter, 32), factor);
  low = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
  high = _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
}

/// 1 in each lane whose word's top 24 bits are at least `threshold`, else 0.
__attribute__((target("avx2"))) inline __m256i keepBit(__m256i word,
                                                        uint32_t threshold) {
  // The top 24 bits and threshold - 1 are below 2^31: a signed compare.
  __m256i kept = _mm256_cmpgt_epi32(_mm256_srli_epi32(word, 8),
                                    _mm256_set1_epi32(int32_t(threshold) - 1));
  return _mm256_and_si256(kept, _mm256_set1_epi32(1));
}

} // namespace philox_avx2

/// keeps[0 .. 64): whether tc.dropout keeps elements 4 firstBlock ..
/// 4 firstBlock + 63 of the op with `opKey`, in run `seed` at `step`, with
/// `threshold` = dropoutThreshold(rate): dropoutKeeps's bytes. Two vectors
/// of 8 blocks each, so that one's products overlap the other's.
__attribute__((target("avx2"))) inline void
dropoutKeepsAvx2(uint64_t seed, uint64_t step, uint64_t opKey,
                 uint64_t firstBlock, uint32_t threshold, uint8_t *keeps) {
  using namespace philox_avx2;
  constexpr int kVectors = 2;
  static_assert(8 * kVectors == kPhiloxAvx2Blocks);
  alignas(32) uint32_t blockLow[8 * kVectors], blockHigh[8 * kVectors];
  for (int i = 0; i < 8 * kVectors; ++i) {
    blockLow[i] = uint32_t(firstBlock + i);
    blockHigh[i] = uint32_t((firstBlock + i) >> 32);
  }
  // Counter word w of block 8 v + lane is lane `lane` of c[w][v].
  __m256i c[4][kVectors];
  for (int v = 0; v < kVectors; ++v) {
    c[0][v] = _mm256_load_si256(reinterpret_cast<const __m256i *>(blockLow) + v);
    c[1][v] = _mm256_load_si256(reinterpret_cast<const __m256i *>(blockHigh) + v);
    c[2][v] = _mm256_set1_epi32(int32_t(uint32_t(step)));
    c[3][v] = _mm256_set1_epi32(int32_t(uint32_t(step >> 32)));
  }
  const __m256i factor0 = _mm256_set1_epi32(int32_t(kPhiloxMul0));
  const __m256i factor1 = _mm256_set1_epi32(int32_t(kPhiloxMul1));
  uint32_t key0 = uint32_t(seed), key1 = uint32_t(opKey);
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key0 += kPhiloxWeyl0;
      key1 += kPhiloxWeyl1;
    }
    __m256i k0 = _mm256_set1_epi32(int32_t(key0));
    __m256i k1 = _mm256_set1_epi32(int32_t(key1));
    for (int v = 0; v < kVectors; ++v) {
      __m256i high0, low0, high1, low1;
      productWords(c[0][v], factor0, high0, low0);
      productWords(c[2][v], factor1, high1, low1);
      c[0][v] = _mm256_xor_si256(_mm256_xor_si256(high1, c[1][v]), k0);
      c[1][v] = low1;
      c[2][v] = _mm256_xor_si256(_mm256_xor_si256(high0, c[3][v]), k1);
      c[3][v] = low0;
    }
  }
  // A block's four keep bytes are one little-endian 32-bit lane.
  for (int v = 0; v < kVectors; ++v) {
    __m256i bytes = _mm256_or_si256(
        _mm256_or_si256(keepBit(c[0][v], threshold),
                        _mm256_slli_epi32(keepBit(c[1][v], threshold), 8)),
        _mm256_or_si256(_mm256_slli_epi32(keepBit(c[2][v], threshold), 16),
                        _mm256_slli_epi32(keepBit(c[3][v], threshold), 24)));
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(keeps + 32 * v), bytes);
  }
}

} // namespace tc

#endif // TC_SUPPORT_PHILOX_AVX2_H
