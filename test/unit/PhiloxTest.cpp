//===- PhiloxTest.cpp - Philox 4x32-10 and the dropout mask ---------------===//

#include "support/Philox.h"
#include "support/PhiloxAvx2.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

// Known-answer vectors of Random123 (kat_vectors): counter, key -> output.
TEST(Philox, KnownAnswers) {
  EXPECT_EQ(
      tc::philox4x32({0, 0, 0, 0}, {0, 0}),
      (tc::PhiloxCounter{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(
      tc::philox4x32({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
                     {0xffffffff, 0xffffffff}),
      (tc::PhiloxCounter{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(
      tc::philox4x32({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
                     {0xa4093822, 0x299f31d0}),
      (tc::PhiloxCounter{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

// Element i of a dropout mask reads word i % 4 of counter block i / 4.
TEST(Philox, DropoutUniformUsesDocumentedCounterLayout) {
  uint64_t seed = 0x1234, step = (uint64_t(7) << 32) | 9, key = 42;
  uint64_t index = (uint64_t(3) << 34) + 4 * 5 + 2; // block 3*2^32 + 5, word 2
  tc::PhiloxCounter words =
      tc::philox4x32({5, 3, 9, 7}, {uint32_t(seed), uint32_t(key)});
  EXPECT_EQ(tc::dropoutUniform(seed, step, key, index),
            double(words[2] >> 8) / 16777216.0);
}

TEST(Philox, DropoutUniformIsInUnitIntervalAndRoughlyUniform) {
  const int n = 100000;
  int below[4] = {0, 0, 0, 0};
  for (int i = 0; i < n; ++i) {
    double u = tc::dropoutUniform(1, 2, 3, i);
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    for (int q = 0; q < 4; ++q)
      below[q] += u < 0.25 * (q + 1);
  }
  // Binomial standard deviation at n = 1e5 is at most 158: allow 5 sigma.
  for (int q = 0; q < 4; ++q)
    EXPECT_NEAR(below[q], 0.25 * (q + 1) * n, 800) << "quartile " << q;
}

TEST(Philox, MaskDependsOnSeedStepKeyAndIndex) {
  auto mask = [](uint64_t seed, uint64_t step, uint64_t key) {
    std::vector<bool> m;
    for (int i = 0; i < 256; ++i)
      m.push_back(tc::dropoutKeeps(seed, step, key, i, 0.5));
    return m;
  };
  auto base = mask(1, 1, 1);
  EXPECT_EQ(base, mask(1, 1, 1));
  EXPECT_NE(base, mask(2, 1, 1));
  EXPECT_NE(base, mask(1, 2, 1));
  EXPECT_NE(base, mask(1, 1, 2));
}

// The integer threshold keeps exactly the words whose uniform is >= rate,
// at the words either side of it, for rates on and between multiples of
// 2^-24 and outside [0, 1).
TEST(Philox, DropoutThresholdMatchesUniformCompare) {
  std::vector<double> rates = {0.0,  0.1, 0.25, 0.5, 1.0 / 3, 0.9999999,
                               1e-9, 1.0, 1.5,  -0.2, std::nan("")};
  for (uint32_t top : {1u, 100u, 16777215u})
    rates.push_back(top / 16777216.0);
  for (double rate : rates) {
    uint32_t threshold = tc::dropoutThreshold(rate);
    for (int64_t top = int64_t(threshold) - 2; top <= int64_t(threshold) + 2;
         ++top) {
      if (top < 0 || top > 16777215)
        continue;
      uint32_t word = uint32_t(top) << 8 | 0xAB;
      EXPECT_EQ(uint32_t(top) >= threshold, tc::uniformOf(word) >= rate)
          << "rate " << rate << ", top bits " << top;
    }
  }
  EXPECT_EQ(tc::dropoutThreshold(0.0), 0u);
  EXPECT_EQ(tc::dropoutThreshold(0.5), 8388608u);
  EXPECT_EQ(tc::dropoutThreshold(1.0), 16777216u); // keeps nothing
}

// The AVX2 form draws dropoutKeeps's bytes, also where a block's low counter
// word wraps into its high word, and for rates where the threshold matters.
TEST(Philox, Avx2KeepsEqualPlainKeeps) {
  if (!__builtin_cpu_supports("avx2"))
    GTEST_SKIP() << "this CPU has no AVX2";
  uint64_t seed = 0x9E3779B97F4A7C15ull, step = (uint64_t(3) << 32) | 11;
  for (uint64_t firstBlock :
       {uint64_t(0), uint64_t(48), (uint64_t(1) << 32) - 5, uint64_t(1) << 40})
    for (double rate : {0.1, 0.5, 0.0, 1.0, 100.0 / 16777216.0}) {
      uint8_t keeps[4 * tc::kPhiloxAvx2Blocks];
      uint64_t key = firstBlock % 7 + 1;
      tc::dropoutKeepsAvx2(seed, step, key, firstBlock,
                           tc::dropoutThreshold(rate), keeps);
      for (int i = 0; i < 4 * tc::kPhiloxAvx2Blocks; ++i)
        ASSERT_EQ(keeps[i], tc::dropoutKeeps(seed, step, key,
                                             4 * firstBlock + i, rate))
            << "block " << firstBlock << " + " << i / 4 << ", word " << i % 4
            << ", rate " << rate;
    }
}

// A lane keeps exactly the words whose top 24 bits reach the threshold
// (random words almost never land on it, so the test above cannot tell).
TEST(Philox, Avx2KeepBitAtTheThreshold) {
  if (!__builtin_cpu_supports("avx2"))
    GTEST_SKIP() << "this CPU has no AVX2";
  for (uint32_t threshold : {0u, 1u, 1677722u, 16777215u, 16777216u}) {
    alignas(32) uint32_t words[8], kept[8];
    for (int lane = 0; lane < 8; ++lane) {
      int64_t top = std::clamp<int64_t>(int64_t(threshold) - 3 + lane, 0,
                                        16777215);
      words[lane] = uint32_t(top) << 8 | 0xFF;
    }
    [&]() __attribute__((target("avx2"))) {
      __m256i bits = tc::philox_avx2::keepBit(
          _mm256_load_si256(reinterpret_cast<const __m256i *>(words)),
          threshold);
      _mm256_store_si256(reinterpret_cast<__m256i *>(kept), bits);
    }();
    for (int lane = 0; lane < 8; ++lane)
      EXPECT_EQ(kept[lane], (words[lane] >> 8) >= threshold ? 1u : 0u)
          << "threshold " << threshold << ", top bits " << (words[lane] >> 8);
  }
}

} // namespace
