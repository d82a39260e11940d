//===- Chrf.cpp - corpus chrF as sacreBLEU computes it --------------------===//

#include "runtime/score/Chrf.h"
#include "runtime/score/Unicode.h"

#include <string_view>
#include <unordered_map>

namespace tc::rt {
namespace {

using CharNgramCounts =
    std::array<std::unordered_map<std::u32string_view, int64_t>,
               kChrfCharOrder>;

/// helpers.extract_all_char_ngrams with include_whitespace=False: the
/// segment's code points without whitespace, whose n-grams `count` views.
std::u32string withoutWhitespace(const std::string &segment) {
  std::u32string code = decodeUtf8(segment);
  std::u32string joined;
  joined.reserve(code.size());
  for (std::u32string_view word : splitAtWhitespace(code))
    joined.append(word);
  return joined;
}

CharNgramCounts count(std::u32string_view characters) {
  CharNgramCounts counts;
  for (size_t n = 1; n <= kChrfCharOrder; ++n)
    for (size_t i = 0; i + n <= characters.size(); ++i)
      ++counts[n - 1][characters.substr(i, n)];
  return counts;
}

/// CHRF._get_match_statistics for every order.
ChrfStatistics match(const CharNgramCounts &hypothesis,
                     const CharNgramCounts &reference) {
  ChrfStatistics statistics;
  for (int n = 0; n < kChrfCharOrder; ++n) {
    ChrfStatistics::Order &order = statistics.orders[n];
    int64_t hypothesisCount = 0;
    for (const auto &[ngram, count] : hypothesis[n]) {
      hypothesisCount += count;
      auto found = reference[n].find(ngram);
      if (found != reference[n].end())
        order.match += std::min(count, found->second);
    }
    // Hypothesis n-grams count only where the reference has n-grams of
    // that order ("don't count hits if no reference exists").
    order.hypothesis = reference[n].empty() ? 0 : hypothesisCount;
    for (const auto &[ngram, count] : reference[n])
      order.reference += count;
  }
  return statistics;
}

} // namespace

ChrfStatistics &ChrfStatistics::operator+=(const ChrfStatistics &other) {
  for (int n = 0; n < kChrfCharOrder; ++n) {
    orders[n].hypothesis += other.orders[n].hypothesis;
    orders[n].reference += other.orders[n].reference;
    orders[n].match += other.orders[n].match;
  }
  return *this;
}

double computeChrf(const ChrfStatistics &statistics) {
  // CHRF._compute_f_score with eps_smoothing=False: precision and recall
  // averaged over the orders with counts on both sides.
  constexpr double factor = kChrfBeta * kChrfBeta;
  double averagePrecision = 0.0, averageRecall = 0.0;
  int effectiveOrder = 0;
  for (const ChrfStatistics::Order &order : statistics.orders) {
    if (order.hypothesis > 0 && order.reference > 0) {
      averagePrecision += double(order.match) / double(order.hypothesis);
      averageRecall += double(order.match) / double(order.reference);
      ++effectiveOrder;
    }
  }
  if (effectiveOrder == 0)
    return 0.0;
  averagePrecision /= effectiveOrder;
  averageRecall /= effectiveOrder;
  if (averagePrecision + averageRecall == 0.0)
    return 0.0;
  double score = (1 + factor) * averagePrecision * averageRecall;
  score /= factor * averagePrecision + averageRecall;
  return 100 * score;
}

ChrfStatistics chrfStatistics(const std::string &hypothesis,
                              const std::vector<std::string> &references) {
  std::u32string hypothesisCharacters = withoutWhitespace(hypothesis);
  CharNgramCounts hypothesisCounts = count(hypothesisCharacters);
  // The reference with the highest segment chrF; the first on a tie
  // (sacreBLEU starts from -1, so the first reference always counts).
  ChrfStatistics best;
  double bestScore = -1.0;
  for (const std::string &reference : references) {
    std::u32string referenceCharacters = withoutWhitespace(reference);
    ChrfStatistics statistics =
        match(hypothesisCounts, count(referenceCharacters));
    double score = computeChrf(statistics);
    if (score > bestScore) {
      bestScore = score;
      best = statistics;
    }
  }
  return best;
}

ChrfScore corpusChrf(const std::vector<Segment> &segments) {
  ChrfScore score;
  for (const Segment &segment : segments)
    score.statistics += chrfStatistics(segment.hypothesis, segment.references);
  score.score = computeChrf(score.statistics);
  return score;
}

} // namespace tc::rt
