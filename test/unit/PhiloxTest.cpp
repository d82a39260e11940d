//===- PhiloxTest.cpp - Philox 4x32-10 and the dropout mask ---------------===//

#include "support/Philox.h"

#include <gtest/gtest.h>

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

} // namespace
