//===- StridedLayout.h - where the elements of a tensor lie in a buffer ----===//
//
// A strided layout maps the index [i0, i1, ...] of a tensor to the element
// offset + i0 * s0 + i1 * s1 + ... of a flat buffer. Reshapes, transposes,
// slices and splits change layouts instead of copying data whenever the
// result is again strided (numpy's rule for views); GEMMs read and write
// strided operands through their leading dimensions and batch strides. This
// is how attention's head split and merge become strides, not copies.
//
// Plain C++, shared by the buffer assignment and its tests.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_ANALYSIS_STRIDEDLAYOUT_H
#define TC_COMPILER_ANALYSIS_STRIDEDLAYOUT_H

#include <cstdint>
#include <optional>
#include <vector>

namespace tc {

struct StridedLayout {
  int64_t offset = 0; ///< in elements
  std::vector<int64_t> shape;
  std::vector<int64_t> strides; ///< in elements

  static StridedLayout contiguous(std::vector<int64_t> shape,
                                  int64_t offset = 0);
  int64_t numElements() const;
  /// Row-major without gaps (dimensions of extent 1 may have any stride).
  bool isContiguous() const;
  bool operator==(const StridedLayout &) const = default;
};

/// The layout of `layout` reshaped to `shape` without moving data, or none
/// when the elements are not evenly strided in the new shape.
std::optional<StridedLayout> reshapeLayout(const StridedLayout &layout,
                                           const std::vector<int64_t> &shape);

/// tc.transpose: result dimension i is input dimension permutation[i].
StridedLayout transposeLayout(const StridedLayout &layout,
                              const std::vector<int64_t> &permutation);

/// The input layout whose transpose by `permutation` is `result`.
StridedLayout inverseTransposeLayout(const StridedLayout &result,
                                     const std::vector<int64_t> &permutation);

/// The sub-block starting at `offsets` with extents `shape`.
StridedLayout sliceLayout(const StridedLayout &layout,
                          const std::vector<int64_t> &offsets,
                          const std::vector<int64_t> &shape);

/// A matrix operand of a row-major BLAS call: the last two dimensions of a
/// layout as `rows x columns`, stored either row-major (`transposed` false,
/// row i at i * ld) or column-major (`transposed` true: the row-major
/// matrix `columns x rows` with leading dimension ld).
struct MatrixLayout {
  bool transposed = false;
  int64_t ld = 0;
};

/// The matrix formed by the last two dimensions of `layout`, or none when
/// neither of them is unit-strided.
std::optional<MatrixLayout> matrixLayout(const StridedLayout &layout);

} // namespace tc

#endif // TC_COMPILER_ANALYSIS_STRIDEDLAYOUT_H
