//===- DecoderShapes.cpp - the compiled shape a source is decoded in ------===//

#include "runtime/decode/DecoderShapes.h"
#include "runtime/format/TcxBucket.h"

#include <algorithm>

namespace tc::rt {

std::vector<BucketShape> decodeStepShapes(const tcx::Executable &executable) {
  std::vector<BucketShape> shapes;
  for (const tcx::Function *f : *executable.functions())
    if (f->role() == tcx::FunctionRole::DecodeStep && f->bucket())
      shapes.push_back(tcx::shapeOf(*f->bucket()));
  return shapes;
}

namespace {

bool sameLengths(const BucketShape &a, const BucketShape &b) {
  return a.sourceLength == b.sourceLength && a.targetLength == b.targetLength;
}

} // namespace

std::vector<BucketShape> decoderShapes(const tcx::Executable &executable) {
  std::vector<BucketShape> shapes;
  for (const BucketShape &step : decodeStepShapes(executable)) {
    auto same = std::find_if(
        shapes.begin(), shapes.end(),
        [&](const BucketShape &s) { return sameLengths(s, step); });
    if (same == shapes.end())
      shapes.push_back(step);
    else if (step.batch > same->batch)
      *same = step;
  }
  std::sort(shapes.begin(), shapes.end(),
            [](const BucketShape &a, const BucketShape &b) {
              return a.sourceLength < b.sourceLength;
            });
  return shapes;
}

BucketShape fewestRows(const std::vector<BucketShape> &steps,
                       const BucketShape &shape, int64_t rows) {
  BucketShape chosen = shape;
  for (const BucketShape &step : steps)
    if (sameLengths(step, shape) && step.batch >= rows &&
        step.batch < chosen.batch)
      chosen = step;
  return chosen;
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

size_t decoderShapeCutting(const std::vector<BucketShape> &shapes,
                           std::vector<int32_t> &source, int32_t eos,
                           int64_t targetPositions, bool &cut) {
  std::optional<size_t> chosen =
      decoderShapeFor(shapes, int64_t(source.size()), targetPositions);
  cut = !chosen;
  if (chosen)
    return *chosen;
  size_t longest = 0;
  for (size_t s = 1; s < shapes.size(); ++s)
    if (shapes[s].sourceLength > shapes[longest].sourceLength ||
        (shapes[s].sourceLength == shapes[longest].sourceLength &&
         shapes[s].targetLength > shapes[longest].targetLength))
      longest = s;
  source.resize(size_t(shapes[longest].sourceLength));
  source.back() = eos;
  return longest;
}

} // namespace tc::rt
