//===- StridedLayoutTest.cpp - views of flat buffers ----------------------===//
//
// compiler/analysis/StridedLayout.h decides which reshapes, transposes and
// slices are views (no copy) and how a GEMM reads a strided operand. Each
// case spells out the expected offsets and strides, worked out by hand; the
// property tests compare reshapes with a brute-force reference that walks
// every element's address, so a wrong stride or a missed view fails.
//
//===----------------------------------------------------------------------===//

#include "compiler/analysis/StridedLayout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>
#include <vector>

namespace {

using tc::MatrixLayout;
using tc::StridedLayout;
using Ints = std::vector<int64_t>;

StridedLayout layout(int64_t offset, Ints shape, Ints strides) {
  return StridedLayout{offset, std::move(shape), std::move(strides)};
}

/// The element offsets of `l`, in row-major order of its indices.
Ints addresses(const StridedLayout &l) {
  Ints result;
  Ints index(l.shape.size(), 0);
  for (int64_t flat = 0; flat < l.numElements(); ++flat) {
    int64_t at = l.offset;
    for (size_t d = 0; d < index.size(); ++d)
      at += index[d] * l.strides[d];
    result.push_back(at);
    for (size_t d = index.size(); d-- > 0;) {
      if (++index[d] < l.shape[d])
        break;
      index[d] = 0;
    }
  }
  return result;
}

/// Brute force: the strided layout of shape `shape` whose row-major element
/// addresses are `wanted`, if any (strides from the unit steps, then every
/// element checked).
std::optional<StridedLayout> referenceReshape(const StridedLayout &l,
                                              const Ints &shape) {
  Ints wanted = addresses(l);
  StridedLayout candidate = StridedLayout::contiguous(shape, l.offset);
  if (candidate.numElements() != int64_t(wanted.size()))
    return std::nullopt;
  if (wanted.empty())
    return candidate;
  candidate.offset = wanted[0];
  Ints unit = StridedLayout::contiguous(shape).strides; // flat index steps
  for (size_t d = 0; d < shape.size(); ++d)
    candidate.strides[d] = shape[d] == 1 ? 1 : wanted[unit[d]] - wanted[0];
  if (addresses(candidate) != wanted)
    return std::nullopt;
  return candidate;
}

/// Every shape of rank <= 4 (extents >= 1) with `elements` elements.
std::vector<Ints> shapesWith(int64_t elements) {
  std::vector<Ints> shapes;
  std::function<void(Ints &, int64_t, size_t)> grow =
      [&](Ints &prefix, int64_t left, size_t rank) {
        if (prefix.size() == rank) {
          if (left == 1)
            shapes.push_back(prefix);
          return;
        }
        for (int64_t extent = 1; extent <= left; ++extent) {
          if (left % extent)
            continue;
          prefix.push_back(extent);
          grow(prefix, left / extent, rank);
          prefix.pop_back();
        }
      };
  for (size_t rank = 0; rank <= 4; ++rank) {
    Ints prefix;
    grow(prefix, elements, rank);
  }
  return shapes;
}

//===----------------------------------------------------------------------===//
// contiguous, isContiguous, numElements
//===----------------------------------------------------------------------===//

TEST(StridedLayout, ContiguousIsRowMajor) {
  StridedLayout l = StridedLayout::contiguous({2, 3, 4}, 7);
  EXPECT_EQ(l, layout(7, {2, 3, 4}, {12, 4, 1}));
  EXPECT_EQ(l.numElements(), 24);
  EXPECT_TRUE(l.isContiguous());
  EXPECT_EQ(StridedLayout::contiguous({}), layout(0, {}, {}));
  EXPECT_EQ(StridedLayout::contiguous({}).numElements(), 1);
}

TEST(StridedLayout, IsContiguousIgnoresStridesOfExtentOneDimensions) {
  EXPECT_TRUE(layout(0, {2, 1, 3}, {3, 99, 1}).isContiguous());
  EXPECT_TRUE(layout(0, {1, 4}, {1, 1}).isContiguous());
  EXPECT_FALSE(layout(0, {2, 3}, {1, 2}).isContiguous()); // transposed
  EXPECT_FALSE(layout(0, {2, 3}, {8, 1}).isContiguous()); // padded rows
  EXPECT_FALSE(layout(0, {2, 3}, {3, 2}).isContiguous());
}

//===----------------------------------------------------------------------===//
// reshapeLayout
//===----------------------------------------------------------------------===//

TEST(ReshapeLayout, ContiguousSplitKeepsRowMajorStrides) {
  // Attention's head split: [B*S, 3*d] = [6, 24] -> [B, S, 3, h, dk].
  auto r =
      tc::reshapeLayout(StridedLayout::contiguous({6, 24}, 5), {2, 3, 3, 2, 4});
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, layout(5, {2, 3, 3, 2, 4}, {72, 24, 8, 4, 1}));
}

TEST(ReshapeLayout, ContiguousMerge) {
  auto r = tc::reshapeLayout(StridedLayout::contiguous({2, 3, 4}), {6, 4});
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, layout(0, {6, 4}, {4, 1}));
  auto flat = tc::reshapeLayout(StridedLayout::contiguous({2, 3, 4}, 3), {24});
  ASSERT_TRUE(flat);
  EXPECT_EQ(*flat, layout(3, {24}, {1}));
}

TEST(ReshapeLayout, ExtentOneDimensions) {
  // Added: leading, middle and trailing ones; their strides do not matter
  // but the others must be those of [2, 3].
  auto added =
      tc::reshapeLayout(StridedLayout::contiguous({2, 3}), {1, 2, 1, 3, 1});
  ASSERT_TRUE(added);
  EXPECT_EQ(added->shape, (Ints{1, 2, 1, 3, 1}));
  EXPECT_EQ(added->strides[1], 3);
  EXPECT_EQ(added->strides[3], 1);
  EXPECT_TRUE(added->isContiguous());
  // Removed: a [1, 2, 2, 3, 4] piece of a split (its extent-1 dimension has
  // the stride of the split axis) keeps the other strides.
  auto piece = tc::reshapeLayout(layout(8, {1, 2, 2, 3, 4}, {8, 72, 4, 24, 1}),
                                 {2, 2, 3, 4});
  ASSERT_TRUE(piece);
  EXPECT_EQ(*piece, layout(8, {2, 2, 3, 4}, {72, 4, 24, 1}));
  // A scalar to [1, 1] and back.
  auto ones = tc::reshapeLayout(StridedLayout::contiguous({}, 4), {1, 1});
  ASSERT_TRUE(ones);
  EXPECT_EQ(ones->offset, 4);
  EXPECT_EQ(ones->shape, (Ints{1, 1}));
  auto scalar = tc::reshapeLayout(layout(4, {1, 1}, {17, 3}), {});
  ASSERT_TRUE(scalar);
  EXPECT_EQ(*scalar, layout(4, {}, {}));
}

TEST(ReshapeLayout, TransposedLayoutThatIsNotStridedIsNone) {
  // A [3, 2] transpose of a contiguous [2, 3] is not one run of elements.
  EXPECT_EQ(tc::reshapeLayout(layout(0, {3, 2}, {1, 3}), {6}), std::nullopt);
  // Attention's head merge: [B, S, h, dk] = [2, 3, 2, 4] transposed from a
  // contiguous [B, h, S, dk] cannot be [B*S, d] = [6, 8] without a copy.
  EXPECT_EQ(tc::reshapeLayout(layout(0, {2, 3, 2, 4}, {24, 4, 12, 1}), {6, 8}),
            std::nullopt);
  // Splitting one dimension of a transposed layout keeps it a view: the
  // [3, 4] transpose of a contiguous [4, 3], its columns split into [2, 2].
  auto split = tc::reshapeLayout(layout(0, {3, 4}, {1, 3}), {3, 2, 2});
  ASSERT_TRUE(split);
  EXPECT_EQ(*split, layout(0, {3, 2, 2}, {1, 6, 3}));
}

TEST(ReshapeLayout, ElementCountMismatchIsNone) {
  EXPECT_EQ(tc::reshapeLayout(StridedLayout::contiguous({2, 3}), {7}),
            std::nullopt);
}

TEST(ReshapeLayout, EmptyTensorIsContiguousAtTheSameOffset) {
  auto r = tc::reshapeLayout(layout(9, {0, 3}, {1, 5}), {3, 0});
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, layout(9, {3, 0}, {0, 1}));
}

TEST(ReshapeLayout, StridedColumnSlice) {
  // The K columns [8, 16) of a [6, 24] Q/K/V projection: rows 24 apart.
  StridedLayout k =
      tc::sliceLayout(StridedLayout::contiguous({6, 24}), {0, 8}, {6, 8});
  EXPECT_EQ(k, layout(8, {6, 8}, {24, 1}));
  // Rows split into [B, S], columns into [h, dk]: still a view.
  auto heads = tc::reshapeLayout(k, {2, 3, 2, 4});
  ASSERT_TRUE(heads);
  EXPECT_EQ(*heads, layout(8, {2, 3, 2, 4}, {72, 24, 4, 1}));
  // Rows merged with columns: the gaps between rows make it no view.
  EXPECT_EQ(tc::reshapeLayout(k, {48}), std::nullopt);
  EXPECT_EQ(tc::reshapeLayout(k, {2, 24}), std::nullopt);
  // Merging only rows is fine: [6, 8] -> [2, 3, 8] -> [6, 8].
  auto rows = tc::reshapeLayout(k, {2, 3, 8});
  ASSERT_TRUE(rows);
  EXPECT_EQ(*rows, layout(8, {2, 3, 8}, {72, 24, 1}));
  auto back = tc::reshapeLayout(*rows, {6, 8});
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, k);
}

/// Every reshape of a few strided layouts (contiguous, transposed, column
/// slices, with extent-1 dimensions) to every shape of rank <= 4 with the
/// same element count: a result must address the same elements in the
/// same order, and none may be returned only when no strided layout does.
TEST(ReshapeLayout, AgreesWithBruteForceOnEveryShape) {
  std::vector<StridedLayout> inputs = {
      StridedLayout::contiguous({12}, 3),
      StridedLayout::contiguous({2, 6}),
      layout(0, {3, 4}, {1, 3}),             // transposed [4, 3]
      layout(8, {6, 8}, {24, 1}),            // column slice
      layout(0, {2, 3, 2}, {6, 1, 3}),       // inner transpose
      layout(1, {2, 1, 6}, {12, 5, 2}),      // every other element
      layout(0, {2, 2, 3}, {24, 4, 8}),      // head-split style
      layout(2, {4, 1, 3, 1}, {3, 7, 1, 9}), // contiguous, odd unit strides
  };
  int views = 0, copies = 0;
  for (const StridedLayout &input : inputs) {
    for (const Ints &shape : shapesWith(input.numElements())) {
      std::optional<StridedLayout> got = tc::reshapeLayout(input, shape);
      std::optional<StridedLayout> want = referenceReshape(input, shape);
      SCOPED_TRACE(::testing::Message()
                   << "input shape " << ::testing::PrintToString(input.shape)
                   << " strides " << ::testing::PrintToString(input.strides)
                   << " -> " << ::testing::PrintToString(shape));
      ASSERT_EQ(got.has_value(), want.has_value());
      if (got) {
        EXPECT_EQ(got->shape, shape);
        EXPECT_EQ(addresses(*got), addresses(input));
        ++views;
      } else {
        ++copies;
      }
    }
  }
  // Both outcomes occur, so the comparison is not vacuous.
  EXPECT_GT(views, 100);
  EXPECT_GT(copies, 50);
}

//===----------------------------------------------------------------------===//
// transposeLayout, inverseTransposeLayout, sliceLayout
//===----------------------------------------------------------------------===//

TEST(TransposeLayout, PermutesShapeAndStrides) {
  StridedLayout input = StridedLayout::contiguous({2, 3, 3, 2, 4}, 6);
  StridedLayout t = tc::transposeLayout(input, {2, 0, 3, 1, 4});
  EXPECT_EQ(t, layout(6, {3, 2, 2, 3, 4}, {8, 72, 4, 24, 1}));
  // The element [i, j, k, l, m] of the result is [j, l, i, k, m] of the input.
  Ints in = addresses(input), out = addresses(t);
  EXPECT_EQ(out[1 * 48 + 1 * 24 + 0 * 12 + 2 * 4 + 3], // [1, 1, 0, 2, 3]
            in[1 * 72 + 2 * 24 + 1 * 8 + 0 * 4 + 3]);  // [1, 2, 1, 0, 3]
}

TEST(TransposeLayout, InverseRoundTrip) {
  std::vector<Ints> permutations = {{0, 1, 2}, {2, 0, 1}, {1, 2, 0}, {0, 2, 1}};
  for (const StridedLayout &input :
       {StridedLayout::contiguous({2, 3, 4}, 5),
        layout(1, {4, 2, 3}, {1, 12, 4}), layout(0, {2, 1, 5}, {40, 3, 8})}) {
    for (const Ints &p : permutations) {
      StridedLayout t = tc::transposeLayout(input, p);
      EXPECT_EQ(tc::inverseTransposeLayout(t, p), input);
      // And the other way round: the inverse's transpose is the result.
      EXPECT_EQ(tc::transposeLayout(tc::inverseTransposeLayout(input, p), p),
                input);
    }
  }
  // The inverse is not the transpose itself when the permutation is not an
  // involution.
  StridedLayout c = StridedLayout::contiguous({2, 3, 4});
  EXPECT_EQ(tc::inverseTransposeLayout(c, {2, 0, 1}),
            layout(0, {3, 4, 2}, {4, 1, 12}));
  EXPECT_EQ(tc::transposeLayout(c, {2, 0, 1}),
            layout(0, {4, 2, 3}, {1, 12, 4}));
}

TEST(SliceLayout, OffsetsAddUpAlongStrides) {
  StridedLayout l = StridedLayout::contiguous({4, 6}, 10);
  EXPECT_EQ(tc::sliceLayout(l, {1, 2}, {2, 3}), layout(18, {2, 3}, {6, 1}));
  EXPECT_EQ(tc::sliceLayout(l, {0, 0}, {4, 6}), l);
  // A slice of a transposed layout: the offsets use its strides.
  StridedLayout t = layout(0, {6, 4}, {1, 6});
  EXPECT_EQ(tc::sliceLayout(t, {2, 1}, {3, 2}), layout(8, {3, 2}, {1, 6}));
  // The V piece of a split along axis 0 of the head-split transpose.
  StridedLayout qkv = layout(0, {3, 2, 2, 3, 4}, {8, 72, 4, 24, 1});
  EXPECT_EQ(tc::sliceLayout(qkv, {2, 0, 0, 0, 0}, {1, 2, 2, 3, 4}),
            layout(16, {1, 2, 2, 3, 4}, {8, 72, 4, 24, 1}));
}

//===----------------------------------------------------------------------===//
// matrixLayout
//===----------------------------------------------------------------------===//

void expectMatrix(const StridedLayout &l, bool transposed, int64_t ld) {
  std::optional<MatrixLayout> m = tc::matrixLayout(l);
  ASSERT_TRUE(m) << "no matrix layout";
  EXPECT_EQ(m->transposed, transposed);
  EXPECT_EQ(m->ld, ld);
}

TEST(MatrixLayout, RowMajor) {
  expectMatrix(StridedLayout::contiguous({3, 4}), false, 4);
  // Batch dimensions do not matter; the rows of a Q slice are 3 d apart.
  expectMatrix(layout(0, {2, 2, 3, 4}, {72, 4, 24, 1}), false, 24);
}

TEST(MatrixLayout, ColumnMajor) {
  // A transposed [4, 3]: the row-major 4 x 3 matrix with ld 3.
  expectMatrix(layout(0, {3, 4}, {1, 3}), true, 3);
  // With a gap between the columns (the head merge written by a GEMM).
  expectMatrix(layout(0, {2, 3, 4}, {24, 1, 8}), true, 8);
}

TEST(MatrixLayout, ExtentOneRowsOrColumns) {
  // One row: unit-strided columns, ld = the row's length whatever the row
  // stride says.
  expectMatrix(layout(0, {1, 5}, {7, 1}), false, 5);
  expectMatrix(layout(0, {1, 5}, {0, 1}), false, 5);
  // One row with strided columns: a column-major matrix (5 x 1, ld 3).
  expectMatrix(layout(0, {1, 5}, {1, 3}), true, 3);
  expectMatrix(layout(0, {1, 5}, {9, 3}), true, 3);
  // One column: row-major with the row stride as ld.
  expectMatrix(layout(0, {5, 1}, {4, 9}), false, 4);
  expectMatrix(layout(0, {5, 1}, {1, 0}), false, 1);
  // One element.
  expectMatrix(layout(3, {1, 1}, {8, 8}), false, 1);
}

TEST(MatrixLayout, NoneWithoutAUnitStridedDimension) {
  EXPECT_EQ(tc::matrixLayout(layout(0, {3, 4}, {8, 2})), std::nullopt);
  EXPECT_EQ(tc::matrixLayout(StridedLayout::contiguous({6})), std::nullopt);
  EXPECT_EQ(tc::matrixLayout(StridedLayout::contiguous({})), std::nullopt);
  // Overlapping rows or columns (ld shorter than a row) are no BLAS matrix.
  EXPECT_EQ(tc::matrixLayout(layout(0, {3, 4}, {2, 1})), std::nullopt);
  EXPECT_EQ(tc::matrixLayout(layout(0, {3, 4}, {1, 2})), std::nullopt);
  EXPECT_EQ(tc::matrixLayout(layout(0, {3, 4}, {0, 1})), std::nullopt);
  EXPECT_EQ(tc::matrixLayout(layout(0, {5, 1}, {0, 1})), std::nullopt);
}

} // namespace
