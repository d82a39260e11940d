//===- ReferenceKernelsTest.cpp - properties of the reference kernels -----===//
//
// Hand-computed values of every op are in test/Interpreter/ops; these tests
// check properties that are easier to state in C++: rounding to each element
// type, dropout's statistics, and broadcasting inside matmul.
//
//===----------------------------------------------------------------------===//

#include "compiler/interpreter/Kernels.h"
#include "support/Philox.h"

#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace tc;

Tensor filled(DType dtype, Shape shape, std::vector<double> values) {
  Tensor t(dtype, std::move(shape));
  for (int64_t i = 0; i < t.size(); ++i)
    t.set(i, values[i]);
  return t;
}

TEST(Rounding, EachFloatTypeRoundsToNearestEven) {
  EXPECT_EQ(roundTo(DType::F64, 0.1), 0.1);
  EXPECT_EQ(roundTo(DType::F32, 0.1), double(0.1f));
  // bf16 keeps 8 significant bits: 1 + 2^-8 is a tie that rounds to 1 (even),
  // 1 + 3 * 2^-8 a tie that rounds up to 1 + 2^-6.
  EXPECT_EQ(roundTo(DType::BF16, 1.0 + std::ldexp(1.0, -8)), 1.0);
  EXPECT_EQ(roundTo(DType::BF16, 1.0 + 3 * std::ldexp(1.0, -8)),
            1.0 + std::ldexp(1.0, -6));
  // f16 keeps 11 significant bits and overflows above 65504.
  EXPECT_EQ(roundTo(DType::F16, 1.0 + std::ldexp(1.0, -11)), 1.0);
  EXPECT_TRUE(std::isinf(roundTo(DType::F16, 70000.0)));
  EXPECT_EQ(roundTo(DType::I32, -2.7), -2.0);
}

TEST(Dropout, KeepsTheExpectedFractionAndScalesBySurvival) {
  Tensor x = filled(DType::F64, {100, 100}, std::vector<double>(10000, 2.0));
  Tensor rng(DType::I64, {2});
  rng.ints = {17, 3};
  Tensor y = ref::dropout(x, rng, 0.25, 5);
  int kept = 0;
  for (int64_t i = 0; i < y.size(); ++i) {
    ASSERT_TRUE(y.floats[i] == 0.0 || y.floats[i] == 2.0 / 0.75) << i;
    kept += y.floats[i] != 0.0;
    EXPECT_EQ(y.floats[i] != 0.0, dropoutKeeps(17, 3, 5, i, 0.25)) << i;
  }
  // 7500 expected; the binomial standard deviation is 43: allow 5 sigma.
  EXPECT_NEAR(kept, 7500, 220);
}

TEST(Dropout, RateZeroIsTheIdentity) {
  Tensor x = filled(DType::F32, {3}, {1.5, -2.0, 3.25});
  Tensor rng(DType::I64, {2});
  EXPECT_EQ(ref::dropout(x, rng, 0.0, 1).floats, x.floats);
}

TEST(Matmul, BatchBroadcastWithTransposesMatchesLoops) {
  // op(lhs) = lhs^T: [2, 1, 2, 3]; op(rhs) = rhs^T: [3, 4]; batch [2, 1].
  Tensor lhs(DType::F64, {2, 1, 3, 2}), rhs(DType::F64, {4, 3});
  for (int64_t i = 0; i < lhs.size(); ++i)
    lhs.floats[i] = std::sin(i + 1.0);
  for (int64_t i = 0; i < rhs.size(); ++i)
    rhs.floats[i] = std::cos(i + 1.0);
  Tensor out = ref::matmul(lhs, rhs, true, true, {2, 1, 2, 4}, DType::F64);
  for (int b = 0; b < 2; ++b)
    for (int m = 0; m < 2; ++m)
      for (int n = 0; n < 4; ++n) {
        double sum = 0;
        for (int k = 0; k < 3; ++k)
          sum += lhs.floats[b * 6 + k * 2 + m] * rhs.floats[n * 3 + k];
        EXPECT_DOUBLE_EQ(out.floats[(b * 2 + m) * 4 + n], sum);
      }
}

TEST(CrossEntropy, ReportsTargetsOutsideTheVocabulary) {
  Tensor logits(DType::F32, {2, 3});
  Tensor targets = filled(DType::I32, {2}, {1, 3});
  std::string error;
  ref::crossEntropy(logits, targets, 0.1, -100, error);
  EXPECT_NE(error.find("target 3 at position 1"), std::string::npos) << error;
}

TEST(Embedding, ReportsIdsOutsideTheTable) {
  Tensor table(DType::F32, {4, 2});
  Tensor ids = filled(DType::I32, {3}, {0, -1, 2});
  std::string error;
  ref::embedding(table, ids, error);
  EXPECT_NE(error.find("id -1 at position 1"), std::string::npos) << error;
}

} // namespace
