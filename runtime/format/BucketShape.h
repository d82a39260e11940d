//===- BucketShape.h - shape buckets and how sentence pairs go into them ---===//
//
// An executable is compiled for static shapes, its buckets (batch x source
// length x target length); a batch runs padded in the smallest bucket it
// fits, as XLA's on TPUs do. The rules of that, which tc-compile
// (--buckets-from's padding estimate) and tc-run (training batches,
// validation, greedy decoding by recompute) must apply alike, each spelled
// here once:
//
//   - a pair of S source tokens (its EOS included) and T target tokens takes
//     S source positions and T + 1 target positions: the decoder reads BOS
//     and the target, and predicts the target and EOS;
//   - a bucket holds a pair when both of its lengths are at least the pair's;
//   - buckets are tried smallest first: by source x target length, buckets of
//     equal area in the order they were given;
//   - a batch goes to the first bucket, in that order, that holds each of
//     its pairs and has as many rows as it has pairs.
//
// Plain C++: no MLIR, no flatbuffers (runtime/format/TcxBucket.h reads a
// .tcx bucket as a BucketShape).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_FORMAT_BUCKETSHAPE_H
#define TC_RUNTIME_FORMAT_BUCKETSHAPE_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace tc::contract {

/// A shape bucket: batch x source length x target length (an encoder's
/// has target length 0: it serves every target length).
struct BucketShape {
  int64_t batch = 0, sourceLength = 0, targetLength = 0;
  bool operator==(const BucketShape &) const = default;
};

/// The positions a sentence pair takes in a bucket (or the most that any
/// pair of a batch takes).
struct PairLengths {
  int64_t source = 0, target = 0;
};

/// The positions of a pair of `sourceTokens` source tokens (with EOS) and
/// `targetTokens` target tokens (without BOS or EOS).
PairLengths paddedLengths(int64_t sourceTokens, int64_t targetTokens);

/// The most symbols a pair of a synthetic task (copy, reverse) may have to
/// fit `bucket`: its source is the symbols and EOS, its target the symbols
/// (which take one position more: paddedLengths). tc-run train draws them
/// for the smallest bucket (sortBySize's first); tc-compile refuses a
/// synthetic description whose smallest bucket has room for none.
int64_t maxSyntheticSymbols(const BucketShape &bucket);

/// Whether `shape` holds a pair of `lengths`, and `rows` pairs of them.
bool holds(const BucketShape &shape, const PairLengths &lengths,
           int64_t rows = 1);

/// Sorts `buckets` into the order they are tried in: smallest source x
/// target length first, buckets of equal area in their given order.
void sortBySize(std::vector<BucketShape> &buckets);

/// The index of the first bucket of `sorted` (in sortBySize's order) that
/// holds `rows` pairs of `lengths`, or none.
std::optional<size_t> smallestHolding(const std::vector<BucketShape> &sorted,
                                      const PairLengths &lengths,
                                      int64_t rows = 1);

} // namespace tc::contract

#endif // TC_RUNTIME_FORMAT_BUCKETSHAPE_H
