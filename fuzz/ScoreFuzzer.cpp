//===- ScoreFuzzer.cpp - hypothesis and reference text (tc-run score) -----===//
//
// The input's first line is the reference, the rest the hypothesis, each
// split into segments as a scored file is (invalid UTF-8 refused), then
// BLEU's 13a tokeniser and chrF's character n-grams run over them.
//
//===----------------------------------------------------------------------===//

#include "FuzzTarget.h"

#include "runtime/score/ScoreFiles.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  size_t split = text.find('\n');
  if (split == std::string_view::npos)
    return 0;
  std::string error;
  auto references = tc::rt::splitSegments(text.substr(0, split), "ref", error);
  auto hypotheses = tc::rt::splitSegments(text.substr(split + 1), "hyp", error);
  if (!references || !hypotheses || references->empty())
    return 0;
  std::vector<tc::rt::Segment> segments;
  for (size_t i = 0; i < hypotheses->size(); ++i)
    segments.push_back(
        {(*hypotheses)[i], {(*references)[i % references->size()]}});
  tc::rt::scoreSegments(segments);
  return 0;
}
