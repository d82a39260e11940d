//===- Bf16BlockRowsTest.cpp - the rows a bf16 GEMM block runs with -------===//
//
// runtime/cpu/Bf16BlockRows.h on any CPU: the rule, with the oneDNN kernel
// names a CPU with AMX gives (and one without); and running a block padded,
// through a plain reference product standing in for oneDNN: a transposed A,
// a C with a leading dimension larger than its rows, beta 1 (C's old values
// carried into the padded C), 2-byte elements, and a failed run leaving C
// as it was. The reference's sums are the same arithmetic either way, so
// the results must be equal exactly.
//
//===----------------------------------------------------------------------===//

#include "runtime/cpu/Bf16BlockRows.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

using tc::rt::bf16BlockRows;
using tc::rt::GemmBlock;
using tc::rt::runWithRows;

/// oneDNN 2.6's choice on an Intel Xeon with AMX: short blocks of 64
/// columns or fewer on avx512_core_bf16, the rest on AMX.
std::string amxCpuKernel(const GemmBlock &g) {
  return g.rows < 33 && g.cols <= 64 ? "brg:avx512_core_bf16"
                                     : "brg:avx512_core_amx_bf16";
}

TEST(Bf16BlockRows, ShortNarrowBlocksRunAsRowsAmxTakes) {
  GemmBlock g{.rows = 4, .cols = 64, .k = 64, .lda = 64, .ldc = 64};
  EXPECT_EQ(bf16BlockRows(g, amxCpuKernel), 33);
  g.rows = 1;
  EXPECT_EQ(bf16BlockRows(g, amxCpuKernel), 33);
  g.cols = 256; // AMX at 4 rows already: as it is
  g.rows = 4;
  EXPECT_EQ(bf16BlockRows(g, amxCpuKernel), 4);
  g.rows = 1; // a lone row sums in another order: two
  EXPECT_EQ(bf16BlockRows(g, amxCpuKernel), 2);
}

TEST(Bf16BlockRows, WithoutAmxOnlyALoneRowChanges) {
  auto noAmx = [](const GemmBlock &) { return std::string("brg:avx512_core_bf16"); };
  GemmBlock g{.rows = 1, .cols = 64, .k = 64, .lda = 64, .ldc = 64};
  EXPECT_EQ(bf16BlockRows(g, noAmx), 2);
  g.rows = 4;
  EXPECT_EQ(bf16BlockRows(g, noAmx), 4);
}

TEST(Bf16BlockRows, NoPaddingOneDnnCannotRun) {
  auto onlyItsOwn = [](const GemmBlock &g) {
    return g.rows == 1 ? std::string("gemm:jit") : std::string();
  };
  GemmBlock g{.rows = 1, .cols = 64, .k = 64, .lda = 64, .ldc = 64};
  EXPECT_EQ(bf16BlockRows(g, onlyItsOwn), 1);
  g.rows = 0;
  EXPECT_EQ(bf16BlockRows(g, amxCpuKernel), 0);
}

TEST(Bf16BlockRows, TallBlocksAskNoKernel) {
  int asked = 0;
  auto counting = [&](const GemmBlock &) {
    ++asked;
    return std::string("brg:avx512_core_bf16");
  };
  GemmBlock g{.rows = 64, .cols = 64, .k = 64, .lda = 64, .ldc = 64};
  EXPECT_EQ(bf16BlockRows(g, counting), 64);
  EXPECT_EQ(asked, 0);
}

/// C = op(A) B + beta C (beta 0 or 1) for A and B of type T and C of type
/// TC, B untransposed, k x cols.
template <typename T, typename TC = T> bool reference(const GemmBlock &g) {
  auto *a = static_cast<const T *>(g.a);
  auto *b = static_cast<const T *>(g.b);
  auto *c = static_cast<TC *>(g.c);
  for (int64_t i = 0; i < g.rows; ++i)
    for (int64_t j = 0; j < g.cols; ++j) {
      TC sum = g.beta != 0.0f ? c[i * g.ldc + j] : TC(0);
      for (int64_t kk = 0; kk < g.k; ++kk)
        sum += (g.transposeA ? a[kk * g.lda + i] : a[i * g.lda + kk]) *
               b[kk * g.ldb + j];
      c[i * g.ldc + j] = sum;
    }
  return true;
}

template <typename T, typename TC = T>
void checkPaddedEqualsDirect(float beta) {
  const int64_t rows = 3, cols = 5, k = 4, lda = 7, ldc = 9;
  std::vector<T> a(k * lda), b(k * cols);
  std::vector<TC> direct(rows * ldc), padded;
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = T(int(i % 11) - 5);
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = T(int(i % 7) - 3);
  for (size_t i = 0; i < direct.size(); ++i)
    direct[i] = TC(int(i % 5));
  padded = direct;
  GemmBlock g{.transposeA = true, .rows = rows, .cols = cols, .k = k,
              .beta = beta, .a = a.data(), .lda = lda, .b = b.data(),
              .ldb = cols, .c = direct.data(), .ldc = ldc};
  ASSERT_TRUE((reference<T, TC>(g)));
  g.c = padded.data();
  int64_t ranRows = 0;
  ASSERT_TRUE(runWithRows(g, 8, sizeof(T), sizeof(TC), [&](const GemmBlock &p) {
    ranRows = p.rows;
    EXPECT_FALSE(p.transposeA);
    EXPECT_EQ(p.lda, k);
    for (int64_t i = rows * k; i < 8 * k; ++i) // the padding rows: zeros
      EXPECT_EQ(static_cast<const T *>(p.a)[i], T(0));
    return reference<T, TC>(p);
  }));
  EXPECT_EQ(ranRows, 8);
  EXPECT_EQ(padded, direct); // C's padding columns untouched as well
}

TEST(Bf16BlockRows, PaddedRunEqualsTheBlockRunDirectly) {
  checkPaddedEqualsDirect<float>(0.0f);
  checkPaddedEqualsDirect<float>(1.0f);
  checkPaddedEqualsDirect<int16_t>(1.0f); // 2-byte elements, as bf16's
  // 2-byte A, 4-byte C: a bf16 executable's blocks (Bf16Matmuls)
  checkPaddedEqualsDirect<int16_t, int32_t>(1.0f);
}

TEST(Bf16BlockRows, AFailedRunLeavesC) {
  std::vector<float> a(4, 1.0f), b(4, 1.0f), c(4, 7.0f);
  GemmBlock g{.rows = 1, .cols = 2, .k = 2, .a = a.data(), .lda = 2,
              .b = b.data(), .ldb = 2, .c = c.data(), .ldc = 2};
  EXPECT_FALSE(runWithRows(g, 2, 4, 4, [](const GemmBlock &p) {
    static_cast<float *>(p.c)[0] = -1.0f; // a partial write to the scratch
    return false;
  }));
  EXPECT_EQ(c, std::vector<float>(4, 7.0f));
}

} // namespace
