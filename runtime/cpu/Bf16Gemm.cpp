//===- Bf16Gemm.cpp - the CPU device's GEMMs of bf16 operands -------------===//

#include "runtime/cpu/Bf16Gemm.h"
#include "runtime/cpu/Bf16Instructions.h"
#include "support/Bf16Rounding.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace tc::rt {
namespace {

/// Columns of op(B) widened and multiplied at a time: a thread's scratch
/// then holds its block of op(A) and k x 512 values of B, not all of a
/// vocabulary-wide weight.
constexpr int64_t kPanelColumns = 512;

/// The rows x cols bf16 values at `from` (rows `ld` apart) as f32 values,
/// packed at `to`. bf16 is the upper half of an f32: widening is exact.
void widen(const void *from, int64_t rows, int64_t cols, int64_t ld,
           float *to) {
  auto *bits = static_cast<const uint16_t *>(from);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < cols; ++j)
      to[r * cols + j] = std::bit_cast<float>(uint32_t(bits[r * ld + j]) << 16);
}

} // namespace

Bf16Gemm::Path Bf16Gemm::pathOfThisCpu() {
  return cpuHasBf16Gemms() ? Path::OneDnn : Path::Widened;
}

Bf16Gemm::Bf16Gemm(SgemmLibrary sgemm, Path path)
    : sgemm_(sgemm),
      matmuls_(path == Path::OneDnn ? std::make_unique<Bf16Matmuls>()
                                    : nullptr) {}

void Bf16Gemm::run(const GemmBlock &block) {
  if (matmuls_ && matmuls_->run(block))
    return;
  // A batch oneDNN did not take runs a product at a time.
  for (int64_t i = 0, n = block.batch.count(); i < n; ++i) {
    GemmBlock product = productOf(block, i, sizeof(uint16_t),
                                  sizeof(uint16_t), sizeof(float));
    if (block.batch.rank == 0 || !matmuls_ || !matmuls_->run(product))
      runWidened(product);
  }
}

void Bf16Gemm::runNarrowed(const GemmBlock &block) {
  // checkGemmTypes refused any other when the executable was opened: the
  // f32 scratch below starts from nothing and has no room for a bias.
  if (block.bias || block.beta != 0.0f) {
    std::fprintf(stderr, "tc-run: internal error: a GEMM with a bf16 result, "
                         "and a bias or beta %g\n",
                 double(block.beta));
    std::abort();
  }
  if (matmuls_ && matmuls_->run(block, /*bf16C=*/true))
    return;
  constexpr int64_t kBf16 = sizeof(uint16_t);
  thread_local std::vector<float> sums; // grows to the largest product
  for (int64_t i = 0, n = block.batch.count(); i < n; ++i) {
    GemmBlock product = productOf(block, i, kBf16, kBf16, kBf16);
    sums.resize(std::max<size_t>(sums.size(), product.rows * product.cols));
    GemmBlock wide = product;
    wide.c = sums.data();
    wide.ldc = product.cols;
    run(wide);
    for (int64_t r = 0; r < product.rows; ++r)
      support::roundToBf16(sums.data() + r * product.cols,
                           static_cast<uint16_t *>(product.c) + r * product.ldc,
                           product.cols);
  }
}

std::string Bf16Gemm::oneDnnKernel(const GemmBlock &block, bool bf16C) {
  return matmuls_ ? matmuls_->kernel(block, bf16C) : "";
}

std::string Bf16Gemm::describe() const {
  return matmuls_ ? "bf16 GEMMs by oneDNN's matmul"
                  : "bf16 GEMMs widened to f32 for " + describeSgemm(sgemm_);
}

void Bf16Gemm::runWidened(const GemmBlock &g) { // one product
  // op(A) is rows x k; stored transposed, A is k x rows. The same for
  // op(B), k x cols, in panels of columns.
  int64_t aRows = g.transposeA ? g.k : g.rows;
  int64_t aCols = g.transposeA ? g.rows : g.k;
  int64_t panel = std::min(g.cols, kPanelColumns);
  thread_local std::vector<float> scratch; // grows to the largest block
  scratch.resize(std::max<size_t>(scratch.size(), aRows * aCols + g.k * panel));
  float *a = scratch.data(), *b = a + aRows * aCols;
  widen(g.a, aRows, aCols, g.lda, a);
  const auto *bfB = static_cast<const uint16_t *>(g.b);
  for (int64_t col = 0; col < g.cols; col += panel) {
    int64_t cols = std::min(panel, g.cols - col);
    if (g.transposeB) // B is cols x k: rows col .. col + cols
      widen(bfB + col * g.ldb, cols, g.k, g.ldb, b);
    else // B is k x cols: columns col .. col + cols
      widen(bfB + col, g.k, cols, g.ldb, b);
    GemmBlock widened = g;
    widened.cols = cols;
    widened.a = a;
    widened.lda = aCols;
    widened.b = b;
    widened.ldb = g.transposeB ? g.k : cols;
    widened.c = static_cast<float *>(g.c) + col;
    widened.bias = g.bias ? static_cast<const float *>(g.bias) + col : nullptr;
    sgemmBlock(sgemm_, widened);
  }
}

} // namespace tc::rt
