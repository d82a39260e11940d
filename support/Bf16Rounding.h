//===- Bf16Rounding.h - f32 -> bf16 as every tc kernel rounds --------------===//
//
// Round to nearest even; a NaN stays a (quiet) NaN. The generated kernels'
// `tc::bf16(float)` (compiler/codegen/preludes/Common.h, which cannot include
// this file) and the interpreter round the same way; the runtime uses this
// for what it rounds on the host (the parameters' bf16 copies, bf16 GEMM
// operands).
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_BF16ROUNDING_H
#define TC_SUPPORT_BF16ROUNDING_H

#include <cstdint>
#include <cstring>

namespace tc::support {

/// The bits of `x` rounded to bf16.
inline uint16_t bf16Bits(float x) {
  uint32_t f;
  std::memcpy(&f, &x, 4);
  if ((f & 0x7fffffffu) > 0x7f800000u) // NaN: keep it one
    return uint16_t(f >> 16 | 0x0040u);
  return uint16_t((f + 0x7fffu + (f >> 16 & 1u)) >> 16);
}

/// `count` f32 values at `from` rounded to bf16 at `to`.
inline void roundToBf16(const float *from, uint16_t *to, int64_t count) {
  for (int64_t i = 0; i < count; ++i)
    to[i] = bf16Bits(from[i]);
}

} // namespace tc::support

#endif // TC_SUPPORT_BF16ROUNDING_H
