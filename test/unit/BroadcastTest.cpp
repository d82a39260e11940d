//===- BroadcastTest.cpp - NumPy broadcasting of shapes -------------------===//

#include "support/Broadcast.h"
#include "compiler/interpreter/Kernels.h"

#include <gtest/gtest.h>

namespace {

using tc::Shape;

std::optional<Shape> bc(Shape a, Shape b) { return tc::broadcastShapes(a, b); }

TEST(Broadcast, NumPyRules) {
  EXPECT_EQ(bc({2, 3}, {3}), (Shape{2, 3}));
  EXPECT_EQ(bc({2, 1, 4}, {3, 1}), (Shape{2, 3, 4}));
  EXPECT_EQ(bc({}, {5, 6}), (Shape{5, 6}));
  EXPECT_EQ(bc({1}, {1}), (Shape{1}));
  EXPECT_EQ(bc({0, 1}, {1, 4}), (Shape{0, 4}));
  EXPECT_EQ(bc({2, 3}, {2}), std::nullopt);
  EXPECT_EQ(bc({4, 3}, {2, 3}), std::nullopt);
}

TEST(Broadcast, WithUnitAxesKeepsReducedDimensionsAsOne) {
  tc::Shape shape = {2, 3, 4};
  EXPECT_EQ(tc::withUnitAxes(shape, {1}), (Shape{2, 1, 4}));
  EXPECT_EQ(tc::withUnitAxes(shape, {0, 2}), (Shape{1, 3, 1}));
  EXPECT_EQ(tc::withUnitAxes(shape, {-1}), (Shape{2, 3, 1}));
}

TEST(Broadcast, FormatShape) {
  EXPECT_EQ(tc::formatShape(Shape{}), "[]");
  EXPECT_EQ(tc::formatShape(Shape{2, 3, 4}), "[2, 3, 4]");
}

TEST(Broadcast, IndexMapsEveryOutputElementToItsSource) {
  // from [3, 1] to [2, 3, 4]: element (b, i, j) reads (i, 0).
  tc::ref::BroadcastIndex index({3, 1}, {2, 3, 4});
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j)
        EXPECT_EQ(index((b * 3 + i) * 4 + j), i);
}

} // namespace
