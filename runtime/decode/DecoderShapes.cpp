//===- DecoderShapes.cpp - the compiled shape a source is decoded in ------===//

#include "runtime/decode/DecoderShapes.h"
#include "runtime/format/TcxBucket.h"

#include <algorithm>

namespace tc::rt {

std::vector<BucketShape> decoderShapes(const tcx::Executable &executable) {
  std::vector<BucketShape> shapes;
  for (const tcx::Function *f : *executable.functions())
    if (f->role() == tcx::FunctionRole::DecodeStep && f->bucket())
      shapes.push_back(tcx::shapeOf(*f->bucket()));
  std::sort(shapes.begin(), shapes.end(),
            [](const BucketShape &a, const BucketShape &b) {
              return a.sourceLength < b.sourceLength;
            });
  return shapes;
}

std::optional<size_t> decoderShapeFor(const std::vector<BucketShape> &shapes,
                                      int64_t sourceLength,
                                      int64_t targetPositions) {
  std::optional<size_t> longest; // of those that hold the source
  for (size_t s = 0; s < shapes.size(); ++s) {
    if (!contract::holds(shapes[s], {sourceLength, 0}))
      continue;
    if (contract::holds(shapes[s], {sourceLength, targetPositions}))
      return s;
    if (!longest || shapes[s].targetLength > shapes[*longest].targetLength)
      longest = s;
  }
  return longest;
}

} // namespace tc::rt
