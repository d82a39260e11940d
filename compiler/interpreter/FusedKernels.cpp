//===- FusedKernels.cpp - the fused forward ops and their gradients -------===//
//
// Each follows its op's definition in TcFusedOps.td in double precision,
// rounding once per result; the fusion tests compare them with the unfused
// graphs they replace.
//
//===----------------------------------------------------------------------===//

#include "compiler/interpreter/Kernels.h"
#include "compiler/interpreter/Rows.h"
#include "support/Philox.h"

#include <cmath>
#include <limits>

namespace tc::ref {

namespace {
/// Dropout's factor for element i: 0 or 1 / (1 - rate).
double keepFactor(const Tensor &rng, int64_t key, double rate, int64_t i) {
  if (rate == 0.0)
    return 1.0;
  return dropoutKeeps(rng.ints[0], rng.ints[1], key, i, rate)
             ? 1.0 / (1.0 - rate)
             : 0.0;
}
} // namespace

Tensor linear(const Tensor &input, const Tensor &weight, const Tensor &bias,
              bool relu) {
  int64_t in = weight.shape[1], outDim = weight.shape[0];
  int64_t rows = input.size() / in;
  Shape shape = input.shape;
  shape.back() = outDim;
  Tensor out(bias.dtype, shape);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t o = 0; o < outDim; ++o) {
      double sum = bias.get(o);
      for (int64_t k = 0; k < in; ++k)
        sum += input.get(r * in + k) * weight.get(o * in + k);
      out.set(r * outDim + o, relu && sum < 0.0 ? 0.0 : sum);
    }
  return out;
}

std::tuple<Tensor, Tensor, Tensor>
residualLayerNorm(const Tensor &residual, const Tensor &sublayer,
                  const Tensor &gamma, const Tensor &beta, const Tensor &rng,
                  double rate, int64_t key, double epsilon) {
  Tensor out(residual.dtype, residual.shape);
  Rows rows(residual.shape, residual.shape.size() - 1);
  Shape statShape = withUnitAxes(residual.shape, {-1}); // [..., 1]
  Tensor mean(residual.dtype, statShape), rstd(residual.dtype, statShape);
  std::vector<double> s(rows.length);
  for (int64_t r = 0; r < rows.count(); ++r) {
    double m = 0.0, var = 0.0;
    for (int64_t k = 0; k < rows.length; ++k) {
      int64_t i = rows.at(r, k);
      s[k] = residual.get(i) + sublayer.get(i) * keepFactor(rng, key, rate, i);
      m += s[k];
    }
    m /= rows.length;
    for (int64_t k = 0; k < rows.length; ++k)
      var += (s[k] - m) * (s[k] - m);
    double inv = 1.0 / std::sqrt(var / rows.length + epsilon);
    for (int64_t k = 0; k < rows.length; ++k)
      out.set(rows.at(r, k), (s[k] - m) * inv * gamma.get(k) + beta.get(k));
    mean.set(r, m);
    rstd.set(r, inv);
  }
  return {out, mean, rstd};
}

std::tuple<Tensor, Tensor, Tensor, Tensor>
residualLayerNormGrad(const Tensor &residual, const Tensor &sublayer,
                      const Tensor &gamma, const Tensor &mean,
                      const Tensor &rstd, const Tensor &outputGrad,
                      const Tensor &rng, double rate, int64_t key) {
  Tensor dres(residual.dtype, residual.shape),
      dsub(residual.dtype, residual.shape);
  Rows rows(residual.shape, residual.shape.size() - 1);
  int64_t n = rows.length;
  std::vector<double> dgamma(n, 0.0), dbeta(n, 0.0), xhat(n), g(n);
  for (int64_t r = 0; r < rows.count(); ++r) {
    double m = mean.get(r), inv = rstd.get(r), meanG = 0.0, meanGX = 0.0;
    for (int64_t k = 0; k < n; ++k) {
      int64_t i = rows.at(r, k);
      double s =
          residual.get(i) + sublayer.get(i) * keepFactor(rng, key, rate, i);
      double dy = outputGrad.get(i);
      xhat[k] = (s - m) * inv;
      g[k] = dy * gamma.get(k);
      meanG += g[k] / n;
      meanGX += g[k] * xhat[k] / n;
      dgamma[k] += dy * xhat[k];
      dbeta[k] += dy;
    }
    for (int64_t k = 0; k < n; ++k) {
      int64_t i = rows.at(r, k);
      double ds = inv * (g[k] - meanG - xhat[k] * meanGX);
      dres.set(i, ds);
      dsub.set(i, ds * keepFactor(rng, key, rate, i));
    }
  }
  Tensor dg(gamma.dtype, gamma.shape), db(gamma.dtype, gamma.shape);
  for (int64_t k = 0; k < n; ++k) {
    dg.set(k, dgamma[k]);
    db.set(k, dbeta[k]);
  }
  return {dres, dsub, dg, db};
}

std::pair<Tensor, Tensor> maskedSoftmax(const Tensor &scores,
                                        const Tensor &mask, const Tensor &rng,
                                        double scale, double fill, double rate,
                                        int64_t key) {
  Tensor out(scores.dtype, scores.shape), probs(scores.dtype, scores.shape);
  BroadcastIndex maskAt(mask.shape, scores.shape);
  Rows rows(scores.shape, scores.shape.size() - 1);
  std::vector<double> z(rows.length);
  for (int64_t r = 0; r < rows.count(); ++r) {
    double max = -std::numeric_limits<double>::infinity(), sum = 0.0;
    for (int64_t k = 0; k < rows.length; ++k) {
      int64_t i = rows.at(r, k);
      z[k] = mask.ints[maskAt(i)] ? scores.get(i) * scale : fill;
      max = std::max(max, z[k]);
    }
    for (int64_t k = 0; k < rows.length; ++k)
      sum += std::exp(z[k] - max);
    for (int64_t k = 0; k < rows.length; ++k) {
      int64_t i = rows.at(r, k);
      double p = std::exp(z[k] - max) / sum;
      probs.set(i, p);
      out.set(i, p * keepFactor(rng, key, rate, i));
    }
  }
  return {out, probs};
}

Tensor maskedSoftmaxGrad(const Tensor &probs, const Tensor &outputGrad,
                         const Tensor &mask, const Tensor &rng, double scale,
                         double rate, int64_t key) {
  Tensor out(probs.dtype, probs.shape);
  BroadcastIndex maskAt(mask.shape, probs.shape);
  Rows rows(probs.shape, probs.shape.size() - 1);
  std::vector<double> dp(rows.length);
  for (int64_t r = 0; r < rows.count(); ++r) {
    double dot = 0.0;
    for (int64_t k = 0; k < rows.length; ++k) {
      int64_t i = rows.at(r, k);
      dp[k] = outputGrad.get(i) * keepFactor(rng, key, rate, i);
      dot += dp[k] * probs.get(i);
    }
    for (int64_t k = 0; k < rows.length; ++k) {
      int64_t i = rows.at(r, k);
      out.set(i, mask.ints[maskAt(i)] ? scale * probs.get(i) * (dp[k] - dot)
                                      : 0.0);
    }
  }
  return out;
}

Tensor embed(const Tensor &table, const Tensor &ids, const Tensor &positions,
             const Tensor &rng, double scale, double rate, int64_t key,
             std::string &error) {
  Tensor rows = embedding(table, ids, error);
  if (!error.empty())
    return {};
  int64_t dim = table.shape[1], length = ids.shape[1];
  Tensor out(table.dtype, rows.shape);
  for (int64_t i = 0; i < out.size(); ++i) {
    int64_t t = i / dim, d = i % dim;
    double x = rows.get(i) * scale + positions.get((t % length) * dim + d);
    out.set(i, x * keepFactor(rng, key, rate, i));
  }
  return out;
}

} // namespace tc::ref
