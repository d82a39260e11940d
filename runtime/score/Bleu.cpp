//===- Bleu.cpp - corpus BLEU as sacreBLEU computes it --------------------===//

#include "runtime/score/Bleu.h"
#include "runtime/score/Tokenize13a.h"
#include "runtime/score/Unicode.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <unordered_map>

namespace tc::rt {
namespace {

/// N-gram counts of each order; an n-gram is the span of a tokenised
/// segment from its first word to its last (words are one space apart).
using NgramCounts =
    std::array<std::unordered_map<std::u32string_view, int64_t>, kBleuMaxOrder>;

/// The words of `tokens` (a 13a tokenisation) and their n-grams, counted.
int64_t countNgrams(std::u32string_view tokens, NgramCounts &counts) {
  std::vector<std::u32string_view> words = splitAtWhitespace(tokens);
  for (size_t n = 1; n <= kBleuMaxOrder; ++n) {
    for (size_t i = 0; i + n <= words.size(); ++i) {
      const char32_t *begin = words[i].data();
      const char32_t *end = words[i + n - 1].data() + words[i + n - 1].size();
      ++counts[n - 1][std::u32string_view(begin, size_t(end - begin))];
    }
  }
  return int64_t(words.size());
}

/// BLEU._preprocess_segment: rstrip, then 13a.
std::u32string preprocess(const std::string &segment) {
  std::u32string code = decodeUtf8(segment);
  return tokenize13a(stripTrailingWhitespace(code));
}

/// BLEU._get_closest_ref_len: the reference length closest to the
/// hypothesis length, the shorter on a tie.
int64_t closestLength(int64_t hypothesisLength,
                      const std::vector<int64_t> &lengths) {
  int64_t closestDiff = -1, closest = 0;
  for (int64_t length : lengths) {
    int64_t diff = std::llabs(hypothesisLength - length);
    if (closestDiff == -1 || diff < closestDiff) {
      closestDiff = diff;
      closest = length;
    } else if (diff == closestDiff && length < closest) {
      closest = length;
    }
  }
  return closest;
}

/// utils.my_log: log, floored at -9999999999 for 0.
double flooredLog(double x) { return x == 0.0 ? -9999999999.0 : std::log(x); }

} // namespace

BleuStatistics &BleuStatistics::operator+=(const BleuStatistics &other) {
  hypothesisLength += other.hypothesisLength;
  referenceLength += other.referenceLength;
  for (int n = 0; n < kBleuMaxOrder; ++n) {
    correct[n] += other.correct[n];
    total[n] += other.total[n];
  }
  return *this;
}

BleuStatistics bleuStatistics(const std::string &hypothesis,
                              const std::vector<std::string> &references) {
  // The tokenised references outlive the n-gram views into them.
  std::vector<std::u32string> referenceTokens;
  referenceTokens.reserve(references.size());
  NgramCounts referenceCounts;
  std::vector<int64_t> referenceLengths;
  for (const std::string &reference : references) {
    referenceTokens.push_back(preprocess(reference));
    NgramCounts counts;
    referenceLengths.push_back(countNgrams(referenceTokens.back(), counts));
    // With several references, an n-gram may match as often as it occurs
    // in any one of them.
    for (int n = 0; n < kBleuMaxOrder; ++n)
      for (const auto &[ngram, count] : counts[n]) {
        int64_t &merged = referenceCounts[n][ngram];
        merged = std::max(merged, count);
      }
  }

  std::u32string hypothesisTokens = preprocess(hypothesis);
  NgramCounts hypothesisCounts;
  BleuStatistics statistics;
  statistics.hypothesisLength = countNgrams(hypothesisTokens, hypothesisCounts);
  statistics.referenceLength =
      closestLength(statistics.hypothesisLength, referenceLengths);
  for (int n = 0; n < kBleuMaxOrder; ++n) {
    for (const auto &[ngram, count] : hypothesisCounts[n]) {
      statistics.total[n] += count;
      auto found = referenceCounts[n].find(ngram);
      if (found != referenceCounts[n].end())
        statistics.correct[n] += std::min(count, found->second);
    }
  }
  return statistics;
}

BleuScore computeBleu(const BleuStatistics &statistics) {
  // BLEU.compute_bleu with smooth_method='exp', effective_order=False.
  BleuScore score;
  score.statistics = statistics;
  int64_t hypLen = statistics.hypothesisLength;
  int64_t refLen = statistics.referenceLength;
  score.ratio = refLen ? double(hypLen) / double(refLen) : 0.0;
  score.brevityPenalty = 1.0;
  if (hypLen < refLen)
    score.brevityPenalty =
        hypLen > 0 ? std::exp(1.0 - double(refLen) / double(hypLen)) : 0.0;

  bool anyCorrect = false;
  for (int64_t c : statistics.correct)
    anyCorrect |= c != 0;
  if (!anyCorrect)
    return score; // no matches: 0, precisions all 0 (sacreBLEU #141)

  double smoothing = 1.0;
  for (int n = 0; n < kBleuMaxOrder; ++n) {
    if (statistics.total[n] == 0)
      break; // this order and the higher ones stay 0
    if (statistics.correct[n] == 0) {
      smoothing *= 2;
      score.precisions[n] = 100.0 / (smoothing * double(statistics.total[n]));
    } else {
      score.precisions[n] =
          100.0 * double(statistics.correct[n]) / double(statistics.total[n]);
    }
  }
  double sum = 0.0;
  for (double precision : score.precisions)
    sum += flooredLog(precision);
  score.score = score.brevityPenalty * std::exp(sum / kBleuMaxOrder);
  return score;
}

BleuScore corpusBleu(const std::vector<Segment> &segments) {
  BleuStatistics total;
  for (const Segment &segment : segments)
    total += bleuStatistics(segment.hypothesis, segment.references);
  return computeBleu(total);
}

std::string bleuDetails(const BleuScore &score) {
  std::string details;
  char buffer[160];
  for (int n = 0; n < kBleuMaxOrder; ++n) {
    std::snprintf(buffer, sizeof buffer, n ? "/%.1f" : "%.1f",
                  score.precisions[n]);
    details += buffer;
  }
  std::snprintf(buffer, sizeof buffer,
                " (BP = %.3f ratio = %.3f hyp_len = %lld ref_len = %lld)",
                score.brevityPenalty, score.ratio,
                (long long)score.statistics.hypothesisLength,
                (long long)score.statistics.referenceLength);
  return details + buffer;
}

} // namespace tc::rt
