//===- Bf16BlockRows.cpp - the rows a bf16 GEMM block runs with on oneDNN -===//

#include "runtime/cpu/Bf16BlockRows.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace tc::rt {

int64_t bf16BlockRows(
    const GemmBlock &g,
    const std::function<std::string(const GemmBlock &)> &kernelOf) {
  if (g.rows >= kBf16RowsAlwaysKept || g.rows == 0)
    return g.rows;
  auto kernelAt = [&](int64_t rows) {
    GemmBlock block = g;
    if (rows != g.rows) { // as runWithRows gives it
      block.transposeA = false;
      block.lda = g.k;
      block.rows = rows;
      block.ldc = g.cols;
    }
    return kernelOf(block);
  };
  auto onAmx = [&](int64_t rows) {
    return kernelAt(rows).find("amx") != std::string::npos;
  };
  if (g.rows >= 2 && onAmx(g.rows))
    return g.rows;
  for (int64_t rows : {int64_t(2), kBf16RowsAlwaysKept})
    if (rows > g.rows && onAmx(rows))
      return rows;
  // No AMX: only a lone row changes, where oneDNN runs two.
  return g.rows == 1 && !kernelAt(2).empty() ? 2 : g.rows;
}

bool runWithRows(const GemmBlock &g, int64_t rows, int64_t sizeA,
                 int64_t sizeC,
                 const std::function<bool(const GemmBlock &)> &run) {
  thread_local std::vector<uint8_t> a, c;
  a.assign(rows * g.k * sizeA, 0);
  c.assign(rows * g.cols * sizeC, 0);
  const auto *from = static_cast<const uint8_t *>(g.a);
  for (int64_t i = 0; i < g.rows; ++i) {
    if (!g.transposeA) {
      std::memcpy(&a[i * g.k * sizeA], from + i * g.lda * sizeA, g.k * sizeA);
      continue;
    }
    for (int64_t kk = 0; kk < g.k; ++kk)
      std::memcpy(&a[(i * g.k + kk) * sizeA], from + (kk * g.lda + i) * sizeA,
                  sizeA);
  }
  auto *to = static_cast<uint8_t *>(g.c);
  if (g.beta != 0.0f) // the product adds to C's old values
    for (int64_t i = 0; i < g.rows; ++i)
      std::memcpy(&c[i * g.cols * sizeC], to + i * g.ldc * sizeC,
                  g.cols * sizeC);
  GemmBlock padded = g;
  padded.transposeA = false;
  padded.rows = rows;
  padded.a = a.data();
  padded.lda = g.k;
  padded.c = c.data();
  padded.ldc = g.cols;
  if (!run(padded))
    return false;
  for (int64_t i = 0; i < g.rows; ++i)
    std::memcpy(to + i * g.ldc * sizeC, &c[i * g.cols * sizeC],
                g.cols * sizeC);
  return true;
}

} // namespace tc::rt
