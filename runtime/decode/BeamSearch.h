//===- BeamSearch.h - the search policies: beam search and greedy ----------===//
//
// One sentence's search over the rows a DecoderSession gives it, step by
// step: which token each row feeds next and which row's cached prefix it
// continues, and when the sentence is done. docs/tc-run.md states the
// rules (the same as the reference test/Runtime/Inputs/reference_beam.py):
//
//  * beam search of width k: the live hypotheses' 2k best continuations;
//    an EOS among the first k finishes a hypothesis, scored
//    logP / ((5 + n) / 6)^alpha with n its tokens including EOS (GNMT's
//    length penalty); the first k others live on; only EOS at the last
//    position; padding and BOS never. A sentence stops once its n-th best
//    finished score beats every live hypothesis's best reachable score,
//    logP / lp(max length), which is safe: no continuation scores higher
//    (StopRule::BestProven, the default); or, as CTranslate2 (patience 1),
//    fairseq and Hugging Face's early_stopping=True stop, once k
//    hypotheses have finished (StopRule::BeamFinished: fewer steps, and
//    a better hypothesis may be left unfinished);
//  * greedy (k = 1): the most probable token until EOS.
//
// Ties go to the lower row, then the lower token id, so a sentence's
// search depends on its own log-probabilities only. The step hands it each
// row's most probable tokens only (StepCandidates.h), which hold the 2k
// best a row can contribute.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DECODE_BEAMSEARCH_H
#define TC_RUNTIME_DECODE_BEAMSEARCH_H

#include "runtime/data/Buckets.h"
#include "runtime/decode/StepCandidates.h"

#include <cstdint>
#include <vector>

namespace tc::rt {

/// When a beam search stops (the rules above).
enum class StopRule {
  BestProven,   ///< the n-th best finished beats every live hypothesis
  BeamFinished, ///< k hypotheses have finished
};

struct SearchOptions {
  int64_t beam = 4;            ///< 1: greedy
  StopRule stop = StopRule::BestProven;
  double alpha = 0.6;          ///< the length penalty's exponent
  int64_t nBest = 1;           ///< hypotheses returned, at most `beam`
  int64_t maxLengthOffset = 50; ///< target tokens beyond the source's
  /// Sentences decoded at a time (Translator.h); 0: as many as a step's
  /// rows hold. 1 is interactive use: one sentence after the other.
  int64_t batchSentences = 0;
};

struct Hypothesis {
  std::vector<int32_t> tokens; ///< without BOS and EOS
  double logProb = 0;          ///< including EOS
  double score = 0;            ///< logProb / the length penalty
  bool cut = false;            ///< ended by the length limit
};

class SentenceSearch {
public:
  /// A search of at most `maxLength` target tokens (including EOS).
  SentenceSearch(const SearchOptions &options, const Vocabulary &vocab,
                 int64_t maxLength);

  /// The rows it uses (the beam width).
  int64_t width() const { return width_; }
  /// The position its rows decode next (0: after BOS).
  int64_t position() const { return step_; }
  /// The next step's input of its row `row` (< width()): the token fed and
  /// the row (of its own) whose cached prefix it continues.
  int32_t token(int64_t row) const;
  int32_t origin(int64_t row) const;
  /// Takes the step's candidates of its rows (width() of them from
  /// `firstRow` on); true when the sentence is done. The step's candidates
  /// per row must be at least 2 x width() (1 for greedy), or every token.
  bool advance(const StepCandidates &step, int64_t firstRow);
  /// The finished hypotheses, best first, at most nBest.
  std::vector<Hypothesis> results() const;

private:
  struct Live {
    std::vector<int32_t> tokens;
    double logProb = 0;
    int32_t parent = 0; ///< the row it continues
  };
  double penalty(int64_t length) const;
  bool beamStep(const StepCandidates &step, int64_t firstRow, bool last);
  bool greedyStep(const StepCandidates &step, int64_t firstRow, bool last);
  void finish(const Live &from, double logProb, int64_t length, bool cut);
  /// Whether `token` may continue a hypothesis (padding and BOS never do).
  bool proposable(int32_t token) const;
  /// Whether row `row`'s most probable token (padding and BOS aside) is
  /// EOS: a hypothesis ended at the length limit is cut where it is not.
  bool wantsEnd(const StepCandidates &step, int64_t row) const;

  SearchOptions options_;
  Vocabulary vocab_;
  int64_t width_, maxLength_, step_ = 0;
  std::vector<Live> live_;
  std::vector<Hypothesis> finished_; ///< in the order they finished
};

} // namespace tc::rt

#endif // TC_RUNTIME_DECODE_BEAMSEARCH_H
