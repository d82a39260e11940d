//===- PositionalEncoding.h - the paper's sinusoids, one definition --------===//
//
// Section 3.5 of the paper: PE(pos, 2i) = sin(pos / 10000^(2i/d)),
// PE(pos, 2i + 1) = cos(pos / 10000^(2i/d)), computed in double. The
// interpreter's tc.positional_encoding and the decoder step's constant table
// (compiler/frontend) read it here; the generated kernels spell the same
// expression (compiler/codegen/OpKernels.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_POSITIONALENCODING_H
#define TC_SUPPORT_POSITIONALENCODING_H

#include <cmath>
#include <cstdint>

namespace tc::support {

/// Channel `c` of position `pos`'s encoding of width `dim`.
inline double positionalEncoding(int64_t pos, int64_t c, int64_t dim) {
  double angle = pos / std::pow(10000.0, double(c - c % 2) / dim);
  return c % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

} // namespace tc::support

#endif // TC_SUPPORT_POSITIONALENCODING_H
