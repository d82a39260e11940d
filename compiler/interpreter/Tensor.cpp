//===- Tensor.cpp - host tensors of the reference interpreter -------------===//

#include "compiler/interpreter/Tensor.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace tc {

bool isFloat(DType type) {
  return type == DType::F16 || type == DType::BF16 || type == DType::F32 ||
         type == DType::F64;
}

const char *dtypeName(DType type) {
  switch (type) {
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::I1:
    return "i1";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  }
  return "?";
}

/// bfloat16 is the upper half of an f32: round the lower half to nearest even.
static double roundToBF16(double value) {
  float f = static_cast<float>(value);
  if (std::isnan(f))
    return value;
  uint32_t bits = std::bit_cast<uint32_t>(f);
  bits += 0x7fff + ((bits >> 16) & 1);
  bits &= 0xffff0000u;
  return std::bit_cast<float>(bits);
}

/// Toward zero, saturating at the type's range, NaN -> 0 (tc.convert's
/// definition; undefined behaviour for a plain cast).
template <typename I> static double toInteger(double value) {
  if (std::isnan(value))
    return 0.0;
  double low = double(std::numeric_limits<I>::min());
  double high = double(std::numeric_limits<I>::max());
  if (value <= low)
    return low;
  if (value >= high)
    return high;
  return double(static_cast<I>(value));
}

double roundTo(DType type, double value) {
  switch (type) {
  case DType::F16:
    return static_cast<double>(static_cast<_Float16>(value));
  case DType::BF16:
    return roundToBF16(value);
  case DType::F32:
    return static_cast<double>(static_cast<float>(value));
  case DType::F64:
    return value;
  case DType::I1:
    return value != 0.0 ? 1.0 : 0.0;
  case DType::I32:
    return toInteger<int32_t>(value);
  case DType::I64:
    return toInteger<int64_t>(value);
  }
  return value;
}

int64_t numElements(const Shape &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

Shape stridesOf(const Shape &shape) {
  Shape strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

Tensor::Tensor(DType dtype, Shape shape)
    : dtype(dtype), shape(std::move(shape)) {
  if (isFloat(dtype))
    floats.assign(size(), 0.0);
  else
    ints.assign(size(), 0);
}

void Tensor::set(int64_t i, double value) {
  if (isFloat(dtype))
    floats[i] = roundTo(dtype, value);
  else if (dtype == DType::I64 && roundTo(dtype, value) >= 0x1p63)
    ints[i] = std::numeric_limits<int64_t>::max(); // 2^63 is out of range
  else
    ints[i] = static_cast<int64_t>(roundTo(dtype, value));
}

} // namespace tc
