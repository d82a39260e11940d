//===- DecoderShapesTest.cpp - the compiled shape a source is decoded in --===//

#include "runtime/decode/DecoderShapes.h"

#include <gtest/gtest.h>

using namespace tc::rt;

namespace {

// The incremental decoder's shapes as tc-compile makes them: one per source
// length, with target length source + 50 up to the longest training target.
const std::vector<BucketShape> kDecoderShapes{
    {8, 10, 60}, {8, 20, 70}, {8, 64, 100}};

TEST(DecoderShapes, TheFirstThatHoldsTheSource) {
  EXPECT_EQ(decoderShapeFor(kDecoderShapes, 1), 0u);
  EXPECT_EQ(decoderShapeFor(kDecoderShapes, 10), 0u);
  EXPECT_EQ(decoderShapeFor(kDecoderShapes, 11), 1u);
  EXPECT_EQ(decoderShapeFor(kDecoderShapes, 64), 2u);
}

TEST(DecoderShapes, NoneHoldsALongerSource) {
  EXPECT_EQ(decoderShapeFor(kDecoderShapes, 65), std::nullopt);
  EXPECT_EQ(decoderShapeFor(kDecoderShapes, 65, 1), std::nullopt);
  EXPECT_EQ(decoderShapeFor({}, 1), std::nullopt);
}

TEST(DecoderShapes, TheFirstThatAlsoHoldsTheTargetPositions) {
  // Training buckets, smallest first, for greedy decoding by recompute.
  std::vector<BucketShape> buckets{{4, 10, 20}, {4, 20, 70}, {4, 30, 40}};
  EXPECT_EQ(decoderShapeFor(buckets, 8, 20), 0u);
  EXPECT_EQ(decoderShapeFor(buckets, 8, 21), 1u);
  EXPECT_EQ(decoderShapeFor(buckets, 8, 58), 1u);
  EXPECT_EQ(decoderShapeFor(buckets, 25, 40), 2u);
}

TEST(DecoderShapes, ElseTheLongestTargetOfThoseThatHoldTheSource) {
  std::vector<BucketShape> buckets{{4, 10, 20}, {4, 20, 70}, {4, 30, 40}};
  EXPECT_EQ(decoderShapeFor(buckets, 8, 100), 1u);
  EXPECT_EQ(decoderShapeFor(buckets, 25, 100), 2u); // 1 cannot hold it
  // Of equal targets, the first.
  std::vector<BucketShape> ties{{4, 10, 20}, {4, 12, 20}};
  EXPECT_EQ(decoderShapeFor(ties, 8, 50), 0u);
  EXPECT_EQ(decoderShapeFor(ties, 11, 50), 1u);
}

// A source length's step with 64 rows and with one sentence's 4 (tc-compile's
// [decoding] rows and beam).
TEST(DecoderShapes, TheFewestRowsThatHoldTheSentencesAtATime) {
  std::vector<BucketShape> steps{{64, 10, 60}, {4, 10, 60}, {64, 20, 70},
                                 {4, 20, 70}};
  BucketShape wide{64, 10, 60};
  EXPECT_EQ(fewestRows(steps, wide, 4).batch, 4);
  EXPECT_EQ(fewestRows(steps, wide, 1).batch, 4); // greedy, one sentence
  EXPECT_EQ(fewestRows(steps, wide, 5).batch, 64);
  EXPECT_EQ(fewestRows(steps, wide, 64).batch, 64);
  EXPECT_EQ(fewestRows(steps, wide, 4).sourceLength, 10);
  // Only the same source and target lengths count.
  EXPECT_EQ(fewestRows({{64, 10, 60}, {4, 20, 70}}, wide, 4).batch, 64);
  EXPECT_EQ(fewestRows({{64, 10, 60}, {4, 10, 59}}, wide, 4).batch, 64);
}

} // namespace
