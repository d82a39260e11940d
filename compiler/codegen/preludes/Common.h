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

