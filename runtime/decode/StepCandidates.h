//===- StepCandidates.h - what a decoder step returns to the search ---------===//
//
// The compiled decode_step does not return the whole next-token
// distribution: per row, its K most probable continuations (padding and
// BOS excluded; best first, the lower token id first among equals) and
// EOS's log-probability, which the last position needs (only EOS may end
// there). K is 2 x the executable's [decoding] beam, or the vocabulary's
// size where that is smaller (then every token is there).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DECODE_STEPCANDIDATES_H
#define TC_RUNTIME_DECODE_STEPCANDIDATES_H

#include <cstdint>
#include <vector>

namespace tc::rt {

struct StepCandidates {
  int64_t perRow = 0;            ///< K
  std::vector<float> logProbs;   ///< rows x K, each row best first
  std::vector<int32_t> tokens;   ///< rows x K
  std::vector<float> eosLogProb; ///< one per row

  /// Row `row`'s candidates.
  const float *logProbsOf(int64_t row) const {
    return logProbs.data() + row * perRow;
  }
  const int32_t *tokensOf(int64_t row) const {
    return tokens.data() + row * perRow;
  }
};

} // namespace tc::rt

#endif // TC_RUNTIME_DECODE_STEPCANDIDATES_H
