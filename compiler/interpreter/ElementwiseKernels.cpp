//===- ElementwiseKernels.cpp - reference elementwise kernels -------------===//

#include "compiler/interpreter/Kernels.h"

#include <algorithm>
#include <cmath>

namespace tc::ref {

BroadcastIndex::BroadcastIndex(const Shape &from, const Shape &to)
    : toStrides(stridesOf(to)), fromStrides(to.size(), 0) {
  Shape strides = stridesOf(from);
  size_t offset = to.size() - from.size();
  for (size_t d = 0; d < from.size(); ++d)
    if (from[d] != 1)
      fromStrides[offset + d] = strides[d];
}

int64_t BroadcastIndex::operator()(int64_t index) const {
  int64_t result = 0;
  for (size_t d = 0; d < toStrides.size(); ++d) {
    result += (index / toStrides[d]) * fromStrides[d];
    index %= toStrides[d];
  }
  return result;
}

static double apply(BinaryFn fn, double a, double b) {
  switch (fn) {
  case BinaryFn::Add:
    return a + b;
  case BinaryFn::Sub:
    return a - b;
  case BinaryFn::Mul:
    return a * b;
  case BinaryFn::Div:
    return a / b;
  case BinaryFn::Max:
    return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
  case BinaryFn::Min:
    return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
  }
  return NAN;
}

static int64_t apply(BinaryFn fn, int64_t a, int64_t b) {
  switch (fn) {
  case BinaryFn::Add:
    return a + b;
  case BinaryFn::Sub:
    return a - b;
  case BinaryFn::Mul:
    return a * b;
  case BinaryFn::Max:
    return std::max(a, b);
  case BinaryFn::Min:
    return std::min(a, b);
  case BinaryFn::Div:
    break; // float-only (the verifier)
  }
  return 0;
}

Tensor binary(BinaryFn fn, const Tensor &lhs, const Tensor &rhs,
              const Shape &shape) {
  Tensor out(lhs.dtype, shape);
  BroadcastIndex li(lhs.shape, shape), ri(rhs.shape, shape);
  for (int64_t i = 0; i < out.size(); ++i) {
    if (isFloat(out.dtype))
      out.set(i, apply(fn, lhs.floats[li(i)], rhs.floats[ri(i)]));
    else // i32 wraps like the target's 32-bit arithmetic would
      out.setInt(
          i, out.dtype == DType::I32
                 ? int64_t(int32_t(apply(fn, lhs.ints[li(i)], rhs.ints[ri(i)])))
                 : apply(fn, lhs.ints[li(i)], rhs.ints[ri(i)]));
  }
  return out;
}

static double apply(UnaryFn fn, double x) {
  switch (fn) {
  case UnaryFn::Neg:
    return -x;
  case UnaryFn::Exp:
    return std::exp(x);
  case UnaryFn::Log:
    return std::log(x);
  case UnaryFn::Sqrt:
    return std::sqrt(x);
  case UnaryFn::Rsqrt:
    return 1.0 / std::sqrt(x);
  case UnaryFn::Tanh:
    return std::tanh(x);
  case UnaryFn::Relu:
    return x > 0.0 ? x : 0.0;
  }
  return NAN;
}

Tensor unary(UnaryFn fn, const Tensor &input) {
  Tensor out(input.dtype, input.shape);
  for (int64_t i = 0; i < out.size(); ++i)
    out.set(i, apply(fn, input.get(i)));
  return out;
}

static bool apply(CompareFn fn, double a, double b) {
  switch (fn) {
  case CompareFn::Eq:
    return a == b;
  case CompareFn::Ne:
    return a != b;
  case CompareFn::Lt:
    return a < b;
  case CompareFn::Le:
    return a <= b;
  case CompareFn::Gt:
    return a > b;
  case CompareFn::Ge:
    return a >= b;
  }
  return false;
}

Tensor compare(CompareFn fn, const Tensor &lhs, const Tensor &rhs,
               const Shape &shape) {
  Tensor out(DType::I1, shape);
  BroadcastIndex li(lhs.shape, shape), ri(rhs.shape, shape);
  for (int64_t i = 0; i < out.size(); ++i)
    out.setInt(i, apply(fn, lhs.get(li(i)), rhs.get(ri(i))));
  return out;
}

Tensor select(const Tensor &condition, const Tensor &onTrue,
              const Tensor &onFalse, const Shape &shape) {
  Tensor out(onTrue.dtype, shape);
  BroadcastIndex ci(condition.shape, shape), ti(onTrue.shape, shape),
      fi(onFalse.shape, shape);
  for (int64_t i = 0; i < out.size(); ++i)
    out.set(i, condition.ints[ci(i)] ? onTrue.get(ti(i)) : onFalse.get(fi(i)));
  return out;
}

Tensor convert(const Tensor &input, DType to) {
  Tensor out(to, input.shape);
  for (int64_t i = 0; i < out.size(); ++i) {
    if (isFloat(to) || isFloat(input.dtype))
      out.set(i, input.get(i)); // rounds, or truncates toward zero
    else if (to == DType::I1)
      out.setInt(i, input.ints[i] != 0);
    else
      out.setInt(i, to == DType::I32 ? static_cast<int32_t>(input.ints[i])
                                     : input.ints[i]);
  }
  return out;
}

} // namespace tc::ref
