//===- Segment.h - one hypothesis and its references ----------------------===//
//
// What BLEU and chrF score: a corpus is a list of segments (sentences,
// usually one per line of a file), each a hypothesis (a system's
// translation) and one or more references (human translations), all UTF-8.
// Corpus scores sum the segments' statistics, then compute the score once.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_SCORE_SEGMENT_H
#define TC_RUNTIME_SCORE_SEGMENT_H

#include <string>
#include <vector>

namespace tc::rt {

struct Segment {
  std::string hypothesis;
  std::vector<std::string> references;
};

} // namespace tc::rt

#endif // TC_RUNTIME_SCORE_SEGMENT_H
