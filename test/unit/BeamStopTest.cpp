//===- BeamStopTest.cpp - when a sentence's beam search stops -------------===//
//
// runtime/decode/BeamSearch.h's two stop rules on hand-made step
// candidates (beam 2, alpha 0: a score is its log-probability), where
// they stop at different steps. Every row proposes, best first: token 3
// (-0.5), EOS (-1.0), token 4 (-1.2), token 5 (-3.0).
//
// - step 0 (BOS only): [] + EOS finishes at -1.0 (rank 1 < 2); live [3]
//   at -0.5 and [4] at -1.2;
// - step 1: [3] + EOS finishes at -1.5 (rank 1): two finished, so
//   beam-finished stops here; best-proven does not: live [3 3] at -1.0
//   could still reach the best finished score (-1.0 is not above -1.0);
// - step 2: every live hypothesis is now at most -1.5: best-proven stops.
//
// Both return [] at -1.0 as the best.
//
//===----------------------------------------------------------------------===//

#include "runtime/decode/BeamSearch.h"

#include <gtest/gtest.h>

namespace {

using namespace tc::rt;

/// Advances `search` until it is done (at most 20 steps); the steps taken.
int stepsUntilDone(SentenceSearch &search) {
  StepCandidates step;
  step.perRow = 4;
  for (int row = 0; row < search.width(); ++row) {
    step.tokens.insert(step.tokens.end(), {3, 2, 4, 5});
    step.logProbs.insert(step.logProbs.end(), {-0.5f, -1.0f, -1.2f, -3.0f});
    step.eosLogProb.push_back(-1.0f);
  }
  for (int steps = 1; steps <= 20; ++steps)
    if (search.advance(step, 0))
      return steps;
  return -1;
}

SentenceSearch searchWith(StopRule stop) {
  SearchOptions options;
  options.beam = 2;
  options.alpha = 0;
  options.stop = stop;
  Vocabulary vocab{.size = 10, .pad = 0, .bos = 1, .eos = 2};
  return SentenceSearch(options, vocab, /*maxLength=*/20);
}

/// A search under `stop` ends after `steps` steps with [] at -1.0 the best.
void expectStopsAfter(StopRule stop, int steps) {
  SentenceSearch search = searchWith(stop);
  EXPECT_EQ(stepsUntilDone(search), steps);
  std::vector<Hypothesis> best = search.results();
  ASSERT_EQ(best.size(), 1u);
  EXPECT_TRUE(best[0].tokens.empty());
  EXPECT_DOUBLE_EQ(best[0].score, -1.0);
}

TEST(BeamStop, BeamFinishedStopsOnceBeamHypothesesHaveFinished) {
  expectStopsAfter(StopRule::BeamFinished, 2);
}

TEST(BeamStop, BestProvenStopsOnceNoLiveHypothesisCanBeatTheBest) {
  expectStopsAfter(StopRule::BestProven, 3);
}

} // namespace
