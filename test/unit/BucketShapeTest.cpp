//===- BucketShapeTest.cpp - the rules that put sentence pairs in buckets -===//
//
// runtime/format/BucketShape.h: tc-compile --buckets-from and tc-run apply
// these alike, so each is pinned here.
//
//===----------------------------------------------------------------------===//

#include "runtime/format/BucketShape.h"

#include <gtest/gtest.h>

using namespace tc::contract;

namespace {

std::vector<std::pair<int64_t, int64_t>>
lengthsOf(const std::vector<BucketShape> &buckets) {
  std::vector<std::pair<int64_t, int64_t>> lengths;
  for (const BucketShape &b : buckets)
    lengths.push_back({b.sourceLength, b.targetLength});
  return lengths;
}

TEST(BucketShape, APairTakesItsSourceAndOneMoreThanItsTarget) {
  PairLengths lengths = paddedLengths(5, 3); // BOS + 3 in, 3 + EOS out
  EXPECT_EQ(lengths.source, 5);
  EXPECT_EQ(lengths.target, 4);
  EXPECT_EQ(paddedLengths(1, 0).target, 1);
}

TEST(BucketShape, HoldsWhenBothLengthsAndTheRowsFit) {
  BucketShape shape{4, 6, 5};
  EXPECT_TRUE(holds(shape, {6, 5}));
  EXPECT_TRUE(holds(shape, {1, 1}));
  EXPECT_FALSE(holds(shape, {7, 5}));
  EXPECT_FALSE(holds(shape, {6, 6}));
  EXPECT_TRUE(holds(shape, {6, 5}, 4));
  EXPECT_FALSE(holds(shape, {6, 5}, 5));
  // A target of 5 tokens takes 6 positions: this bucket is one short.
  EXPECT_FALSE(holds(shape, paddedLengths(6, 5)));
  EXPECT_TRUE(holds(shape, paddedLengths(6, 4)));
}

TEST(BucketShape, SortedByAreaNotBySourceLength) {
  std::vector<BucketShape> buckets{{8, 10, 2}, {8, 3, 4}, {8, 2, 2}, {8, 5, 5}};
  sortBySize(buckets);
  EXPECT_EQ(lengthsOf(buckets), (std::vector<std::pair<int64_t, int64_t>>{
                                    {2, 2}, {3, 4}, {10, 2}, {5, 5}}));
}

TEST(BucketShape, EqualAreasKeepTheirOrder) {
  std::vector<BucketShape> buckets{{8, 4, 3}, {2, 3, 4}, {8, 6, 2}};
  sortBySize(buckets);
  EXPECT_EQ(buckets,
            (std::vector<BucketShape>{{8, 4, 3}, {2, 3, 4}, {8, 6, 2}}));
  std::vector<BucketShape> reversed{{8, 6, 2}, {2, 3, 4}, {8, 4, 3}};
  sortBySize(reversed);
  EXPECT_EQ(reversed,
            (std::vector<BucketShape>{{8, 6, 2}, {2, 3, 4}, {8, 4, 3}}));
  // The batch does not count: only the lengths.
  std::vector<BucketShape> batches{{64, 3, 3}, {1, 3, 3}};
  sortBySize(batches);
  EXPECT_EQ(batches, (std::vector<BucketShape>{{64, 3, 3}, {1, 3, 3}}));
}

TEST(BucketShape, EqualAreasKeepTheirOrderInALongList) {
  // Long enough that an unstable sort would reorder equal buckets.
  std::vector<BucketShape> buckets, expected;
  for (int64_t i = 0; i < 64; ++i)
    buckets.push_back(i % 2 ? BucketShape{i, 4, 3} : BucketShape{i, 2, 2});
  for (int64_t odd : {0, 1})
    for (const BucketShape &b : buckets)
      if (b.batch % 2 == odd)
        expected.push_back(b);
  sortBySize(buckets);
  EXPECT_EQ(buckets, expected);
}

TEST(BucketShape, TheSmallestThatHoldsIsTheFirstInOrder) {
  std::vector<BucketShape> sorted{{8, 2, 2}, {8, 3, 4}, {8, 4, 3}, {8, 10, 2}};
  EXPECT_EQ(smallestHolding(sorted, {1, 1}), 0u);
  EXPECT_EQ(smallestHolding(sorted, {3, 3}), 1u);
  EXPECT_EQ(smallestHolding(sorted, {4, 3}), 2u);
  EXPECT_EQ(smallestHolding(sorted, {2, 4}), 1u); // the source would fit 0
  EXPECT_EQ(smallestHolding(sorted, {9, 2}), 3u);
}

TEST(BucketShape, RowsSkipABucketTooNarrow) {
  std::vector<BucketShape> sorted{{2, 4, 4}, {8, 6, 6}};
  EXPECT_EQ(smallestHolding(sorted, {3, 3}, 2), 0u);
  EXPECT_EQ(smallestHolding(sorted, {3, 3}, 3), 1u);
  EXPECT_EQ(smallestHolding(sorted, {3, 3}, 9), std::nullopt);
}

TEST(BucketShape, APairThatFitsNone) {
  std::vector<BucketShape> sorted{{8, 2, 2}, {8, 3, 4}, {8, 10, 2}};
  EXPECT_EQ(smallestHolding(sorted, {11, 1}), std::nullopt);
  EXPECT_EQ(smallestHolding(sorted, {3, 5}), std::nullopt);
  // Its source fits the last bucket, its target the second.
  EXPECT_EQ(smallestHolding(sorted, {4, 4}), std::nullopt);
  EXPECT_EQ(smallestHolding(sorted, paddedLengths(3, 4)), std::nullopt);
  EXPECT_EQ(smallestHolding({}, {1, 1}), std::nullopt);
}

} // namespace
