//===- Bleu.h - corpus BLEU as sacreBLEU computes it ----------------------===//
//
// BLEU (Papineni et al., 2002) with sacreBLEU 2.6.0's defaults for a corpus
// (metrics/bleu.py, BLEU(), corpus_score()):
//
//   - each hypothesis and reference is stripped of trailing whitespace and
//     tokenised with 13a (Tokenize13a.h); words are split at whitespace;
//   - per segment, the hypothesis' n-grams (n = 1..4) are counted, and each
//     is matched at most as often as it occurs in a reference (with several
//     references, the most it occurs in any one); the reference length is
//     that of the reference closest in length to the hypothesis (the
//     shorter one on a tie);
//   - the corpus sums these counts and lengths, then
//       precision_n = 100 * correct_n / total_n,
//       a precision_n with no match is smoothed with 'exp' (mteval's NIST
//       smoothing): the k-th such order gets 100 / (2^k * total_n),
//       BP = 1 when hyp_len >= ref_len, else exp(1 - ref_len / hyp_len)
//       (0 for an empty hypothesis), and
//       BLEU = BP * exp(sum of log precision_n over n = 1..4 / 4);
//   - no effective order: the mean is always over 4 orders (eff:no), so an
//     order with no n-gram at all (a corpus of one- to three-word
//     hypotheses) makes BLEU 0, as does a corpus with no matching unigram.
//
// The arithmetic follows sacreBLEU's operation by operation, so scores
// agree to the last bits, not just to the printed digits.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_SCORE_BLEU_H
#define TC_RUNTIME_SCORE_BLEU_H

#include "runtime/score/Segment.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tc::rt {

/// BLEU's largest n-gram order.
constexpr int kBleuMaxOrder = 4;

/// The sufficient statistics of BLEU: summed over segments, they give the
/// corpus score.
struct BleuStatistics {
  int64_t hypothesisLength = 0; ///< hypothesis words
  int64_t referenceLength = 0;  ///< words of the closest references
  std::array<int64_t, kBleuMaxOrder> correct{}; ///< matched n-grams
  std::array<int64_t, kBleuMaxOrder> total{};   ///< hypothesis n-grams

  BleuStatistics &operator+=(const BleuStatistics &other);
};

/// A BLEU score and what it was made of, as sacreBLEU's BLEUScore holds it.
struct BleuScore {
  double score = 0;                               ///< in [0, 100]
  std::array<double, kBleuMaxOrder> precisions{}; ///< in [0, 100], smoothed
  double brevityPenalty = 0;
  double ratio = 0; ///< hyp_len / ref_len (0 when ref_len is 0)
  BleuStatistics statistics;
};

/// The statistics of one segment. `hypothesis` and `references` are raw
/// UTF-8 text (they are stripped and tokenised here); with no reference,
/// nothing matches and the reference length is 0.
BleuStatistics bleuStatistics(const std::string &hypothesis,
                              const std::vector<std::string> &references);

/// BLEU of (summed) statistics.
BleuScore computeBleu(const BleuStatistics &statistics);

/// Corpus BLEU: the segments' statistics summed, then the score.
BleuScore corpusBleu(const std::vector<Segment> &segments);

/// What sacreBLEU prints after the score:
/// "56.1/30.2/18.0/11.3 (BP = 0.981 ratio = 0.981 hyp_len = 1234
/// ref_len = 1258)".
std::string bleuDetails(const BleuScore &score);

} // namespace tc::rt

#endif // TC_RUNTIME_SCORE_BLEU_H
