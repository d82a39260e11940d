//===- ReductionKernels.cpp - reductions and row-wise normalisations ------===//

#include "compiler/interpreter/Kernels.h"
#include "compiler/interpreter/Rows.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace tc::ref {

Tensor reduce(ReduceFn fn, const Tensor &input, const Shape &axes,
              bool keepDims) {
  // Accumulate into a keep-dims shaped buffer, then drop the reduced
  // dimensions from the shape if asked: the row-major order is the same.
  Shape kept = input.shape;
  int64_t count = 1;
  for (int64_t axis : axes) {
    count *= kept[axis];
    kept[axis] = 1;
  }
  double init =
      fn == ReduceFn::Max ? -std::numeric_limits<double>::infinity() : 0.0;
  std::vector<double> acc(numElements(kept), init);
  Shape inStrides = stridesOf(input.shape), keptStrides = stridesOf(kept);
  for (int64_t i = 0; i < input.size(); ++i) {
    int64_t target = 0, rest = i;
    for (size_t d = 0; d < input.shape.size(); ++d) {
      int64_t coord = rest / inStrides[d];
      rest %= inStrides[d];
      if (kept[d] != 1) // reduced (and size-1) dimensions add nothing
        target += coord * keptStrides[d];
    }
    double x = input.get(i);
    acc[target] = fn == ReduceFn::Max
                      ? (std::isnan(x) ? x : std::max(acc[target], x))
                      : acc[target] + x;
  }
  Shape shape;
  for (size_t d = 0; d < input.shape.size(); ++d)
    if (keepDims ||
        std::find(axes.begin(), axes.end(), int64_t(d)) == axes.end())
      shape.push_back(kept[d]);
  Tensor out(input.dtype, shape);
  for (int64_t i = 0; i < out.size(); ++i)
    out.set(i, fn == ReduceFn::Mean ? acc[i] / count : acc[i]);
  return out;
}

Tensor softmax(const Tensor &input, int64_t axis) {
  Tensor out(input.dtype, input.shape);
  Rows rows(input.shape, axis);
  for (int64_t r = 0; r < rows.count(); ++r) {
    double max = -std::numeric_limits<double>::infinity();
    for (int64_t k = 0; k < rows.length; ++k)
      max = std::max(max, input.get(rows.at(r, k)));
    double sum = 0.0;
    for (int64_t k = 0; k < rows.length; ++k)
      sum += std::exp(input.get(rows.at(r, k)) - max);
    for (int64_t k = 0; k < rows.length; ++k)
      out.set(rows.at(r, k), std::exp(input.get(rows.at(r, k)) - max) / sum);
  }
  return out;
}

Tensor logSoftmax(const Tensor &input) {
  // Each intermediate rounded to the element type where the chain of ops
  // stored it, so that the decoder's log-probabilities are those of the
  // chain (reduce_max and reduce_sum accumulate in double, as reduce does).
  auto rounded = [&](double x) { return roundTo(input.dtype, x); };
  Tensor out(input.dtype, input.shape);
  Rows rows(input.shape, input.shape.size() - 1);
  std::vector<double> shifted(rows.length);
  for (int64_t r = 0; r < rows.count(); ++r) {
    double max = -std::numeric_limits<double>::infinity();
    for (int64_t k = 0; k < rows.length; ++k) {
      double x = input.get(rows.at(r, k));
      max = std::isnan(x) ? x : std::max(max, x);
    }
    double sum = 0.0;
    for (int64_t k = 0; k < rows.length; ++k) {
      shifted[k] = rounded(input.get(rows.at(r, k)) - max);
      sum += rounded(std::exp(shifted[k]));
    }
    double logSum = rounded(std::log(rounded(sum)));
    for (int64_t k = 0; k < rows.length; ++k)
      out.set(rows.at(r, k), shifted[k] - logSum);
  }
  return out;
}

Tensor layerNorm(const Tensor &input, const Tensor &gamma, const Tensor &beta,
                 double epsilon) {
  Tensor out(input.dtype, input.shape);
  Rows rows(input.shape, input.shape.size() - 1);
  for (int64_t r = 0; r < rows.count(); ++r) {
    double mean = 0.0, var = 0.0;
    for (int64_t k = 0; k < rows.length; ++k)
      mean += input.get(rows.at(r, k));
    mean /= rows.length;
    for (int64_t k = 0; k < rows.length; ++k) {
      double c = input.get(rows.at(r, k)) - mean;
      var += c * c;
    }
    var /= rows.length;
    double rstd = 1.0 / std::sqrt(var + epsilon);
    for (int64_t k = 0; k < rows.length; ++k)
      out.set(rows.at(r, k),
              (input.get(rows.at(r, k)) - mean) * rstd * gamma.get(k) +
                  beta.get(k));
  }
  return out;
}

std::pair<Tensor, Tensor>
crossEntropy(const Tensor &logits, const Tensor &targets, double labelSmoothing,
             int64_t ignoreIndex, std::string &error) {
  Rows rows(logits.shape, logits.shape.size() - 1);
  int64_t vocab = rows.length;
  double total = 0.0;
  int64_t tokens = 0;
  for (int64_t r = 0; r < rows.count(); ++r) {
    int64_t target = targets.ints[r];
    if (target == ignoreIndex)
      continue;
    if (target < 0 || target >= vocab) {
      error = "target " + std::to_string(target) + " at position " +
              std::to_string(r) + " is outside the vocabulary [0, " +
              std::to_string(vocab) + ")";
      return {};
    }
    double max = -std::numeric_limits<double>::infinity();
    for (int64_t v = 0; v < vocab; ++v)
      max = std::max(max, logits.get(rows.at(r, v)));
    double sumExp = 0.0, sumLogits = 0.0;
    for (int64_t v = 0; v < vocab; ++v) {
      sumExp += std::exp(logits.get(rows.at(r, v)) - max);
      sumLogits += logits.get(rows.at(r, v));
    }
    double logSumExp = max + std::log(sumExp);
    double nll = logSumExp - logits.get(rows.at(r, target));
    double meanNll = logSumExp - sumLogits / vocab; // mean over v of -logp[v]
    total += (1.0 - labelSmoothing) * nll + labelSmoothing * meanNll;
    ++tokens;
  }
  Tensor loss(logits.dtype, {});
  loss.set(0, total);
  Tensor count(DType::I32, {});
  count.setInt(0, tokens);
  return {loss, count};
}

std::pair<Tensor, Tensor> topK(const Tensor &input, int64_t k) {
  int64_t n = input.shape.back(), rows = input.size() / n;
  Shape shape = input.shape;
  shape.back() = k;
  Tensor values(input.dtype, shape), indices(DType::I32, shape);
  std::vector<int64_t> order(n);
  for (int64_t r = 0; r < rows; ++r) {
    const double *row = input.floats.data() + r * n;
    for (int64_t j = 0; j < n; ++j)
      order[j] = j;
    // The whole row sorted: larger first, then the lower index.
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return row[a] > row[b]; });
    for (int64_t j = 0; j < k; ++j) {
      values.floats[r * k + j] = row[order[j]];
      indices.setInt(r * k + j, order[j]);
    }
  }
  return {std::move(values), std::move(indices)};
}

} // namespace tc::ref
