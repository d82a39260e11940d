//===- ModelKernels.cpp - embedding, dropout, masks, positions ------------===//

#include "compiler/interpreter/Kernels.h"
#include "support/PositionalEncoding.h"
#include "support/Philox.h"

#include <cmath>

namespace tc::ref {

Tensor embedding(const Tensor &table, const Tensor &ids, std::string &error) {
  int64_t vocab = table.shape[0], dim = table.shape[1];
  Shape shape = ids.shape;
  shape.push_back(dim);
  Tensor out(table.dtype, shape);
  for (int64_t t = 0; t < ids.size(); ++t) {
    int64_t id = ids.ints[t];
    if (id < 0 || id >= vocab) {
      error = "id " + std::to_string(id) + " at position " + std::to_string(t) +
              " is outside the table's [0, " + std::to_string(vocab) + ")";
      return {};
    }
    for (int64_t d = 0; d < dim; ++d)
      out.floats[t * dim + d] = table.floats[id * dim + d];
  }
  return out;
}

Tensor dropout(const Tensor &input, const Tensor &rng, double rate,
               int64_t key) {
  Tensor out(input.dtype, input.shape);
  uint64_t seed = rng.ints[0], step = rng.ints[1];
  for (int64_t i = 0; i < out.size(); ++i)
    out.set(i, dropoutKeeps(seed, step, key, i, rate)
                   ? input.get(i) / (1.0 - rate)
                   : 0.0);
  return out;
}

Tensor causalMask(int64_t length) {
  Tensor out(DType::I1, {length, length});
  for (int64_t i = 0; i < length; ++i)
    for (int64_t j = 0; j < length; ++j)
      out.setInt(i * length + j, j <= i);
  return out;
}

Tensor paddingMask(const Tensor &ids, int64_t padId) {
  Tensor out(DType::I1, ids.shape);
  for (int64_t i = 0; i < ids.size(); ++i)
    out.setInt(i, ids.ints[i] != padId);
  return out;
}

Tensor prefixMask(const Tensor &position, int64_t length) {
  int64_t rows = position.shape[0];
  Tensor out(DType::I1, {rows, length});
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < length; ++j)
      out.setInt(r * length + j, j <= position.ints[r]);
  return out;
}

Tensor cacheUpdate(const Tensor &cache, const Tensor &value,
                   const Tensor &position, std::string &error) {
  int64_t rows = cache.shape[0], length = cache.shape[1],
          channels = cache.shape[2];
  Tensor out = cache;
  for (int64_t r = 0; r < rows; ++r) {
    int64_t at = position.ints[r];
    if (at < 0 || at >= length) {
      error = "row " + std::to_string(r) + " has position " +
              std::to_string(at) + "; it must lie in [0, " +
              std::to_string(length) + ")";
      return {};
    }
    for (int64_t c = 0; c < channels; ++c)
      out.floats[(r * length + at) * channels + c] =
          value.floats[r * channels + c];
  }
  return out;
}

Tensor beamHistory(const Tensor &history, const Tensor &origin,
                   const Tensor &position, std::string &error) {
  int64_t rows = history.shape[0], length = history.shape[1];
  Tensor out = history;
  for (int64_t r = 0; r < rows; ++r) {
    int64_t from = origin.ints[r], at = position.ints[r];
    if (from < 0 || from >= rows || at < 0 || at >= length) {
      error = "row " + std::to_string(r) + " has origin " +
              std::to_string(from) + " and position " + std::to_string(at) +
              "; they must lie in [0, " + std::to_string(rows) + ") and [0, " +
              std::to_string(length) + ")";
      return {};
    }
    for (int64_t j = 0; j < at; ++j)
      out.ints[r * length + j] = history.ints[from * length + j];
    out.ints[r * length + at] = r;
  }
  return out;
}

Tensor cachedAttention(const Tensor &query, const Tensor &keys,
                       const Tensor &values, const Tensor *slot,
                       const Tensor *history, const Tensor *limit,
                       const Tensor *keyMask, int64_t heads,
                       std::string &error) {
  int64_t rows = query.shape[0], cacheRows = keys.shape[0],
          length = keys.shape[1], dk = keys.shape[2] / heads,
          dv = values.shape[2] / heads;
  Tensor out(query.dtype, {rows, 1, heads * dv});
  for (int64_t r = 0; r < rows; ++r) {
    // Position j's cache row, and whether row r may attend to it.
    std::vector<int64_t> cacheRow(length);
    std::vector<bool> allowed(length);
    for (int64_t j = 0; j < length; ++j) {
      int64_t c = history ? history->ints[r * length + j]
                  : slot  ? slot->ints[r]
                          : r;
      allowed[j] = !limit || j <= limit->ints[r];
      if (allowed[j] && (c < 0 || c >= cacheRows)) {
        error = "row " + std::to_string(r) + " reads position " +
                std::to_string(j) + " from cache row " + std::to_string(c) +
                ", outside [0, " + std::to_string(cacheRows) + ")";
        return {};
      }
      allowed[j] = allowed[j] && (!keyMask || keyMask->ints[c * length + j]);
      cacheRow[j] = c;
    }
    for (int64_t h = 0; h < heads; ++h) {
      std::vector<double> score(length, 0.0);
      double max = -INFINITY;
      for (int64_t j = 0; j < length; ++j) {
        if (!allowed[j])
          continue;
        int64_t c = cacheRow[j];
        for (int64_t d = 0; d < dk; ++d)
          score[j] += query.floats[r * heads * dk + h * dk + d] *
                      keys.floats[(c * length + j) * heads * dk + h * dk + d];
        score[j] /= std::sqrt(double(dk));
        max = std::max(max, score[j]);
      }
      double sum = 0.0;
      for (int64_t j = 0; j < length; ++j)
        if (allowed[j])
          sum += score[j] = std::exp(score[j] - max);
      for (int64_t d = 0; d < dv; ++d) {
        double context = 0.0;
        for (int64_t j = 0; j < length; ++j)
          if (allowed[j])
            context += score[j] / sum *
                       values.floats[(cacheRow[j] * length + j) * heads * dv +
                                     h * dv + d];
        out.set(r * heads * dv + h * dv + d, context);
      }
    }
  }
  return out;
}

Tensor positionalEncoding(DType dtype, int64_t length, int64_t dim) {
  Tensor out(dtype, {length, dim});
  for (int64_t pos = 0; pos < length; ++pos)
    for (int64_t c = 0; c < dim; ++c)
      out.set(pos * dim + c, support::positionalEncoding(pos, c, dim));
  return out;
}

} // namespace tc::ref
