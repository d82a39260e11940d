//===- ShapeKernels.cpp - reshape, transpose, broadcast, slice, concat ----===//

#include "compiler/interpreter/Kernels.h"

namespace tc::ref {

/// out[i] = input[sourceOf(i)] for every element of a tensor of `shape`.
template <typename SourceIndex>
static Tensor gather(const Tensor &input, const Shape &shape,
                     SourceIndex sourceOf) {
  Tensor out(input.dtype, shape);
  for (int64_t i = 0; i < out.size(); ++i) {
    if (isFloat(input.dtype))
      out.floats[i] = input.floats[sourceOf(i)];
    else
      out.ints[i] = input.ints[sourceOf(i)];
  }
  return out;
}

Tensor reshape(const Tensor &input, const Shape &shape) {
  return gather(input, shape, [](int64_t i) { return i; });
}

Tensor transpose(const Tensor &input, const Shape &permutation) {
  Shape shape, inStrides = stridesOf(input.shape);
  for (int64_t p : permutation)
    shape.push_back(input.shape[p]);
  Shape outStrides = stridesOf(shape);
  return gather(input, shape, [&](int64_t i) {
    int64_t source = 0;
    for (size_t d = 0; d < shape.size(); ++d) {
      source += (i / outStrides[d]) * inStrides[permutation[d]];
      i %= outStrides[d];
    }
    return source;
  });
}

Tensor broadcastTo(const Tensor &input, const Shape &shape) {
  return gather(input, shape, BroadcastIndex(input.shape, shape));
}

Tensor slice(const Tensor &input, const Shape &offsets, const Shape &sizes) {
  Shape inStrides = stridesOf(input.shape), outStrides = stridesOf(sizes);
  return gather(input, sizes, [&](int64_t i) {
    int64_t source = 0;
    for (size_t d = 0; d < sizes.size(); ++d) {
      source += (i / outStrides[d] + offsets[d]) * inStrides[d];
      i %= outStrides[d];
    }
    return source;
  });
}

Tensor concat(const std::vector<const Tensor *> &inputs, int64_t axis) {
  Shape shape = inputs.front()->shape;
  shape[axis] = 0;
  for (const Tensor *input : inputs)
    shape[axis] += input->shape[axis];
  Tensor out(inputs.front()->dtype, shape);
  Shape outStrides = stridesOf(shape);
  int64_t start = 0; // where the current input begins along the axis
  for (const Tensor *input : inputs) {
    Shape inStrides = stridesOf(input->shape);
    for (int64_t i = 0; i < input->size(); ++i) {
      int64_t target = 0, rest = i;
      for (size_t d = 0; d < shape.size(); ++d) {
        int64_t coord = rest / inStrides[d];
        rest %= inStrides[d];
        target += (d == size_t(axis) ? coord + start : coord) * outStrides[d];
      }
      if (isFloat(out.dtype))
        out.floats[target] = input->floats[i];
      else
        out.ints[target] = input->ints[i];
    }
    start += input->shape[axis];
  }
  return out;
}

} // namespace tc::ref
