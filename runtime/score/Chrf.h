//===- Chrf.h - corpus chrF as sacreBLEU computes it ----------------------===//
//
// chrF (Popović, 2015) with sacreBLEU 2.6.0's defaults (metrics/chrf.py,
// CHRF()): character n-grams of orders 1..6, no word n-grams (plain chrF,
// not chrF++), beta 2, case kept, whitespace removed, and sacreBLEU's
// "effective order" averaging instead of chrF++.py's epsilon smoothing
// (eps_smoothing=False, which the signature calls eff:yes):
//
//   - per segment, all whitespace (Python's: Unicode's) is removed from the
//     hypothesis and the reference, and their character n-grams are
//     counted on code points (not bytes: "ñ" is one character);
//   - per order n: hyp_n = the hypothesis' n-grams (counted only when the
//     reference has n-grams of that order at all), ref_n = the reference's,
//     match_n = the n-grams they share, each at most as often as in either;
//     with several references, the one whose segment chrF is highest
//     (the first on a tie) gives the segment's counts;
//   - the corpus sums the counts, then over the orders where both hyp_n and
//     ref_n are non-zero averages precision match_n / hyp_n and recall
//     match_n / ref_n, and
//       chrF = 100 * (1 + beta^2) * P * R / (beta^2 * P + R),
//     0 when no order has counts on both sides or P + R is 0 (an empty
//     hypothesis, no shared character).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_SCORE_CHRF_H
#define TC_RUNTIME_SCORE_CHRF_H

#include "runtime/score/Segment.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tc::rt {

constexpr int kChrfCharOrder = 6; ///< character n-gram orders (nc)
constexpr int kChrfWordOrder = 0; ///< word n-gram orders (nw; 2 is chrF++)
constexpr int kChrfBeta = 2;      ///< recall weighs beta^2 times precision

/// The sufficient statistics of chrF: per character order n = 1..6, the
/// hypothesis, reference and matching n-gram counts. Summed over segments,
/// they give the corpus score.
struct ChrfStatistics {
  struct Order {
    int64_t hypothesis = 0, reference = 0, match = 0;
  };
  std::array<Order, kChrfCharOrder> orders{};

  ChrfStatistics &operator+=(const ChrfStatistics &other);
};

struct ChrfScore {
  double score = 0; ///< in [0, 100]
  ChrfStatistics statistics;
};

/// The statistics of one segment (raw UTF-8 text); with no reference, all
/// counts are 0.
ChrfStatistics chrfStatistics(const std::string &hypothesis,
                              const std::vector<std::string> &references);

/// chrF of (summed) statistics.
double computeChrf(const ChrfStatistics &statistics);

/// Corpus chrF: the segments' statistics summed, then the score.
ChrfScore corpusChrf(const std::vector<Segment> &segments);

} // namespace tc::rt

#endif // TC_RUNTIME_SCORE_CHRF_H
