//===- DecoderShapes.h - the compiled shape a source is decoded in --------===//
//
// Translation runs in compiled shapes (rows x source length x target
// length): the incremental decoder in its decode_step functions' shapes,
// one per source length, each also compiled with the rows of one sentence
// (tc-compile: [decoding] beam rows) for when one sentence is decoded at a
// time; greedy decoding by recompute (--recompute-prefix) in the training
// buckets. A source is decoded in the first shape, in the
// order given, that holds it and the target positions its translation may
// take; failing the target, in the one of the shapes that hold the source
// with the most target positions (the translation stops there).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DECODE_DECODERSHAPES_H
#define TC_RUNTIME_DECODE_DECODERSHAPES_H

#include "runtime/data/Buckets.h"

#include <optional>
#include <vector>

namespace tc::rt {

/// Every decode_step function's shape, in the executable's order.
std::vector<BucketShape> decodeStepShapes(const tcx::Executable &executable);

/// The incremental decoder's shapes, by source length: of the decode_step
/// shapes of one source and target length, the one with the most rows.
std::vector<BucketShape> decoderShapes(const tcx::Executable &executable);

/// Of `steps` (decodeStepShapes) with `shape`'s source and target lengths,
/// the one with the fewest rows that are at least `rows` (`shape` itself
/// when none has fewer).
BucketShape fewestRows(const std::vector<BucketShape> &steps,
                       const BucketShape &shape, int64_t rows);

/// The index of the shape of `shapes` that decodes a source of
/// `sourceLength` tokens (with EOS) whose translation may take
/// `targetPositions` positions (0: any), as above; none when no shape holds
/// the source.
std::optional<size_t> decoderShapeFor(const std::vector<BucketShape> &shapes,
                                      int64_t sourceLength,
                                      int64_t targetPositions = 0);

/// As decoderShapeFor for `source`; where no shape holds it, the shape with
/// the longest source, and `source` cut to that length (still ending with
/// `eos`), with `cut` set. Both decoders (the incremental one and
/// --recompute-prefix's) cut so, and say how many they cut.
size_t decoderShapeCutting(const std::vector<BucketShape> &shapes,
                           std::vector<int32_t> &source, int32_t eos,
                           int64_t targetPositions, bool &cut);

} // namespace tc::rt

#endif // TC_RUNTIME_DECODE_DECODERSHAPES_H
