//===- Bf16GemmTest.cpp - the CPU device's GEMMs of bf16 operands ---------===//
//
// runtime/cpu/Bf16Gemm.h against a double-precision reference computed from
// the same bf16 values: both operand transposes, leading dimensions larger
// than the rows they hold, batches run from OpenMP threads at once (as the
// device runs them), alpha, beta != 0, the bias and the ReLU, more columns
// than one panel of the widened path; and a bf16 C, the f32 sums rounded
// to nearest even (2^-8 relative more). The widened path runs everywhere
// (with each sgemm library); oneDNN's matmul only where oneDNN makes a bf16
// kernel, that is on a CPU with AVX512-BF16 or AMX, and the test says so
// where it skips.
//
// Tolerance: f32 accumulation of k exact products (a bf16 product is exact
// in f32), so |got - reference| <= (k + 3) 2^-24 (|alpha| sum |a b| +
// |beta c| + |bias|) + 2^-120: recursive summation's bound gamma_k, plus
// the roundings of alpha's product, the beta C + bias term and their sum.
//
//===----------------------------------------------------------------------===//

#include "runtime/cpu/Bf16Gemm.h"
#include "runtime/cpu/Bf16Instructions.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace tc;
using rt::Bf16Gemm;

/// f32 -> bf16 bits, round to nearest even, written here rather than taken
/// from the runtime: the test's operands do not depend on the code tested.
uint16_t toBf16(float value) {
  uint32_t bits = std::bit_cast<uint32_t>(value);
  bits += 0x7fff + ((bits >> 16) & 1);
  return uint16_t(bits >> 16);
}

double fromBf16(uint16_t bits) {
  return std::bit_cast<float>(uint32_t(bits) << 16);
}

/// One GEMM of a test: C[batch] = act(alpha op(A) op(B) + beta C + bias).
struct Case {
  std::string name;
  bool transposeA = false, transposeB = false;
  int64_t rows = 1, cols = 1, k = 1;
  int64_t padA = 0, padB = 0, padC = 0; ///< leading dimension - row
  int64_t batch = 1;
  float alpha = 1, beta = 0;
  bool bias = false, relu = false;
};

/// The operands of a case, in buffers laid out as a plan lays them out:
/// batch after batch, rows of leading dimension ld.
struct Operands {
  int64_t lda, ldb, ldc, strideA, strideB, strideC;
  std::vector<uint16_t> a, b;
  std::vector<float> c, bias;

  explicit Operands(const Case &t) {
    int64_t aRows = t.transposeA ? t.k : t.rows;
    int64_t aCols = t.transposeA ? t.rows : t.k;
    int64_t bRows = t.transposeB ? t.cols : t.k;
    int64_t bCols = t.transposeB ? t.k : t.cols;
    lda = aCols + t.padA;
    ldb = bCols + t.padB;
    ldc = t.cols + t.padC;
    strideA = aRows * lda + 5; // batches apart by more than their rows
    strideB = bRows * ldb + 3;
    strideC = t.rows * ldc + 2;
    std::mt19937 random(uint32_t(t.rows * 7919 + t.cols * 104729 + t.k));
    std::normal_distribution<float> normal(0.0f, 1.0f);
    for (int64_t i = 0; i < t.batch * strideA; ++i)
      a.push_back(toBf16(normal(random)));
    for (int64_t i = 0; i < t.batch * strideB; ++i)
      b.push_back(toBf16(normal(random)));
    for (int64_t i = 0; i < t.batch * strideC; ++i)
      c.push_back(normal(random));
    if (t.bias)
      for (int64_t j = 0; j < t.cols; ++j)
        bias.push_back(normal(random));
  }

  double opA(const Case &t, int64_t n, int64_t r, int64_t kk) const {
    return fromBf16(
        a[n * strideA + (t.transposeA ? kk * lda + r : r * lda + kk)]);
  }
  double opB(const Case &t, int64_t n, int64_t kk, int64_t j) const {
    return fromBf16(
        b[n * strideB + (t.transposeB ? j * ldb + kk : kk * ldb + j)]);
  }

  rt::GemmBlock block(const Case &t, int64_t n) {
    return {.transposeA = t.transposeA,
            .transposeB = t.transposeB,
            .rows = t.rows,
            .cols = t.cols,
            .k = t.k,
            .alpha = t.alpha,
            .beta = t.beta,
            .a = a.data() + n * strideA,
            .lda = lda,
            .b = b.data() + n * strideB,
            .ldb = ldb,
            .c = c.data() + n * strideC,
            .ldc = ldc,
            .bias = t.bias ? bias.data() : nullptr,
            .relu = t.relu};
  }
};

/// How a test hands a case's batch to the GEMM: a block a batch index,
/// each from one of 4 OpenMP threads, or as the CPU device runs a batch:
/// two halves, a block of rank 2 on each of 2 threads.
enum class Run { ProductPerThread, HalfPerThread };

/// The half `half` of `t`'s batch (even) as one block of rank 2:
/// [batch / 4, 2] where batch / 2 is even, else [batch / 2, 1].
rt::GemmBlock halfOf(Operands &in, const Case &t, int64_t half) {
  int64_t products = t.batch / 2;
  rt::GemmBlock block = in.block(t, half * products);
  int64_t inner = products % 2 == 0 ? 2 : 1;
  block.batch = {.rank = 2,
                 .extent = {products / inner, inner},
                 .strideA = {inner * in.strideA, in.strideA},
                 .strideB = {inner * in.strideB, in.strideB},
                 .strideC = {inner * in.strideC, in.strideC}};
  return block;
}

/// C's element [n][r][j] by the reference, and how far from it f32
/// accumulation may land (the tolerance above); `old` is C before the GEMM.
struct Expected {
  double value, tolerance;
};
Expected expectedAt(const Operands &in, const Case &t, double old, int64_t n,
                    int64_t r, int64_t j) {
  double sum = 0, magnitude = 0;
  for (int64_t kk = 0; kk < t.k; ++kk) {
    double product = in.opA(t, n, r, kk) * in.opB(t, n, kk, j);
    sum += product;
    magnitude += std::abs(product);
  }
  double addend = (t.beta == 0 ? 0.0 : double(t.beta) * old) +
                  (t.bias ? double(in.bias[j]) : 0.0);
  double reference = double(t.alpha) * sum + addend;
  if (t.relu)
    reference = std::max(reference, 0.0);
  double tolerance = (t.k + 3) * std::ldexp(1.0, -24) *
                         (std::abs(t.alpha) * magnitude +
                          std::abs(double(t.beta) * old) +
                          (t.bias ? std::abs(in.bias[j]) : 0.0)) +
                     std::ldexp(1.0, -120);
  return {reference, tolerance};
}

/// Runs `block(n)`, the block of batch index n, as `run` says: a block a
/// batch index from 4 threads, or two halves of rank 2 from 2 threads
/// (half h starting at index h * batch / 2).
template <typename Block>
void runAll(const Case &t, Run run, Block &&block, Bf16Gemm &gemm,
            bool narrowed) {
  auto one = [&](const rt::GemmBlock &b) {
    narrowed ? gemm.runNarrowed(b) : gemm.run(b);
  };
  if (run == Run::ProductPerThread) {
#pragma omp parallel for num_threads(4) schedule(static, 1)
    for (int64_t n = 0; n < t.batch; ++n)
      one(block(n, false));
  } else {
#pragma omp parallel for num_threads(2) schedule(static, 1)
    for (int64_t half = 0; half < 2; ++half)
      one(block(half, true));
  }
}

/// Runs `t` with `gemm` as `run` says, and checks every element of C
/// against the reference and every padding element unchanged.
void check(Bf16Gemm &gemm, const Case &t,
           Run run = Run::ProductPerThread) {
  Operands in(t);
  std::vector<float> before = in.c;
  runAll(
      t, run,
      [&](int64_t i, bool half) {
        return half ? halfOf(in, t, i) : in.block(t, i);
      },
      gemm, /*narrowed=*/false);
  int64_t wrong = 0;
  for (int64_t n = 0; n < t.batch; ++n)
    for (int64_t r = 0; r < t.rows; ++r)
      for (int64_t j = 0; j < t.cols; ++j) {
        int64_t i = n * in.strideC + r * in.ldc + j;
        auto [reference, tolerance] = expectedAt(in, t, before[i], n, r, j);
        float got = in.c[i];
        if (!(std::abs(got - reference) <= tolerance) && wrong++ < 5)
          ADD_FAILURE() << t.name << ": C[" << n << "][" << r << "][" << j
                        << "] = " << got << ", reference " << reference
                        << " +- " << tolerance;
      }
  EXPECT_EQ(wrong, 0) << t.name;
  int64_t touched = 0;
  for (int64_t n = 0; n < t.batch; ++n)
    for (int64_t i = 0; i < in.strideC; ++i) {
      int64_t r = i / in.ldc, j = i % in.ldc;
      if ((r >= t.rows || j >= t.cols) &&
          in.c[n * in.strideC + i] != before[n * in.strideC + i])
        ++touched;
    }
  EXPECT_EQ(touched, 0) << t.name << ": elements outside C changed";
}

/// `t` (no bias, beta 0) with a bf16 C through runNarrowed: every element
/// is its f32 sum rounded to bf16, so within the tolerance plus half a bf16
/// ulp (2^-8 relative, of the f32 sum) of the reference; padding unchanged.
void checkNarrowed(Bf16Gemm &gemm, const Case &t, Run run) {
  Operands in(t);
  std::vector<uint16_t> c, before;
  for (float x : in.c)
    c.push_back(toBf16(x));
  before = c;
  runAll(
      t, run,
      [&](int64_t i, bool half) {
        rt::GemmBlock block = half ? halfOf(in, t, i) : in.block(t, i);
        block.c = c.data() + (half ? i * t.batch / 2 : i) * in.strideC;
        return block;
      },
      gemm, /*narrowed=*/true);
  int64_t wrong = 0, touched = 0;
  for (int64_t n = 0; n < t.batch; ++n)
    for (int64_t i = 0; i < in.strideC; ++i) {
      int64_t r = i / in.ldc, j = i % in.ldc, at = n * in.strideC + i;
      if (r >= t.rows || j >= t.cols) {
        touched += c[at] != before[at];
        continue;
      }
      auto [reference, tolerance] = expectedAt(in, t, 0.0, n, r, j);
      double bound =
          tolerance + std::ldexp(std::abs(reference) + tolerance, -8);
      double got = fromBf16(c[at]);
      if (!(std::abs(got - reference) <= bound) && wrong++ < 5)
        ADD_FAILURE() << t.name << " (bf16 C): C[" << n << "][" << r << "]["
                      << j << "] = " << got << ", reference " << reference
                      << " +- " << bound;
    }
  EXPECT_EQ(wrong, 0) << t.name;
  EXPECT_EQ(touched, 0) << t.name << ": elements outside C changed";
}

std::vector<Case> cases() {
  return {
      {.name = "NN", .rows = 7, .cols = 9, .k = 13},
      {.name = "NT, leading dimensions past the rows",
       .transposeB = true,
       .rows = 33,
       .cols = 17,
       .k = 64,
       .padA = 3,
       .padB = 5,
       .padC = 7},
      {.name = "TN",
       .transposeA = true,
       .rows = 16,
       .cols = 40,
       .k = 31,
       .padA = 2,
       .padB = 1,
       .padC = 4},
      {.name = "TT, alpha and beta",
       .transposeA = true,
       .transposeB = true,
       .rows = 9,
       .cols = 11,
       .k = 5,
       .padA = 1,
       .padB = 2,
       .padC = 3,
       .alpha = 0.5f,
       .beta = -1.25f},
      {.name = "a linear: NT, bias and ReLU",
       .transposeB = true,
       .rows = 24,
       .cols = 48,
       .k = 16,
       .padC = 16,
       .bias = true,
       .relu = true},
      {.name = "bias and beta, NT (oneDNN adds the bias, then the sum)",
       .transposeB = true,
       .rows = 7,
       .cols = 33,
       .k = 12,
       .padA = 3,
       .padC = 5,
       .beta = -0.5f,
       .bias = true},
      {.name = "bias, beta 1 and alpha",
       .rows = 5,
       .cols = 6,
       .k = 8,
       .padC = 2,
       .alpha = 0.125f,
       .beta = 1,
       .bias = true},
      {.name = "attention's batches: NT",
       .transposeB = true,
       .rows = 6,
       .cols = 6,
       .k = 4,
       .padA = 44,
       .padB = 44,
       .batch = 8,
       .alpha = 0.5f},
      {.name = "attention's heads: NT views of wider rows, as in small",
       .transposeB = true,
       .rows = 32,
       .cols = 32,
       .k = 64,
       .padA = 704,
       .padB = 704,
       .batch = 8,
       .alpha = 0.125f},
      {.name = "attention's batches: NN, beta",
       .rows = 6,
       .cols = 4,
       .k = 6,
       .padB = 12,
       .padC = 3,
       .batch = 6,
       .beta = 0.75f},
      {.name = "columns past a panel: NN, bias",
       .rows = 3,
       .cols = 1100,
       .k = 20,
       .padB = 9,
       .padC = 1,
       .bias = true},
      {.name = "columns past a panel: NT, ReLU",
       .transposeB = true,
       .rows = 5,
       .cols = 1030,
       .k = 24,
       .padB = 3,
       .relu = true},
      {.name = "a long k",
       .transposeA = true,
       .rows = 4,
       .cols = 8,
       .k = 2048,
       .padA = 1},
      {.name = "one row and column", .rows = 1, .cols = 1, .k = 300, .beta = 2},
  };
}

TEST(Bf16Gemm, WidenedMatchesTheReference) {
  for (rt::SgemmLibrary library :
       {rt::SgemmLibrary::OneDnn, rt::SgemmLibrary::OpenBlas}) {
    Bf16Gemm gemm(library, Bf16Gemm::Path::Widened);
    for (const Case &t : cases()) {
      Operands in(t);
      EXPECT_EQ(gemm.oneDnnKernel(in.block(t, 0)), "") << t.name;
      check(gemm, t);
    }
  }
}

/// Where oneDNN makes no bf16 kernel the oneDNN path runs widened: the
/// same numbers, checked here on every CPU.
TEST(Bf16Gemm, OneDnnPathMatchesTheReference) {
  Bf16Gemm gemm(rt::SgemmLibrary::OneDnn, Bf16Gemm::Path::OneDnn);
  int64_t made = 0;
  for (const Case &t : cases()) {
    Operands in(t);
    std::string kernel = gemm.oneDnnKernel(in.block(t, 0));
    made += !kernel.empty();
    std::printf("%s: %s\n", t.name.c_str(),
                kernel.empty() ? "widened (no oneDNN kernel)" : kernel.c_str());
    check(gemm, t);
  }
  if (made == 0)
    GTEST_SKIP() << "oneDNN makes no bf16 matmul kernel on "
                 << rt::describeCpuIsa()
                 << " (it needs AVX512-BF16 or AMX); only the fallback to "
                    "widening was checked";
}

/// A batch handed over as one block per thread (CpuDevice::gemm's runs of
/// batch indices): one oneDNN matmul where it makes one, else a product at
/// a time; a batch with a bias is never one matmul (the bias is added a
/// product at a time), and must still come out right.
TEST(Bf16Gemm, BatchesInOneBlockMatchTheReference) {
  for (Bf16Gemm::Path path : {Bf16Gemm::Path::Widened, Bf16Gemm::Path::OneDnn}) {
    Bf16Gemm gemm(rt::SgemmLibrary::OneDnn, path);
    int64_t batches = 0, oneMatmul = 0;
    for (Case t : cases()) {
      if (t.batch < 2 || t.batch % 2 != 0)
        continue;
      ++batches;
      Operands in(t);
      std::string kernel = gemm.oneDnnKernel(halfOf(in, t, 0));
      oneMatmul += !kernel.empty();
      if (path == Bf16Gemm::Path::OneDnn)
        std::printf("%s, half the batch: %s\n", t.name.c_str(),
                    kernel.empty() ? "a product at a time" : kernel.c_str());
      check(gemm, t, Run::HalfPerThread);
      t.bias = true;
      t.name += ", with a bias";
      check(gemm, t, Run::HalfPerThread);
    }
    EXPECT_GE(batches, 3);
    // Where this CPU has a bf16 kernel, a batch runs as one matmul.
    EXPECT_EQ(oneMatmul, path == Bf16Gemm::Path::OneDnn && rt::cpuHasBf16Gemms()
                             ? batches
                             : 0);
  }
}

/// A bf16 C (tc-fuse-convert's narrowed products: no bias, beta 0), on
/// both paths, a block a product and halves of a batch. Where this CPU has
/// bf16 GEMM instructions the oneDNN path stores bf16 itself (its kernel
/// named); elsewhere both run widened into an f32 scratch.
TEST(Bf16Gemm, NarrowedResultsAreTheSumsRoundedToBf16) {
  for (Bf16Gemm::Path path : {Bf16Gemm::Path::Widened, Bf16Gemm::Path::OneDnn}) {
    Bf16Gemm gemm(rt::SgemmLibrary::OneDnn, path);
    int64_t checked = 0, byOneDnn = 0;
    for (const Case &t : cases()) {
      if (t.bias || t.beta != 0)
        continue;
      ++checked;
      Operands in(t);
      std::string kernel = gemm.oneDnnKernel(in.block(t, 0), /*bf16C=*/true);
      byOneDnn += !kernel.empty();
      if (path == Bf16Gemm::Path::OneDnn)
        std::printf("%s, bf16 C: %s\n", t.name.c_str(),
                    kernel.empty() ? "widened into an f32 scratch"
                                   : kernel.c_str());
      checkNarrowed(gemm, t, Run::ProductPerThread);
      if (t.batch >= 2 && t.batch % 2 == 0)
        checkNarrowed(gemm, t, Run::HalfPerThread);
    }
    EXPECT_GE(checked, 7);
    if (path == Bf16Gemm::Path::Widened || !rt::cpuHasBf16Gemms())
      EXPECT_EQ(byOneDnn, 0);
    else // the linear-like shapes at least
      EXPECT_GT(byOneDnn, 0);
  }
}

/// The executable's loader refuses a bf16 C with a bias or a beta
/// (tcx::checkGemmTypes); reaching the kernel, one is an internal error
/// that stops the program, not a wrong result.
TEST(Bf16GemmDeathTest, ANarrowedBlockWithABetaStops) {
  Case t{.name = "beta", .rows = 2, .cols = 3, .k = 4, .beta = 1};
  Operands in(t);
  std::vector<uint16_t> c(in.c.size());
  rt::GemmBlock block = in.block(t, 0);
  block.c = c.data();
  Bf16Gemm gemm(rt::SgemmLibrary::OneDnn, Bf16Gemm::Path::Widened);
  EXPECT_DEATH(gemm.runNarrowed(block), "a GEMM with a bf16 result, and a "
                                        "bias or beta 1");
}

TEST(Bf16Gemm, ThisCpusPathFollowsItsInstructions) {
  EXPECT_EQ(Bf16Gemm::pathOfThisCpu() == Bf16Gemm::Path::OneDnn,
            rt::cpuHasBf16Gemms());
  Bf16Gemm gemm(rt::SgemmLibrary::OneDnn, Bf16Gemm::pathOfThisCpu());
  Case linear = cases()[4];
  Operands in(linear);
  if (!rt::cpuHasBf16Gemms())
    GTEST_SKIP() << rt::describeCpuIsa() << " has no bf16 GEMM instructions";
  // On a CPU with them, a linear's shape runs on oneDNN's bf16 kernel, not
  // its reference implementation.
  std::string kernel = gemm.oneDnnKernel(in.block(linear, 0));
  EXPECT_NE(kernel, "");
  std::printf("oneDNN's bf16 matmul kernel here: %s\n", kernel.c_str());
}

} // namespace
