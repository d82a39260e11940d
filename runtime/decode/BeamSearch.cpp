//===- BeamSearch.cpp - the search policies: beam search and greedy --------===//

#include "runtime/decode/BeamSearch.h"

#include <algorithm>
#include <cmath>

namespace tc::rt {
namespace {

struct Candidate {
  double logProb;
  int32_t row, token;
};

/// Better first: higher log-probability, then lower row, then lower token.
bool better(const Candidate &a, const Candidate &b) {
  if (a.logProb != b.logProb)
    return a.logProb > b.logProb;
  if (a.row != b.row)
    return a.row < b.row;
  return a.token < b.token;
}

} // namespace

SentenceSearch::SentenceSearch(const SearchOptions &options,
                               const Vocabulary &vocab, int64_t maxLength)
    : options_(options), vocab_(vocab), width_(std::max<int64_t>(1, options.beam)),
      maxLength_(std::max<int64_t>(1, maxLength)) {
  live_.push_back({});
  live_.back().parent = 0;
}

double SentenceSearch::penalty(int64_t length) const {
  return std::pow((5.0 + double(length)) / 6.0, options_.alpha);
}

int32_t SentenceSearch::token(int64_t row) const {
  if (row >= int64_t(live_.size()) || live_[row].tokens.empty())
    return vocab_.bos;
  return live_[row].tokens.back();
}

int32_t SentenceSearch::origin(int64_t row) const {
  return row < int64_t(live_.size()) ? live_[row].parent : int32_t(row);
}

void SentenceSearch::finish(const Live &from, double logProb, int64_t length,
                            bool cut) {
  finished_.push_back(
      {from.tokens, logProb, logProb / penalty(length), cut});
}

bool SentenceSearch::proposable(int32_t token) const {
  return token != vocab_.pad && token != vocab_.bos;
}

bool SentenceSearch::wantsEnd(const StepCandidates &step, int64_t row) const {
  const int32_t *tokens = step.tokensOf(row);
  for (int64_t j = 0; j < step.perRow; ++j)
    if (proposable(tokens[j]))
      return tokens[j] == vocab_.eos;
  return true;
}

bool SentenceSearch::advance(const StepCandidates &step, int64_t firstRow) {
  bool last = step_ + 1 >= maxLength_;
  bool done = width_ == 1 ? greedyStep(step, firstRow, last)
                          : beamStep(step, firstRow, last);
  ++step_;
  return done || last;
}

bool SentenceSearch::greedyStep(const StepCandidates &step, int64_t firstRow,
                                bool last) {
  Live &hypothesis = live_.front();
  // The most probable token (the step's first), EOS at the last position.
  int32_t best = step.tokensOf(firstRow)[0];
  float logProb = step.logProbsOf(firstRow)[0];
  bool cut = last && !wantsEnd(step, firstRow);
  if (last || !proposable(best)) {
    best = vocab_.eos;
    logProb = step.eosLogProb[firstRow];
  }
  hypothesis.logProb += logProb;
  hypothesis.parent = 0;
  if (best == vocab_.eos) {
    finish(hypothesis, hypothesis.logProb, step_ + 1, cut);
    return true;
  }
  hypothesis.tokens.push_back(best);
  return false;
}

bool SentenceSearch::beamStep(const StepCandidates &step, int64_t firstRow,
                              bool last) {
  int64_t k = width_, keep = 2 * k;
  // The 2k best continuations of each live hypothesis (its row's first
  // candidates, already in better() order), then of all.
  std::vector<Candidate> all;
  for (int32_t row = 0; row < int32_t(live_.size()); ++row) {
    double base = live_[row].logProb;
    if (last) {
      all.push_back({base + step.eosLogProb[firstRow + row], row, vocab_.eos});
      continue;
    }
    const float *lp = step.logProbsOf(firstRow + row);
    const int32_t *tokens = step.tokensOf(firstRow + row);
    for (int64_t j = 0, taken = 0; j < step.perRow && taken < keep; ++j) {
      if (!proposable(tokens[j]))
        continue; // only where the step holds every token
      all.push_back({base + lp[j], row, tokens[j]});
      ++taken;
    }
  }
  std::sort(all.begin(), all.end(), better);
  if (int64_t(all.size()) > keep)
    all.resize(keep);

  std::vector<Live> next;
  for (size_t rank = 0; rank < all.size(); ++rank) {
    const Candidate &c = all[rank];
    if (c.token == vocab_.eos) {
      if (int64_t(rank) < k || last)
        finish(live_[c.row], c.logProb, step_ + 1,
               last && !wantsEnd(step, firstRow + c.row));
      continue;
    }
    if (int64_t(next.size()) == k)
      continue;
    Live hypothesis{live_[c.row].tokens, c.logProb, c.row};
    hypothesis.tokens.push_back(c.token);
    next.push_back(std::move(hypothesis));
  }
  live_ = std::move(next);
  if (last || live_.empty())
    return true;
  if (options_.stop == StopRule::BeamFinished)
    return int64_t(finished_.size()) >= k;
  // Safe to stop: the n-th best finished score beats every live
  // hypothesis's best reachable score.
  if (int64_t(finished_.size()) < options_.nBest)
    return false;
  std::vector<Hypothesis> best = results();
  double reachable = -INFINITY;
  for (const Live &hypothesis : live_)
    reachable =
        std::max(reachable, hypothesis.logProb / penalty(maxLength_));
  return best[options_.nBest - 1].score > reachable;
}

std::vector<Hypothesis> SentenceSearch::results() const {
  std::vector<Hypothesis> sorted = finished_;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Hypothesis &a, const Hypothesis &b) {
                     return a.score > b.score;
                   });
  if (int64_t(sorted.size()) > options_.nBest)
    sorted.resize(options_.nBest);
  return sorted;
}

} // namespace tc::rt
