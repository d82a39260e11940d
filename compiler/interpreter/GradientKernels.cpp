//===- GradientKernels.cpp - the dedicated gradient ops -------------------===//
//
// Each is computed from its definition in double precision (see the op
// descriptions in dialects/tc/TcOps.td); the autodiff tests check them
// against finite differences of the forward kernels.
//
//===----------------------------------------------------------------------===//

#include "compiler/interpreter/Kernels.h"
#include "compiler/interpreter/Rows.h"

#include <cmath>
#include <limits>

namespace tc::ref {

Tensor softmaxGrad(const Tensor &output, const Tensor &outputGrad,
                   int64_t axis) {
  Tensor out(output.dtype, output.shape);
  Rows rows(output.shape, axis);
  for (int64_t r = 0; r < rows.count(); ++r) {
    double dot = 0.0; // sum(dy * y)
    for (int64_t k = 0; k < rows.length; ++k)
      dot += outputGrad.get(rows.at(r, k)) * output.get(rows.at(r, k));
    for (int64_t k = 0; k < rows.length; ++k) {
      int64_t i = rows.at(r, k);
      out.set(i, output.get(i) * (outputGrad.get(i) - dot));
    }
  }
  return out;
}

std::tuple<Tensor, Tensor, Tensor> layerNormGrad(const Tensor &input,
                                                 const Tensor &gamma,
                                                 const Tensor &outputGrad,
                                                 double epsilon) {
  Tensor dx(input.dtype, input.shape);
  Rows rows(input.shape, input.shape.size() - 1);
  int64_t n = rows.length;
  std::vector<double> dgamma(n, 0.0), dbeta(n, 0.0), xhat(n), g(n);
  for (int64_t r = 0; r < rows.count(); ++r) {
    double mean = 0.0, var = 0.0;
    for (int64_t k = 0; k < n; ++k)
      mean += input.get(rows.at(r, k));
    mean /= n;
    for (int64_t k = 0; k < n; ++k) {
      double c = input.get(rows.at(r, k)) - mean;
      var += c * c;
    }
    var /= n;
    double rstd = 1.0 / std::sqrt(var + epsilon);
    double meanG = 0.0, meanGX = 0.0;
    for (int64_t k = 0; k < n; ++k) {
      double dy = outputGrad.get(rows.at(r, k));
      xhat[k] = (input.get(rows.at(r, k)) - mean) * rstd;
      g[k] = dy * gamma.get(k);
      meanG += g[k] / n;
      meanGX += g[k] * xhat[k] / n;
      dgamma[k] += dy * xhat[k];
      dbeta[k] += dy;
    }
    for (int64_t k = 0; k < n; ++k)
      dx.set(rows.at(r, k), rstd * (g[k] - meanG - xhat[k] * meanGX));
  }
  Tensor dg(gamma.dtype, gamma.shape), db(gamma.dtype, gamma.shape);
  for (int64_t k = 0; k < n; ++k) {
    dg.set(k, dgamma[k]);
    db.set(k, dbeta[k]);
  }
  return {dx, dg, db};
}

Tensor crossEntropyGrad(const Tensor &logits, const Tensor &targets,
                        const Tensor &lossGrad, double labelSmoothing,
                        int64_t ignoreIndex) {
  Tensor out(logits.dtype, logits.shape);
  Rows rows(logits.shape, logits.shape.size() - 1);
  int64_t vocab = rows.length;
  double scale = lossGrad.get(0);
  for (int64_t r = 0; r < rows.count(); ++r) {
    int64_t target = targets.ints[r];
    if (target == ignoreIndex)
      continue; // zeros
    double max = -std::numeric_limits<double>::infinity();
    for (int64_t v = 0; v < vocab; ++v)
      max = std::max(max, logits.get(rows.at(r, v)));
    double sum = 0.0;
    for (int64_t v = 0; v < vocab; ++v)
      sum += std::exp(logits.get(rows.at(r, v)) - max);
    for (int64_t v = 0; v < vocab; ++v) {
      double p = std::exp(logits.get(rows.at(r, v)) - max) / sum;
      double q =
          labelSmoothing / vocab + (v == target ? 1.0 - labelSmoothing : 0.0);
      out.set(rows.at(r, v), scale * (p - q));
    }
  }
  return out;
}

Tensor embeddingGrad(const Tensor &ids, const Tensor &outputGrad,
                     int64_t vocab, std::optional<int64_t> paddingId,
                     const Tensor *base) {
  int64_t dim = outputGrad.shape.back();
  std::vector<double> sums(vocab * dim, 0.0);
  if (base)
    for (int64_t i = 0; i < vocab * dim; ++i)
      sums[i] = base->get(i);
  for (int64_t t = 0; t < ids.size(); ++t)
    if (ids.ints[t] >= 0 && ids.ints[t] < vocab && // forward rejected the rest
        ids.ints[t] != paddingId)
      for (int64_t d = 0; d < dim; ++d)
        sums[ids.ints[t] * dim + d] += outputGrad.get(t * dim + d);
  Tensor out(outputGrad.dtype, {vocab, dim});
  for (int64_t i = 0; i < out.size(); ++i)
    out.set(i, sums[i]);
  return out;
}

} // namespace tc::ref
