// The helpers of both targets' kernels, after the includes and Philox
// (compiler/codegen/Preludes.cpp puts them together).

namespace tc {
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

