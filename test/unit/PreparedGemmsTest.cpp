//===- PreparedGemmsTest.cpp - weight GEMMs with weights prepared once ----===//
//
// runtime/cpu/PreparedGemms.h at the decoder's shapes (rows 1..64, k 256
// and 1024, the weight [out, in] read transposed as the plan's linears read
// it), blocks run from OpenMP threads at once as the device runs them:
//
// Each test runs every kernel this CPU has (oneDNN's matmul; tc's panels
// where it has AVX2 and FMA):
//
// - f32 against sgemm (Sgemm.h, the device's path without preparation):
//   |got - sgemm| <= 1e-5 (sum_k |a w| + |bias|), both sum k f32 products
//   in their own order (each within k 2^-24 of the exact sum; k <= 1024).
// - int8 against a quantize-dequantize computed here: per output column
//   scale max|w| / 63, per row max|a| / 63 (127 for both where oneDNN runs
//   VNNI: PreparedGemms::Int8Range), exact integer sums (int64);
//   the only difference left is the f32 rounding of the dequantization
//   (a few ulps of each term): 1e-5 relative to |sum sa sw| + |bias|. And
//   against the f32 product within the quantization's bound:
//   sum_k (|a| sw + |w| sa + sa sw / 2) / 2.
// - a weight changed after clear() is seen; without clear() the prepared
//   copy is kept (the device clears whenever parameters are written).
//
//===----------------------------------------------------------------------===//

#include "runtime/cpu/Bf16Instructions.h"
#include "runtime/cpu/PanelGemm.h"
#include "runtime/cpu/PreparedGemms.h"
#include "runtime/cpu/Sgemm.h"

#include <gtest/gtest.h>
#include <oneapi/dnnl/dnnl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace {

using namespace tc;
using rt::ComputeType;
using rt::GemmBlock;
using rt::PreparedGemms;
using Kernel = rt::PreparedGemms::Kernel;

/// The f32 and int8 kernels this CPU runs.
std::vector<Kernel> kernels() {
  if (rt::cpuHasPanelKernel())
    return {Kernel::OneDnnMatmul, Kernel::TcPanels};
  return {Kernel::OneDnnMatmul};
}

const char *nameOf(Kernel kernel) {
  return kernel == Kernel::TcPanels ? "tc panels" : "oneDNN matmul";
}

struct Case {
  int64_t rows, cols, k;
  bool bias, relu;
};

/// A block's operands: A [rows, k] (lda = k + 3), the weight [cols, k]
/// read transposed, C [rows, cols] (ldc = cols + 5), the bias [cols].
struct Operands {
  Case t;
  std::vector<float> a, w, c, bias;
  explicit Operands(const Case &t, uint32_t seed = 1) : t(t) {
    std::mt19937 random(seed + uint32_t(t.rows * 31 + t.cols * 7 + t.k));
    std::normal_distribution<float> normal(0.0f, 1.0f);
    a.resize(t.rows * (t.k + 3));
    w.resize(t.cols * t.k);
    c.assign(t.rows * (t.cols + 5), 7.0f);
    bias.resize(t.cols);
    for (auto *v : {&a, &w, &bias})
      for (float &x : *v)
        x = normal(random);
  }
  GemmBlock block() {
    return {.transposeA = false,
            .transposeB = true,
            .rows = t.rows,
            .cols = t.cols,
            .k = t.k,
            .a = a.data(),
            .lda = t.k + 3,
            .b = w.data(),
            .ldb = t.k,
            .c = c.data(),
            .ldc = t.cols + 5,
            .bias = t.bias ? bias.data() : nullptr,
            .relu = t.relu};
  }
  float aAt(int64_t i, int64_t kk) const { return a[i * (t.k + 3) + kk]; }
  float wAt(int64_t j, int64_t kk) const { return w[j * t.k + kk]; }
  float cAt(int64_t i, int64_t j) const { return c[i * (t.cols + 5) + j]; }
  /// sum_k |a w| + |bias|, the scale of C(i, j)'s rounding.
  double magnitude(int64_t i, int64_t j) const {
    double m = t.bias ? std::fabs(bias[j]) : 0.0;
    for (int64_t kk = 0; kk < t.k; ++kk)
      m += std::fabs(double(aAt(i, kk)) * wAt(j, kk));
    return m;
  }
};

const Case kCases[] = {
    {1, 128, 256, true, false},    {4, 512, 256, true, true},
    {16, 128, 1024, true, false},  {64, 256, 256, true, true},
    {64, 2000, 256, false, false}, {7, 100, 1024, true, false},
};

/// Drops the prepared weights of a case whose operands are about to be
/// freed: the next case's weight may get the same address (prepared
/// weights are found by address), as the device clears them when the
/// parameters change. Without it the cases failed now and then, by
/// allocation order, with a previous case's weights.
void forgetWeights(PreparedGemms &gemms) { gemms.clear(); }

/// Runs `operands` in two column halves from two OpenMP threads, as the
/// device splits a decoder step's product.
void runSplit(PreparedGemms &gemms, Operands &operands) {
  GemmBlock whole = operands.block();
  int64_t half = (whole.cols / 2 + 15) / 16 * 16;
  bool ran[2] = {false, false};
#pragma omp parallel for num_threads(2)
  for (int part = 0; part < 2; ++part) {
    GemmBlock g = whole;
    int64_t first = part ? half : 0;
    g.cols = part ? whole.cols - half : half;
    g.b = operands.w.data() + first * whole.ldb;
    g.c = operands.c.data() + first;
    g.bias = whole.bias ? operands.bias.data() + first : nullptr;
    ran[part] = gemms.run(g);
  }
  ASSERT_TRUE(ran[0] && ran[1]);
}

TEST(PreparedGemms, F32EqualsSgemm) {
  for (Kernel kernel : kernels()) {
  PreparedGemms gemms(ComputeType::F32, kernel);
  for (const Case &t : kCases) {
    Operands prepared(t), plain(t);
    runSplit(gemms, prepared);
    rt::sgemmBlock(rt::SgemmLibrary::OneDnn, plain.block());
    for (int64_t i = 0; i < t.rows; ++i)
      for (int64_t j = 0; j < t.cols; ++j)
        ASSERT_LE(std::fabs(prepared.cAt(i, j) - plain.cAt(i, j)),
                  1e-5 * prepared.magnitude(i, j))
            << nameOf(kernel) << " " << t.rows << "x" << t.cols << "x"
            << t.k << " at " << i << "," << j;
    // Padding between C's rows is left alone.
    EXPECT_EQ(prepared.c[t.cols], 7.0f);
    forgetWeights(gemms);
  }
  }
}

TEST(PreparedGemms, Int8EqualsQuantizedReference) {
  for (Kernel kernel : kernels()) {
  PreparedGemms gemms(ComputeType::Int8, kernel);
  // 7 bits (PanelGemm.h, kInt8PanelWeightLimit), or 8 where every oneDNN
  // int8 kernel of this CPU sums in 32 bits.
  const float levels =
      gemms.int8Range() == PreparedGemms::Int8Range::EightBit ? 127 : 63;
  for (const Case &t : kCases) {
    Operands o(t);
    runSplit(gemms, o);
    std::vector<float> sw(t.cols);
    for (int64_t j = 0; j < t.cols; ++j) {
      float m = 0;
      for (int64_t kk = 0; kk < t.k; ++kk)
        m = std::max(m, std::fabs(o.wAt(j, kk)));
      sw[j] = m / levels;
    }
    for (int64_t i = 0; i < t.rows; ++i) {
      float m = 0;
      for (int64_t kk = 0; kk < t.k; ++kk)
        m = std::max(m, std::fabs(o.aAt(i, kk)));
      float sa = m / levels;
      for (int64_t j = 0; j < t.cols; ++j) {
        int64_t sum = 0;
        double exact = 0, bound = 0;
        for (int64_t kk = 0; kk < t.k; ++kk) {
          // An activation times the inverse scale, as tc quantizes it: a
          // quotient rounds otherwise where it lies within an ulp of a half
          // (at 8 bits one of 7 x 1,024 did).
          sum += int64_t(std::nearbyint(o.aAt(i, kk) * (1.0f / sa))) *
                 int64_t(std::nearbyint(o.wAt(j, kk) / sw[j]));
          exact += double(o.aAt(i, kk)) * o.wAt(j, kk);
          bound += (std::fabs(o.aAt(i, kk)) * sw[j] +
                    std::fabs(o.wAt(j, kk)) * sa + sa * sw[j] / 2) /
                   2;
        }
        double b = t.bias ? o.bias[j] : 0.0;
        double reference = double(sum) * sa * sw[j] + b;
        double f32 = exact + b;
        if (t.relu) {
          reference = std::max(reference, 0.0);
          f32 = std::max(f32, 0.0);
        }
        ASSERT_NEAR(
            o.cAt(i, j), reference,
            1e-5 * (std::fabs(double(sum) * sa * sw[j]) + std::fabs(b)) + 1e-6)
            << nameOf(kernel) << " " << t.rows << "x" << t.cols << "x"
            << t.k << " at " << i << "," << j;
        ASSERT_NEAR(o.cAt(i, j), f32, bound + 1e-4);
      }
    }
    forgetWeights(gemms);
  }
  }
}

// The panels' int8 sums are exact as oneDNN's are, the quantization is
// shared and the panels dequantize in registers as the pass over oneDNN's
// sums does: the same C, bit for bit (the columns past C's own untouched),
// with and without bias and ReLU, a bias of NaN, -0 and -inf under the
// ReLU, a last panel of fewer than 16 columns, and k that is not a whole
// number of the panels' quads.
TEST(PreparedGemms, Int8PanelsEqualOneDnnBitForBit) {
  if (!rt::cpuHasPanelKernel())
    GTEST_SKIP() << "this CPU lacks AVX2 or FMA";
  // The panels take 7-bit operands only: oneDNN with the same.
  PreparedGemms panels(ComputeType::Int8, Kernel::TcPanels),
      onednn(ComputeType::Int8, Kernel::OneDnnMatmul,
             PreparedGemms::Int8Range::SevenBit);
  for (const Case &t : {Case{5, 37, 13, true, true}, Case{4, 512, 256, true,
                                                          false},
                        Case{64, 2000, 256, false, false},
                        Case{9, 40, 100, false, true},
                        Case{6, 20, 64, true, true}}) {
    Operands a(t), b(t);
    if (t.cols == 20) // a bias that is NaN, -0 and -inf (ReLU's edges)
      for (Operands *o : {&a, &b}) {
        o->bias[0] = std::nanf("");
        o->bias[1] = -0.0f;
        o->bias[17] = -INFINITY;
      }
    ASSERT_TRUE(panels.run(a.block()));
    ASSERT_TRUE(onednn.run(b.block()));
    // Bits (NaN included), and C's columns past cols still 7.
    ASSERT_EQ(std::memcmp(a.c.data(), b.c.data(), a.c.size() * 4), 0)
        << t.rows << "x" << t.cols << "x" << t.k;
    for (int64_t i = 0; i < t.rows; ++i)
      for (int64_t j = t.cols; j < t.cols + 5; ++j)
        ASSERT_EQ(a.c[i * (t.cols + 5) + j], 7.0f) << "row " << i;
    if (t.cols == 20) {
      ASSERT_TRUE(std::isnan(a.c[0]));
      ASSERT_EQ(a.c[17], 0.0f); // ReLU of -inf
    }
    forgetWeights(panels);
    forgetWeights(onednn);
  }
}

// 8-bit operands at their extremes: every u8 activation 255 and s8 weight
// 127 (or -127), whose pairs of products (64,770) would saturate a 16-bit
// pair sum (vpmaddubsw's): the sums must be exact in 32 bits, C = +-k. At
// decoder shapes of 1, 4 and 64 rows, the kernels oneDNN picks for each.
TEST(PreparedGemms, EightBitOperandsSumExactlyAtTheirExtremes) {
  if (PreparedGemms::int8RangeOfThisCpu() != PreparedGemms::Int8Range::EightBit)
    GTEST_SKIP() << "this CPU's int8 operands take 7 bits (no AVX512-VNNI)";
  PreparedGemms gemms(ComputeType::Int8, Kernel::OneDnnMatmul);
  for (const Case &t : {Case{1, 128, 256, false, false},
                        Case{4, 512, 256, false, false},
                        Case{64, 256, 1024, false, false}}) {
    Operands o(t);
    std::fill(o.a.begin(), o.a.end(), 1.0f);
    for (int64_t j = 0; j < t.cols; ++j)
      for (int64_t kk = 0; kk < t.k; ++kk)
        o.w[j * t.k + kk] = j % 2 ? -1.0f : 1.0f;
    ASSERT_TRUE(gemms.run(o.block()));
    for (int64_t i = 0; i < t.rows; ++i)
      for (int64_t j = 0; j < t.cols; ++j)
        ASSERT_EQ(o.cAt(i, j), j % 2 ? -float(t.k) : float(t.k))
            << t.rows << "x" << t.cols << "x" << t.k << " at " << i << ","
            << j;
    forgetWeights(gemms);
  }
}

// op(A) stored transposed is quantized by the plain loop, stored as it is
// by AVX-512 lanes where the CPU has them (16 at a time, a masked tail):
// the same operations, so the same bits, at widths around 16.
TEST(PreparedGemms, Int8QuantizesTransposedAndPlainAToTheSameBits) {
  for (Kernel kernel : kernels()) {
    PreparedGemms gemms(ComputeType::Int8, kernel);
    for (const Case &t : {Case{5, 32, 13, true, false}, Case{3, 48, 16, false,
                                                             false},
                          Case{9, 40, 37, true, true},
                          Case{64, 64, 256, true, false}}) {
      Operands plain(t), transposed(t);
      // op(A) of `transposed` is A^T stored [k, rows]: the same values.
      std::vector<float> at(t.k * t.rows);
      for (int64_t i = 0; i < t.rows; ++i)
        for (int64_t kk = 0; kk < t.k; ++kk)
          at[kk * t.rows + i] = plain.aAt(i, kk);
      at[0] = plain.a[0] = 0.0f; // a row with a zero, and one all zeros
      for (int64_t kk = 0; kk < t.k; ++kk)
        at[kk * t.rows + t.rows - 1] = plain.a[(t.rows - 1) * (t.k + 3) + kk] =
            0.0f;
      GemmBlock g = transposed.block();
      g.transposeA = true;
      g.a = at.data();
      g.lda = t.rows;
      ASSERT_TRUE(gemms.run(plain.block()));
      ASSERT_TRUE(gemms.run(g));
      ASSERT_EQ(std::memcmp(plain.c.data(), transposed.c.data(),
                            plain.c.size() * 4),
                0)
          << nameOf(kernel) << " " << t.rows << "x" << t.cols << "x" << t.k;
      forgetWeights(gemms);
    }
  }
}

// Where oneDNN's ISA is AVX2 (its f32 and int8 matmuls keep the weight
// plain, packing it on every call), the panels run; elsewhere whichever
// keeps a packed weight.
TEST(PreparedGemms, PanelsRunWhereOneDnnKeepsNoPackedWeight) {
  if (!rt::cpuHasPanelKernel() ||
      dnnl_get_effective_cpu_isa() != dnnl_cpu_isa_avx2)
    GTEST_SKIP() << "oneDNN's ISA here is not AVX2";
  for (ComputeType type : {ComputeType::F32, ComputeType::Int8}) {
    PreparedGemms gemms(type); // the kernel chosen for this CPU
    Operands o(Case{4, 256, 256, true, false});
    EXPECT_EQ(gemms.kernel(o.block()), "tc panels (AVX2)") << rt::nameOf(type);
    PreparedGemms onednn(type, Kernel::OneDnnMatmul);
    EXPECT_EQ(onednn.kernel(o.block()), "gemm:jit") << rt::nameOf(type);
  }
}

// A column block of C (ldc > cols: how the device splits a decoder step's
// products over its threads) runs on oneDNN's brgemm matmul with its packed
// weight where oneDNN has one (AVX-512). With C's own strides oneDNN 2.6
// gave such a block its plain-weight gemm, and tc's AVX2 panels ran it at
// half the brgemm's rate (a Zen 5's decoder step: 1.5 -> 0.82 ms of GEMMs).
TEST(PreparedGemms, ColumnBlocksRunOnTheBrgemmWhereThereIsOne) {
  if ((dnnl_get_effective_cpu_isa() & dnnl_cpu_isa_avx512_core) !=
      dnnl_cpu_isa_avx512_core)
    GTEST_SKIP() << "oneDNN's ISA here has no AVX-512 brgemm";
  Operands o(Case{64, 128, 256, true, false}); // ldc = cols + 5
  GemmBlock block = o.block();
  block.lda = block.k; // a decoder step's activations are dense
  PreparedGemms f32(ComputeType::F32);
  EXPECT_EQ(f32.kernel(block).rfind("brg:avx512_core", 0), 0u)
      << f32.kernel(block);
  if ((dnnl_get_effective_cpu_isa() & dnnl_cpu_isa_avx512_core_bf16) ==
      dnnl_cpu_isa_avx512_core_bf16) {
    PreparedGemms bf16(ComputeType::Bf16);
    EXPECT_EQ(bf16.kernel(block).rfind("brg:avx512_core", 0), 0u)
        << bf16.kernel(block);
  }
}

// A column block written through the scratch (ldc > cols) holds, bit for
// bit, what the same block gives written to a dense C of its own: the same
// primitive (C's leading dimension is not part of its shape), copied into
// place; in every compute type this CPU runs.
TEST(PreparedGemms, ColumnBlocksEqualDenseBlocksBitForBit) {
  std::vector<ComputeType> types = {ComputeType::F32, ComputeType::Int8};
  if (rt::cpuHasBf16Gemms())
    types.push_back(ComputeType::Bf16);
  for (ComputeType type : types) {
    PreparedGemms gemms(type);
    Operands o(Case{64, 256, 256, true, true});
    runSplit(gemms, o);
    GemmBlock whole = o.block();
    int64_t half = (whole.cols / 2 + 15) / 16 * 16;
    for (int part = 0; part < 2; ++part) {
      int64_t first = part ? half : 0, cols = part ? whole.cols - half : half;
      std::vector<float> dense(whole.rows * cols, 7.0f);
      GemmBlock g = whole;
      g.cols = cols;
      g.b = o.w.data() + first * whole.ldb;
      g.c = dense.data();
      g.ldc = cols;
      g.bias = o.bias.data() + first;
      ASSERT_TRUE(gemms.run(g)) << rt::nameOf(type);
      for (int64_t i = 0; i < whole.rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
          ASSERT_EQ(o.cAt(i, first + j), dense[i * cols + j])
              << rt::nameOf(type) << " at " << i << "," << first + j;
    }
    EXPECT_EQ(o.c[whole.cols], 7.0f) << "padding between C's rows";
    forgetWeights(gemms);
  }
}

TEST(PreparedGemms, ChangedWeightIsSeenAfterClear) {
  for (ComputeType type : {ComputeType::F32, ComputeType::Int8})
  for (Kernel kernel : kernels()) {
    PreparedGemms gemms(type, kernel);
    Case t{4, 64, 256, true, false};
    Operands o(t);
    ASSERT_TRUE(gemms.run(o.block()));
    float before = o.cAt(0, 0);
    EXPECT_EQ(gemms.preparedWeights(), 1u);
    for (float &x : o.w)
      x *= -2;
    ASSERT_TRUE(gemms.run(o.block()));
    EXPECT_EQ(o.cAt(0, 0), before) << "prepared once, kept until clear()";
    gemms.clear();
    EXPECT_EQ(gemms.preparedWeights(), 0u);
    ASSERT_TRUE(gemms.run(o.block()));
    double expected = -2 * (before - o.bias[0]) + o.bias[0];
    EXPECT_NEAR(o.cAt(0, 0), expected, 1e-3 * o.magnitude(0, 0) * 2)
        << rt::nameOf(type) << " " << nameOf(kernel);
    EXPECT_NE(o.cAt(0, 0), before);
  }
}

// One square weight read transposed by one GEMM and as it is by another
// (Y = X W^T, then dX = dY W): each must get its own prepared copy.
TEST(PreparedGemms, SquareWeightReadBothWaysIsPreparedTwice) {
  for (Kernel kernel : kernels()) {
  PreparedGemms gemms(ComputeType::F32, kernel);
  Case t{4, 64, 64, false, false};
  Operands prepared(t), plain(t);
  for (bool transposeB : {true, false}) {
    GemmBlock g = prepared.block(), reference = plain.block();
    g.transposeB = reference.transposeB = transposeB;
    ASSERT_TRUE(gemms.run(g));
    rt::sgemmBlock(rt::SgemmLibrary::OneDnn, reference);
    for (int64_t i = 0; i < t.rows; ++i)
      for (int64_t j = 0; j < t.cols; ++j)
        ASSERT_LE(std::fabs(prepared.cAt(i, j) - plain.cAt(i, j)),
                  1e-4 * prepared.magnitude(i, j) + 1e-4)
            << nameOf(kernel) << " transposeB " << transposeB << " at " << i
            << "," << j;
  }
  EXPECT_EQ(gemms.preparedWeights(), 2u);
  }
}

// int8 cannot carry a NaN: the block is left to sgemm (run() says no and
// leaves C alone), so the NaN shows in C instead of a finite value.
TEST(PreparedGemms, Int8LeavesNonFiniteValuesToSgemm) {
  for (Kernel kernel : kernels()) {
  PreparedGemms gemms(ComputeType::Int8, kernel);
  Case t{4, 64, 256, true, false};
  Operands activation(t), weight(t);
  activation.a[0] = std::nanf("");
  EXPECT_FALSE(gemms.run(activation.block()));
  EXPECT_EQ(activation.cAt(0, 0), 7.0f) << "C untouched";
  weight.w[0] = INFINITY;
  EXPECT_FALSE(gemms.run(weight.block()));
  EXPECT_EQ(weight.cAt(0, 0), 7.0f) << "C untouched";
  }
}

// A row of activations so small that 1 / its scale is infinite (largest
// magnitude under ~1.9e-37) quantizes to zeros, not to a conversion of
// infinity or NaN to an integer (undefined: the sanitizer build stopped
// there): its C is the bias alone, within the row's own size.
TEST(PreparedGemms, Int8RowOfTinyActivationsGivesTheBias) {
  for (Kernel kernel : kernels()) {
  PreparedGemms gemms(ComputeType::Int8, kernel);
  Case t{4, 64, 256, true, false};
  Operands o(t);
  for (int64_t kk = 0; kk < t.k; ++kk)
    o.a[1 * (t.k + 3) + kk] = kk % 3 == 0 ? 1e-40f : 0.0f;
  ASSERT_TRUE(gemms.run(o.block()));
  for (int64_t j = 0; j < t.cols; ++j)
    ASSERT_NEAR(o.cAt(1, j), o.bias[j], 1e-30) << nameOf(kernel) << " " << j;
  }
}

// The same for a weight column too small for 1 / its scale (largest / 63,
// or / 127)
// to be finite (largest under ~1.9e-37; here its scale underflows to 0):
// its C column is the bias alone.
TEST(PreparedGemms, Int8ColumnOfTinyWeightsGivesTheBias) {
  for (Kernel kernel : kernels()) {
  PreparedGemms gemms(ComputeType::Int8, kernel);
  Case t{4, 64, 256, true, false};
  Operands o(t);
  for (int64_t kk = 0; kk < t.k; ++kk)
    o.w[2 * t.k + kk] = kk % 5 == 0 ? 1e-44f : 0.0f;
  ASSERT_TRUE(gemms.run(o.block()));
  for (int64_t i = 0; i < t.rows; ++i)
    ASSERT_NEAR(o.cAt(i, 2), o.bias[2], 1e-30) << nameOf(kernel) << " " << i;
  forgetWeights(gemms);
  }
}

TEST(PreparedGemms, TakesOnlyAlphaOneAndBetaZero) {
  GemmBlock g;
  EXPECT_TRUE(PreparedGemms::takes(g));
  g.beta = 1;
  EXPECT_FALSE(PreparedGemms::takes(g));
  g.beta = 0;
  g.alpha = 0.125f;
  EXPECT_FALSE(PreparedGemms::takes(g));
}

} // namespace
