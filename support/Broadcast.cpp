//===- Broadcast.cpp - NumPy broadcasting of static shapes ---------------===//

#include "support/Broadcast.h"

#include <algorithm>

namespace tc {

std::optional<Shape> broadcastShapes(std::span<const int64_t> a,
                                     std::span<const int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  Shape result(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Dimension i counted from the end; a missing one is 1.
    int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    result[rank - 1 - i] = da == 1 ? db : da;
  }
  return result;
}

Shape withUnitAxes(std::span<const int64_t> shape,
                   std::span<const int64_t> axes) {
  Shape result(shape.begin(), shape.end());
  for (int64_t axis : axes)
    result[axis < 0 ? axis + int64_t(result.size()) : axis] = 1;
  return result;
}

Shape withUnitAxes(std::span<const int64_t> shape,
                   std::initializer_list<int64_t> axes) {
  return withUnitAxes(shape,
                      std::span<const int64_t>(axes.begin(), axes.size()));
}

std::string formatShape(std::span<const int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

} // namespace tc
