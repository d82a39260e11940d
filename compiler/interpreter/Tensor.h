//===- Tensor.h - host tensors of the reference interpreter ---------------===//
//
// A deliberately plain tensor: a shape, an element type and row-major
// storage. Floating-point elements are held as double and rounded to their
// element type after every operation, so a graph of f32 ops computes what a
// careful f32 program would, with double-precision accumulation inside each
// operation. Integer and boolean elements are held as int64.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_INTERPRETER_TENSOR_H
#define TC_COMPILER_INTERPRETER_TENSOR_H

#include "support/Broadcast.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tc {

enum class DType { F16, BF16, F32, F64, I1, I32, I64 };

bool isFloat(DType type);
/// "f32", "i32", ...: as in MLIR types.
const char *dtypeName(DType type);
/// The nearest value of `type` to `value` (round to nearest even).
double roundTo(DType type, double value);

int64_t numElements(const Shape &shape);
/// Row-major strides of `shape`, in elements.
Shape stridesOf(const Shape &shape);

struct Tensor {
  DType dtype = DType::F32;
  Shape shape;
  std::vector<double> floats; ///< the elements when isFloat(dtype)
  std::vector<int64_t> ints;  ///< the elements otherwise

  Tensor() = default;
  /// A zero-filled tensor.
  Tensor(DType dtype, Shape shape);

  int64_t size() const { return numElements(shape); }
  /// Element `i` (row-major) as a double, whatever the element type.
  double get(int64_t i) const { return isFloat(dtype) ? floats[i] : ints[i]; }
  /// Stores `value` at `i`, rounded or truncated to the element type.
  void set(int64_t i, double value);
  void setInt(int64_t i, int64_t value) { ints[i] = value; }
};

} // namespace tc

#endif // TC_COMPILER_INTERPRETER_TENSOR_H
