//===- StridedLayout.cpp - views of flat buffers --------------------------===//

#include "compiler/analysis/StridedLayout.h"

#include <algorithm>

namespace tc {

StridedLayout StridedLayout::contiguous(std::vector<int64_t> shape,
                                        int64_t offset) {
  StridedLayout layout{offset, std::move(shape), {}};
  layout.strides.assign(layout.shape.size(), 1);
  for (int64_t d = int64_t(layout.shape.size()) - 2; d >= 0; --d)
    layout.strides[d] = layout.strides[d + 1] * layout.shape[d + 1];
  return layout;
}

int64_t StridedLayout::numElements() const {
  int64_t n = 1;
  for (int64_t extent : shape)
    n *= extent;
  return n;
}

bool StridedLayout::isContiguous() const {
  int64_t expected = 1;
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
    if (shape[d] != 1 && strides[d] != expected)
      return false;
    expected *= shape[d];
  }
  return true;
}

std::optional<StridedLayout> reshapeLayout(const StridedLayout &layout,
                                           const std::vector<int64_t> &shape) {
  StridedLayout result{layout.offset, shape,
                       std::vector<int64_t>(shape.size())};
  if (layout.numElements() != result.numElements())
    return std::nullopt;
  if (result.numElements() == 0)
    return StridedLayout::contiguous(shape, layout.offset);
  // The input without its extent-1 dimensions (their strides do not matter).
  std::vector<int64_t> oldShape, oldStrides;
  for (size_t d = 0; d < layout.shape.size(); ++d)
    if (layout.shape[d] != 1) {
      oldShape.push_back(layout.shape[d]);
      oldStrides.push_back(layout.strides[d]);
    }
  // Match groups of old and new dimensions with equal products; inside a
  // group the old dimensions must be nested (stride = next stride * extent),
  // and the new ones take strides from the group's innermost stride.
  size_t oi = 0, ni = 0;
  while (ni < shape.size() && oi < oldShape.size()) {
    if (shape[ni] == 1) {
      result.strides[ni++] = 1;
      continue;
    }
    size_t oj = oi + 1, nj = ni + 1;
    int64_t oldProduct = oldShape[oi], newProduct = shape[ni];
    while (oldProduct != newProduct) {
      if (oldProduct < newProduct)
        oldProduct *= oldShape[oj++];
      else
        newProduct *= shape[nj++];
    }
    for (size_t k = oi; k + 1 < oj; ++k)
      if (oldStrides[k] != oldStrides[k + 1] * oldShape[k + 1])
        return std::nullopt;
    int64_t stride = oldStrides[oj - 1];
    for (size_t k = nj; k-- > ni;) {
      result.strides[k] = stride;
      stride *= shape[k];
    }
    oi = oj;
    ni = nj;
  }
  for (; ni < shape.size(); ++ni) // trailing extent-1 dimensions
    result.strides[ni] = 1;
  return result;
}

StridedLayout transposeLayout(const StridedLayout &layout,
                              const std::vector<int64_t> &permutation) {
  StridedLayout result{layout.offset, {}, {}};
  for (int64_t d : permutation) {
    result.shape.push_back(layout.shape[d]);
    result.strides.push_back(layout.strides[d]);
  }
  return result;
}

StridedLayout inverseTransposeLayout(const StridedLayout &result,
                                     const std::vector<int64_t> &permutation) {
  StridedLayout input{result.offset, std::vector<int64_t>(permutation.size()),
                      std::vector<int64_t>(permutation.size())};
  for (size_t i = 0; i < permutation.size(); ++i) {
    input.shape[permutation[i]] = result.shape[i];
    input.strides[permutation[i]] = result.strides[i];
  }
  return input;
}

StridedLayout sliceLayout(const StridedLayout &layout,
                          const std::vector<int64_t> &offsets,
                          const std::vector<int64_t> &shape) {
  StridedLayout result{layout.offset, shape, layout.strides};
  for (size_t d = 0; d < offsets.size(); ++d)
    result.offset += offsets[d] * layout.strides[d];
  return result;
}

std::optional<MatrixLayout> matrixLayout(const StridedLayout &layout) {
  size_t rank = layout.shape.size();
  if (rank < 2)
    return std::nullopt;
  int64_t rows = layout.shape[rank - 2], columns = layout.shape[rank - 1];
  int64_t rowStride = layout.strides[rank - 2];
  int64_t columnStride = layout.strides[rank - 1];
  // An extent-1 dimension is unit-strided whatever its stride says.
  if (columns == 1 || columnStride == 1) {
    int64_t ld = rows == 1 ? columns : rowStride;
    if (ld >= columns)
      return MatrixLayout{false, std::max<int64_t>(ld, 1)};
  }
  if (rows == 1 || rowStride == 1) {
    int64_t ld = columns == 1 ? rows : columnStride;
    if (ld >= rows)
      return MatrixLayout{true, std::max<int64_t>(ld, 1)};
  }
  return std::nullopt;
}

} // namespace tc
