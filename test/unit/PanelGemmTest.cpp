//===- PanelGemmTest.cpp - f32 weight GEMMs on packed panels --------------===//
//
// runtime/cpu/PanelGemm.h against a double-precision product computed
// here, within the rigorous bound of a k-term f32 sum:
// |got - exact| <= (k + 1) 2^-24 (sum_k |a b| + |bias|) (+ 1e-30 for
// exact zeros). Shapes cover 1..9 rows (every tile height and its
// remainder), column counts that end inside a panel, op(A) and op(B) read
// transposed or not, bias and ReLU. And the property the decoder relies on
// (PanelGemm.h): a row's results are bit for bit the same whatever other
// rows, row count or column split its block has. And the int8 panels'
// s32 sums, exactly.
//
// On a CPU without AVX2 and FMA the kernel does not run: the tests skip.
//
//===----------------------------------------------------------------------===//

#include "runtime/cpu/PanelGemm.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>
#include <tuple>
#include <vector>

namespace {

using tc::rt::GemmBlock;
using tc::rt::PackedPanels;

struct Shape {
  int64_t rows, cols, k;
  bool transposeA, transposeB, bias, relu;
};

/// A block's operands, with padding in every leading dimension (lda, ldb
/// and ldc exceed the dense size) so that a stride mistake shows.
struct Operands {
  Shape s;
  int64_t lda, ldb, ldc;
  std::vector<float> a, b, c, bias;
  explicit Operands(const Shape &s, uint32_t seed = 7) : s(s) {
    std::mt19937 random(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    lda = (s.transposeA ? s.rows : s.k) + 3;
    ldb = (s.transposeB ? s.k : s.cols) + 5;
    ldc = s.cols + 2;
    a.resize((s.transposeA ? s.k : s.rows) * lda);
    b.resize((s.transposeB ? s.cols : s.k) * ldb);
    c.assign(s.rows * ldc, 7.0f);
    bias.resize(s.cols);
    for (auto *v : {&a, &b, &bias})
      for (float &x : *v)
        x = normal(random);
  }
  GemmBlock block() {
    return {.transposeA = s.transposeA,
            .transposeB = s.transposeB,
            .rows = s.rows,
            .cols = s.cols,
            .k = s.k,
            .a = a.data(),
            .lda = lda,
            .b = b.data(),
            .ldb = ldb,
            .c = c.data(),
            .ldc = ldc,
            .bias = s.bias ? bias.data() : nullptr,
            .relu = s.relu};
  }
  float aAt(int64_t i, int64_t kk) const {
    return s.transposeA ? a[kk * lda + i] : a[i * lda + kk];
  }
  float bAt(int64_t kk, int64_t j) const {
    return s.transposeB ? b[j * ldb + kk] : b[kk * ldb + j];
  }
  float cAt(int64_t i, int64_t j) const { return c[i * ldc + j]; }
};

const Shape kShapes[] = {
    {1, 16, 256, false, true, true, false},
    {2, 17, 33, false, true, false, false},
    {3, 100, 256, true, false, true, true},
    {4, 256, 256, false, true, true, false},
    {5, 31, 1024, false, false, false, true},
    {6, 48, 7, true, true, true, false},
    {7, 2000, 256, false, true, false, false},
    {8, 15, 64, false, true, true, true},
    {9, 1, 5, false, false, true, false},
};

TEST(PanelGemm, EqualsDoubleProductWithinTheF32SumBound) {
  if (!tc::rt::cpuHasPanelKernel())
    GTEST_SKIP() << "this CPU lacks AVX2 or FMA";
  for (const Shape &s : kShapes) {
    Operands o(s);
    GemmBlock g = o.block();
    PackedPanels panels(g);
    tc::rt::panelGemm(g, panels);
    for (int64_t i = 0; i < s.rows; ++i) {
      for (int64_t j = 0; j < s.cols; ++j) {
        double exact = s.bias ? o.bias[j] : 0.0;
        double magnitude = std::fabs(exact);
        for (int64_t kk = 0; kk < s.k; ++kk) {
          exact += double(o.aAt(i, kk)) * o.bAt(kk, j);
          magnitude += std::fabs(double(o.aAt(i, kk)) * o.bAt(kk, j));
        }
        double expected = s.relu ? std::max(exact, 0.0) : exact;
        ASSERT_NEAR(o.cAt(i, j), expected,
                    (s.k + 1) * std::ldexp(magnitude, -24) + 1e-30)
            << s.rows << "x" << s.cols << "x" << s.k << " at " << i << ","
            << j;
      }
      // The padding after each row of C is left alone.
      ASSERT_EQ(o.c[i * o.ldc + s.cols], 7.0f);
    }
  }
}

// Rows 0..rows of a 64-row block, against the same rows run in blocks of
// 1, 3 and 4 rows and in two column halves (as the device splits them
// among threads): the same bits.
TEST(PanelGemm, RowResultsDoNotDependOnTheBlock) {
  if (!tc::rt::cpuHasPanelKernel())
    GTEST_SKIP() << "this CPU lacks AVX2 or FMA";
  Shape whole{64, 200, 256, false, true, true, false};
  Operands all(whole);
  GemmBlock g = all.block();
  tc::rt::panelGemm(g, PackedPanels(g));
  for (int64_t height : {1, 3, 4}) {
    for (int64_t first = 0; first + height <= whole.rows; first += 9) {
      Operands part(whole); // the same numbers (same seed)
      for (int64_t half = 0; half < 2; ++half) {
        GemmBlock p = part.block();
        int64_t firstCol = half ? 96 : 0;
        p.rows = height;
        p.cols = half ? whole.cols - 96 : 96;
        p.a = part.a.data() + first * part.lda;
        p.b = part.b.data() + firstCol * part.ldb;
        p.c = part.c.data() + first * part.ldc + firstCol;
        p.bias = part.bias.data() + firstCol;
        tc::rt::panelGemm(p, PackedPanels(p));
      }
      for (int64_t i = first; i < first + height; ++i)
        ASSERT_EQ(std::memcmp(&part.c[i * part.ldc], &all.c[i * all.ldc],
                              whole.cols * sizeof(float)),
                  0)
            << "row " << i << " in a block of " << height;
    }
  }
}

// PackedInt8Panels::product's sums against int64 sums computed here,
// dequantized with unit scales and no shift (exact in f32: every sum here
// is below 2^24): exactly equal, with every u8 value 0..127 and s8 value
// -63..63 (the extremes as well: a row's first 8 values 127 times a
// column's 63 or -63 make the kernel's s16 sums of two pair sums +-32,004,
// the closest to saturating), k that is not a whole number of quads, and
// 1..9 rows; C's columns past cols untouched. (The dequantization's scales,
// shift, bias and ReLU: PreparedGemmsTest's Int8PanelsEqualOneDnnBitForBit.)
TEST(PanelGemm, Int8SumsAreExact) {
  if (!tc::rt::cpuHasPanelKernel())
    GTEST_SKIP() << "this CPU lacks AVX2 or FMA";
  std::mt19937 random(11);
  for (auto [rows, cols, k] : {std::tuple<int64_t, int64_t, int64_t>{1, 16, 4},
                               {3, 17, 13}, {4, 100, 256}, {9, 33, 1023}}) {
    const int limit = tc::rt::kInt8PanelWeightLimit;
    std::vector<int8_t> columns(cols * k);
    for (int8_t &w : columns)
      w = int8_t(std::uniform_int_distribution<int>(-limit, limit)(random));
    for (int64_t kk = 0; kk < std::min<int64_t>(k, 8); ++kk) {
      columns[kk] = int8_t(limit);
      if (cols > 1)
        columns[k + kk] = int8_t(-limit);
    }
    tc::rt::PackedInt8Panels panels(columns.data(), k, cols);
    int64_t ld = panels.paddedK();
    ASSERT_EQ(ld % 8, 0);
    ASSERT_GE(ld, k);
    std::vector<uint8_t> a(rows * ld, 0);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t kk = 0; kk < k; ++kk)
        a[i * ld + kk] =
            uint8_t(std::uniform_int_distribution<int>(0, 127)(random));
    for (int64_t kk = 0; kk < std::min<int64_t>(k, 8); ++kk)
      a[kk] = 127;
    std::vector<float> ones(std::max(rows, cols), 1.0f);
    std::vector<int32_t> noSums(cols, 0);
    tc::rt::Int8Dequantization unit{ones.data(), ones.data(), noSums.data(),
                                    /*shift=*/0,  nullptr,     false};
    const int64_t ldc = cols + 3;
    std::vector<float> c(rows * ldc, -1.0f);
    panels.product(a.data(), rows, unit, c.data(), ldc);
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; ++j) {
        int64_t exact = 0;
        for (int64_t kk = 0; kk < k; ++kk)
          exact += int64_t(a[i * ld + kk]) * columns[j * k + kk];
        ASSERT_EQ(c[i * ldc + j], float(exact))
            << rows << "x" << cols << "x" << k << " at " << i << "," << j;
      }
      for (int64_t j = cols; j < ldc; ++j)
        ASSERT_EQ(c[i * ldc + j], -1.0f) << "past the columns, row " << i;
    }
  }
}

// A weight over 63 in magnitude could saturate the kernel's s16 sums: the
// panels refuse it rather than give a wrong sum.
TEST(PanelGemm, Int8PanelsRefuseAWeightOutOfRange) {
  for (int8_t w : {int8_t(64), int8_t(-64), int8_t(127), int8_t(-128)}) {
    std::vector<int8_t> columns(16 * 8, 1);
    columns[37] = w;
    EXPECT_THROW(tc::rt::PackedInt8Panels(columns.data(), 8, 16),
                 std::invalid_argument)
        << int(w);
  }
  std::vector<int8_t> inRange(16 * 8, -63);
  EXPECT_NO_THROW(tc::rt::PackedInt8Panels(inRange.data(), 8, 16));
}

} // namespace
