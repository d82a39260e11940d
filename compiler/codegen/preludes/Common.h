// The helpers of both targets' kernels, after the includes and Philox
// (compiler/codegen/Preludes.cpp puts them together).

namespace tc {
// bfloat16: the upper half of an f32, one definition for both targets (NVRTC
// compiles with -default-device, so it needs no __host__ __device__). To f32
// is exact; from f32 rounds to nearest even, a NaN stays a (quiet) NaN: the
// interpreter's rounding (roundToBF16, compiler/interpreter/Tensor.cpp), the
// bits cuBLAS reads as CUDA_R_16BF. Kernels load it as f32, compute in f32
// and round once where the IR has a bf16 value (`tc::bf16 v = tc::bf16(x)`,
// stored as it is, read back as `float(v)`); from f32 is explicit, so no
// rounding goes unwritten.
struct bf16 {
  uint16_t bits;
  bf16() = default;
  explicit bf16(float f) : bits(rounded(__builtin_bit_cast(uint32_t, f))) {}
  operator float() const {
    return __builtin_bit_cast(float, uint32_t(bits) << 16);
  }

private:
  static uint16_t rounded(uint32_t f) {
    if ((f & 0x7fffffffu) > 0x7f800000u) // NaN: keep it one
      return uint16_t(f >> 16 | 0x0040u);
    return uint16_t((f + 0x7fffu + (f >> 16 & 1u)) >> 16);
  }
};
// *to = value, stored as its 16 bits: GCC 12 vectorises this under omp
// simd (TC_FOR_LANES) and not an assignment of the struct (the lanes'
// copies of a struct temporary are an array it cannot vectorise).
inline void storeBits(bf16 *to, bf16 value) {
  *reinterpret_cast<uint16_t *>(to) = __builtin_bit_cast(uint16_t, value);
}
// A row's top k (tc.top_k's order): the k largest of value(j), j < n,
// largest first, equal ones lower index first, into best[0, k) and at[0, k).
// Kept sorted by insertion; a later element enters only when strictly
// larger. Once k are kept, a block of the row none of whose elements is
// larger than the k-th is skipped after one test that vectorises on the
// host (which scanned a decoder step's 64 x 4,000 log-probabilities an
// element at a time, 58-77 us on two Zen 5 threads); the same elements
// enter, in the same order.
template <typename T, typename ValueOf>
inline void topKOfRow(int64_t n, int64_t k, ValueOf value, T *best,
                      int32_t *at) {
  constexpr int64_t kBlock = 64;
  int64_t count = 0;
  for (int64_t j0 = 0; j0 < n; j0 += kBlock) {
    const int64_t j1 = j0 + kBlock < n ? j0 + kBlock : n;
    if (count == k) {
      const T kth = best[k - 1];
      int enters = 0; // an int: GCC vectorises no bool reduction
      for (int64_t j = j0; j < j1; ++j)
        enters |= value(j) > kth;
      if (!enters)
        continue;
    }
    for (int64_t j = j0; j < j1; ++j) {
      const T x = value(j);
      if (count == k && !(x > best[k - 1]))
        continue;
      int64_t p = count < k ? count++ : k - 1;
      for (; p > 0 && x > best[p - 1]; --p) {
        best[p] = best[p - 1];
        at[p] = at[p - 1];
      }
      best[p] = x;
      at[p] = int32_t(j);
    }
  }
}
// q . k over n values (a multiple of Lanes) in Lanes partial sums, added
// in lane order at the end: a sum the host compiler vectorises without
// reordering any of it (tc.cached_attention's scores, both targets).
template <int64_t Lanes, typename T>
inline T dotInLanes(int64_t n, const T *q, const T *k) {
  T partial[Lanes] = {};
  for (int64_t d = 0; d < n; d += Lanes)
    for (int64_t l = 0; l < Lanes; ++l)
      partial[l] += q[d + l] * k[d + l];
  T total = 0;
  for (int64_t l = 0; l < Lanes; ++l)
    total += partial[l];
  return total;
}
// tc.max and tc.min propagate NaN (std::max and std::min do not).
template <typename T> inline T maximum(T a, T b) {
  return a != a || b != b ? a + b : (a > b ? a : b);
}
template <typename T> inline T minimum(T a, T b) {
  return a != a || b != b ? a + b : (a < b ? a : b);
}
// tc.convert from a float to an integer: toward zero, saturating, NaN -> 0.
template <typename I, typename F> inline I toInteger(F x) {
  if (x != x)
    return 0;
  if (x <= F(std::numeric_limits<I>::min()))
    return std::numeric_limits<I>::min();
  if (x >= F(std::numeric_limits<I>::max()))
    return std::numeric_limits<I>::max();
  return static_cast<I>(x);
}
} // namespace tc

