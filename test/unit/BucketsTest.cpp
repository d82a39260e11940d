//===- BucketsTest.cpp - batches in the runtime's shape buckets -----------===//
//
// runtime/data's uses of runtime/format/BucketShape.h's rules: the bucket of
// a training step's micro-batches, a batch's layout, the longest synthetic
// pair.
//
//===----------------------------------------------------------------------===//

#include "runtime/data/Buckets.h"
#include "runtime/data/SyntheticTask.h"

#include <gtest/gtest.h>

using namespace tc::rt;

namespace {

SentencePair pair(size_t sourceTokens, size_t targetTokens) {
  return {std::vector<int32_t>(sourceTokens, 7),
          std::vector<int32_t>(targetTokens, 8)};
}

TEST(Buckets, APairsLengthsAreItsSourceAndItsTargetPlusOne) {
  PairLengths lengths = lengthsOf(pair(5, 3));
  EXPECT_EQ(lengths.source, 5);
  EXPECT_EQ(lengths.target, 4);
}

TEST(Buckets, MicroBatchesShareTheSmallestBucketThatHoldsEach) {
  std::vector<BucketShape> buckets{{2, 4, 4}, {4, 4, 4}, {4, 8, 8}};
  EXPECT_EQ(bucketFor(buckets, {pair(4, 3), pair(2, 2)}),
            (BucketShape{2, 4, 4}));
  EXPECT_EQ(bucketFor(buckets, {pair(4, 4)}), (BucketShape{4, 8, 8}));
  // Three rows, and the longest source of one micro-batch with the longest
  // target of another.
  EXPECT_EQ(bucketFor(buckets,
                      std::vector<std::vector<SentencePair>>{
                          {pair(4, 1), pair(1, 1), pair(1, 1)}, {pair(1, 3)}}),
            (BucketShape{4, 4, 4}));
  EXPECT_EQ(
      bucketFor(buckets, std::vector<std::vector<SentencePair>>{{pair(5, 1)},
                                                                {pair(1, 7)}}),
      (BucketShape{4, 8, 8}));
  EXPECT_EQ(bucketFor(buckets, {pair(9, 1)}), std::nullopt);
  EXPECT_EQ(bucketFor(buckets, {pair(1, 8)}), std::nullopt);
}

TEST(Buckets, ABatchHasBosBeforeAndEosAfterTheTarget) {
  Vocabulary vocab{20, 0, 1, 2};
  Batch batch;
  ASSERT_TRUE(fillBatch({pair(2, 2)}, vocab, 2, 3, 3, batch));
  EXPECT_EQ(batch.source, (std::vector<int32_t>{7, 7, 0, 0, 0, 0}));
  EXPECT_EQ(batch.targetIn, (std::vector<int32_t>{1, 8, 8, 0, 0, 0}));
  EXPECT_EQ(batch.targetOut, (std::vector<int32_t>{8, 8, 2, 0, 0, 0}));
  EXPECT_EQ(batch.tokens, 5);
  EXPECT_FALSE(fillBatch({pair(2, 3)}, vocab, 2, 3, 3, batch));
  EXPECT_FALSE(fillBatch({pair(4, 1)}, vocab, 2, 3, 3, batch));
  EXPECT_FALSE(
      fillBatch({pair(1, 1), pair(1, 1), pair(1, 1)}, vocab, 2, 3, 3, batch));
}

TEST(Buckets, TheLongestSyntheticPairFitsTheBucket) {
  for (BucketShape bucket :
       {BucketShape{4, 6, 5}, BucketShape{4, 5, 6}, BucketShape{1, 2, 2}}) {
    int64_t n = tc::contract::maxSyntheticSymbols(bucket);
    EXPECT_TRUE(tc::contract::holds(bucket, lengthsOf(pair(n + 1, n))));
    EXPECT_FALSE(tc::contract::holds(bucket, lengthsOf(pair(n + 2, n + 1))));
  }
  EXPECT_EQ(tc::contract::maxSyntheticSymbols({4, 6, 5}), 4);
  EXPECT_EQ(tc::contract::maxSyntheticSymbols({1, 1, 9}), 0);
}

} // namespace
