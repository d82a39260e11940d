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

/// Whether the one finished hypothesis of a search of `beam` with room for
/// one position counts as cut by the length limit, when every row's most
/// probable token is `first` (EOS or not).
bool cutAtTheLimit(int beam, int32_t first) {
  SearchOptions options;
  options.beam = beam;
  Vocabulary vocab{.size = 10, .pad = 0, .bos = 1, .eos = 2};
  SentenceSearch search(options, vocab, /*maxLength=*/1);
  StepCandidates step;
  step.perRow = 2;
  for (int row = 0; row < search.width(); ++row) {
    step.tokens.insert(step.tokens.end(), {first, first == 2 ? 3 : 2});
    step.logProbs.insert(step.logProbs.end(), {-0.5f, -1.0f});
    step.eosLogProb.push_back(first == 2 ? -0.5f : -1.0f);
  }
  EXPECT_TRUE(search.advance(step, 0));
  std::vector<Hypothesis> best = search.results();
  EXPECT_EQ(best.size(), 1u);
  return !best.empty() && best[0].cut;
}

// The review of 2026-11-28: every hypothesis ended at the last position
// counted as cut, also where EOS was the model's own choice there, so
// "N translations reached their length limit" counted too many.
TEST(BeamStop, OnlyAHypothesisWhoseModelWantedMoreIsCut) {
  for (int beam : {1, 2}) {
    EXPECT_FALSE(cutAtTheLimit(beam, /*EOS*/ 2)) << "beam " << beam;
    EXPECT_TRUE(cutAtTheLimit(beam, 3)) << "beam " << beam;
  }
}

} // namespace
