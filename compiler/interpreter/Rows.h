//===- Rows.h - a tensor viewed as rows along one axis ----------------------===//

#ifndef TC_COMPILER_INTERPRETER_ROWS_H
#define TC_COMPILER_INTERPRETER_ROWS_H

#include "compiler/interpreter/Tensor.h"

namespace tc::ref {

/// Views a tensor as [outer, length, inner] around one axis: element k of
/// row r (r in [0, count())) is at ((r / inner) * length + k) * inner +
/// r % inner.
struct Rows {
  int64_t outer = 1, length, inner = 1;
  Rows(const Shape &shape, int64_t axis) : length(shape[axis]) {
    for (int64_t d = 0; d < axis; ++d)
      outer *= shape[d];
    for (size_t d = axis + 1; d < shape.size(); ++d)
      inner *= shape[d];
  }
  int64_t count() const { return outer * inner; }
  int64_t at(int64_t r, int64_t k) const {
    return ((r / inner) * length + k) * inner + r % inner;
  }
};

} // namespace tc::ref

#endif // TC_COMPILER_INTERPRETER_ROWS_H
