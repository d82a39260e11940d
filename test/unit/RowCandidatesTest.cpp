//===- RowCandidatesTest.cpp - candidates from an int8 GEMM's tiles -------===//
//
// runtime/cpu/RowCandidates.h through PreparedGemms::runWithCandidates at
// a decoder step's output projection (64 rows, k 256; 4,000 columns and a
// width that is not a whole panel), against tc.log_softmax_top_k computed
// here from the same int8 GEMM's stored logits (PreparedGemms::run, whose
// bits the tiles' equal: PreparedGemmsTest), as the generated kernel does
// it: the max first, exp(logit - max) summed in double, then
// ((logit - max) - log(sum)) + addend, the top k largest first (the lower
// column first among equals):
//
// - the same columns in the same order;
// - values within 2e-5: the online sum's f32 lanes (each a sum of ~500
//   terms, each rounded within 2^-24 relative) and rescaling against one
//   double sum; exp within 2 ulp both ways. A log-probability of -20 has
//   an ulp of 2e-6;
// - candidatesOfRows on the stored logits gives the tiles' results bit for
//   bit (the same logits, the same chunks);
// - masked columns (addend -inf) never enter while others are left;
// - distinct logits whose log-probabilities tie keep the lower column
//   first, and a row with a NaN or +inf logit gets the kernel's NaNs;
// - an activation int8 cannot carry (NaN) is refused before any write.
//
//===----------------------------------------------------------------------===//

#include "runtime/cpu/PanelGemm.h"
#include "runtime/cpu/PreparedGemms.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

namespace {

using namespace tc;
using rt::CandidatesBlock;
using rt::ComputeType;
using rt::GemmBlock;
using rt::PreparedGemms;

struct Candidates {
  std::vector<float> values;
  std::vector<int32_t> indices;
  std::vector<float> column;
  Candidates(int64_t rows, int64_t k)
      : values(rows * k, 99.0f), indices(rows * k, -1), column(rows, 99.0f) {}
  CandidatesBlock block(const std::vector<float> &addend, int64_t k,
                        int64_t column) {
    return {addend.data(),  int64_t(addend.size()), k, column, values.data(),
            indices.data(), this->column.data()};
  }
};

/// A decoder step's output projection: A [rows, k], the weight [cols, k]
/// read transposed (no bias), logits C [rows, cols].
struct Projection {
  int64_t rows, cols, k;
  std::vector<float> a, w, c;
  Projection(int64_t rows, int64_t cols, int64_t k)
      : rows(rows), cols(cols), k(k), a(rows * k), w(cols * k),
        c(rows * cols, 7.0f) {
    std::mt19937 random(uint32_t(rows + cols + k));
    std::normal_distribution<float> normal(0.0f, 1.0f);
    for (float &x : a)
      x = normal(random);
    for (float &x : w)
      x = 0.3f * normal(random); // logits of a few units, as a model's
  }
  GemmBlock block() {
    return {.transposeA = false,
            .transposeB = true,
            .rows = rows,
            .cols = cols,
            .k = k,
            .a = a.data(),
            .lda = k,
            .b = w.data(),
            .ldb = k,
            .c = c.data(),
            .ldc = cols};
  }
};

/// tc.log_softmax_top_k of the stored logits, as the generated kernel
/// computes it.
Candidates reference(const Projection &p, const std::vector<float> &addend,
                     int64_t k, int64_t column) {
  Candidates out(p.rows, k);
  for (int64_t i = 0; i < p.rows; ++i) {
    const float *x = p.c.data() + i * p.cols;
    float max = *std::max_element(x, x + p.cols);
    double sum = 0.0;
    for (int64_t j = 0; j < p.cols; ++j)
      sum += std::exp(double(x[j] - max));
    float logSum = std::log(float(sum));
    std::vector<float> c(p.cols);
    for (int64_t j = 0; j < p.cols; ++j)
      c[j] = ((x[j] - max) - logSum) + addend[j];
    std::vector<int32_t> order(p.cols);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int32_t l, int32_t r) { return c[l] > c[r]; });
    for (int64_t t = 0; t < k; ++t) {
      out.values[i * k + t] = c[order[t]];
      out.indices[i * k + t] = order[t];
    }
    out.column[i] = c[column];
  }
  return out;
}

void expectNear(const Candidates &got, const Candidates &want, int64_t rows,
                int64_t k) {
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t t = 0; t < k; ++t) {
      ASSERT_EQ(got.indices[i * k + t], want.indices[i * k + t])
          << "row " << i << ", candidate " << t;
      ASSERT_NEAR(got.values[i * k + t], want.values[i * k + t], 2e-5)
          << "row " << i << ", candidate " << t;
    }
    ASSERT_NEAR(got.column[i], want.column[i], 2e-5) << "row " << i;
  }
}

TEST(RowCandidates, TilesGiveTheKernelsCandidates) {
  if (!rt::cpuHasPanelKernel())
    GTEST_SKIP() << "this CPU lacks AVX2 or FMA";
  struct Shape {
    int64_t rows, cols, k;
  };
  for (Shape s : {Shape{64, 4000, 256}, Shape{5, 37, 64}, Shape{9, 300, 100}}) {
    SCOPED_TRACE(std::to_string(s.rows) + "x" + std::to_string(s.cols));
    Projection p(s.rows, s.cols, s.k);
    // Padding and BOS never continue a beam; EOS (column 2) is asked for.
    std::vector<float> addend(s.cols, 0.0f);
    addend[0] = addend[1] = -INFINITY;
    const int64_t k = 8, column = 2;
    PreparedGemms gemms(ComputeType::Int8, PreparedGemms::Kernel::TcPanels);
    Candidates fused(s.rows, k);
    GemmBlock whole = p.block();
    ASSERT_TRUE(gemms.takesCandidates(whole, fused.block(addend, k, column)));
    ASSERT_TRUE(gemms.runWithCandidates(whole, fused.block(addend, k, column)));
    EXPECT_TRUE(std::all_of(p.c.begin(), p.c.end(), [](float x) {
      return x == 7.0f;
    })) << "the logits are not stored";
    ASSERT_TRUE(gemms.run(whole)); // the same logits, stored
    expectNear(fused, reference(p, addend, k, column), s.rows, k);
    for (int64_t i = 0; i < s.rows * k; ++i)
      ASSERT_GE(fused.indices[i], 2) << "a masked column entered";
    Candidates stored(s.rows, k);
    rt::candidatesOfRows(p.c.data(), p.cols, s.rows,
                         stored.block(addend, k, column));
    ASSERT_EQ(std::memcmp(fused.values.data(), stored.values.data(),
                          fused.values.size() * 4),
              0);
    ASSERT_EQ(fused.indices, stored.indices);
    ASSERT_EQ(std::memcmp(fused.column.data(), stored.column.data(),
                          fused.column.size() * 4),
              0);
  }
}

// Equal logits keep the lower column first, as tc::topKOfRow does: a
// weight whose columns are pairwise the same gives every row ties.
TEST(RowCandidates, EqualLogitsKeepTheLowerColumnFirst) {
  if (!rt::cpuHasPanelKernel())
    GTEST_SKIP() << "this CPU lacks AVX2 or FMA";
  Projection p(4, 64, 32);
  for (int64_t j = 1; j < p.cols; j += 2)
    std::copy_n(p.w.begin() + (j - 1) * p.k, p.k, p.w.begin() + j * p.k);
  std::vector<float> addend(p.cols, 0.0f);
  PreparedGemms gemms(ComputeType::Int8, PreparedGemms::Kernel::TcPanels);
  Candidates fused(p.rows, 6);
  ASSERT_TRUE(gemms.runWithCandidates(p.block(), fused.block(addend, 6, 0)));
  for (int64_t i = 0; i < p.rows; ++i)
    for (int64_t t = 0; t < 6; t += 2) {
      EXPECT_EQ(fused.values[i * 6 + t], fused.values[i * 6 + t + 1]);
      EXPECT_EQ(fused.indices[i * 6 + t] + 1, fused.indices[i * 6 + t + 1]);
    }
}

// Distinct logits whose log-probabilities round to one value tie as the
// generated kernel sees them: the lower column first, though its logit is
// the smaller (the larger logit's column is the higher here).
TEST(RowCandidates, EqualLogProbabilitiesOfDistinctLogitsKeepTheLowerColumn) {
  if (!rt::cpuHasPanelKernel())
    GTEST_SKIP() << "this CPU lacks AVX2 or FMA";
  Projection p(1, 64, 4); // only its stored logits are used
  std::fill(p.c.begin(), p.c.end(), -1.0f);
  p.c[3] = 0.5f;
  p.c[7] = std::nextafter(0.5f, 1.0f);
  std::vector<float> addend(p.cols, 0.0f);
  Candidates stored(1, 3);
  rt::candidatesOfRows(p.c.data(), p.cols, 1, stored.block(addend, 3, 0));
  Candidates want = reference(p, addend, 3, 0);
  ASSERT_EQ(want.values[0], want.values[1]) << "the case needs a tie";
  EXPECT_EQ(stored.indices, want.indices);
  EXPECT_EQ(stored.indices[0], 3);
}

// A row with a NaN or +inf logit (an f32 fallback's, from activations int8
// cannot carry) gets the generated kernel's NaNs: its sum is NaN.
TEST(RowCandidates, NonFiniteLogitsGiveTheKernelsNaNs) {
  if (!rt::cpuHasPanelKernel())
    GTEST_SKIP() << "this CPU lacks AVX2 or FMA";
  for (float odd : {std::nanf(""), INFINITY}) {
    Projection p(1, 40, 4);
    std::fill(p.c.begin(), p.c.end(), 0.25f);
    p.c[9] = odd;
    std::vector<float> addend(p.cols, 0.0f);
    Candidates stored(1, 4);
    rt::candidatesOfRows(p.c.data(), p.cols, 1, stored.block(addend, 4, 2));
    EXPECT_EQ(stored.indices, (std::vector<int32_t>{0, 1, 2, 3}));
    for (float v : stored.values)
      EXPECT_TRUE(std::isnan(v));
    EXPECT_TRUE(std::isnan(stored.column[0]));
  }
}

TEST(RowCandidates, RefusesWhatTheTilesCannotTake) {
  if (!rt::cpuHasPanelKernel())
    GTEST_SKIP() << "this CPU lacks AVX2 or FMA";
  Projection p(4, 64, 32);
  std::vector<float> addend(p.cols, 0.0f);
  Candidates out(p.rows, 17);
  PreparedGemms int8(ComputeType::Int8, PreparedGemms::Kernel::TcPanels),
      f32(ComputeType::F32, PreparedGemms::Kernel::TcPanels);
  EXPECT_FALSE(int8.takesCandidates(p.block(), out.block(addend, 17, 0)))
      << "wider than kMaxRowCandidates";
  EXPECT_FALSE(f32.takesCandidates(p.block(), out.block(addend, 8, 0)))
      << "f32 products keep the generated kernel's bits";
  EXPECT_FALSE(int8.takesCandidates(p.block(), out.block(addend, 8, 64)))
      << "a column past the row";
  p.a[5] = std::nanf("");
  EXPECT_FALSE(int8.runWithCandidates(p.block(), out.block(addend, 8, 0)));
  EXPECT_EQ(out.values[0], 99.0f) << "nothing written";
}

} // namespace
