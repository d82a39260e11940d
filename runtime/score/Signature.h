//===- Signature.h - sacreBLEU-style signatures of tc's scores ------------===//
//
// A sacreBLEU signature says how a score was computed, so that two scores
// can be compared only when their signatures agree:
//
//   BLEU:  nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0+tc
//   chrF2: nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0+tc
//
// Every field but the version is sacreBLEU 2.6.0's, in its order, with the
// values sacreBLEU prints for the same settings. The version is the
// sacreBLEU release whose algorithm tc reproduces (and is tested against:
// test/Runtime/score-sacrebleu.test), with "+tc" after it: the score was
// computed by tc, not by sacreBLEU itself. Without "+tc" the signature
// would claim a sacreBLEU run that never happened.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_SCORE_SIGNATURE_H
#define TC_RUNTIME_SCORE_SIGNATURE_H

#include "runtime/score/Segment.h"

#include <string>
#include <utility>
#include <vector>

namespace tc::rt {

/// The sacreBLEU release whose BLEU and chrF tc reproduces.
constexpr const char *kSacreBleuVersion = "2.6.0";

/// The signatures' version field: "2.6.0+tc".
std::string scoreVersion();

/// The nrefs field: the references per segment, or "var" when segments
/// have different numbers of them.
std::string referenceCount(const std::vector<Segment> &segments);

/// A signature's fields in order, as (key, value) pairs.
using SignatureFields = std::vector<std::pair<std::string, std::string>>;

SignatureFields bleuSignatureFields(const std::string &nrefs);
SignatureFields chrfSignatureFields(const std::string &nrefs);

/// "key:value|key:value|...".
std::string formatSignature(const SignatureFields &fields);

/// The metric names sacreBLEU prints: "BLEU" and "chrF2" (chrF, beta 2).
std::string bleuName();
std::string chrfName();

/// sacreBLEU's text line of a score, 2 decimals:
/// "NAME|SIGNATURE = SCORE" and " DETAILS" when there are details.
std::string formatScoreLine(const std::string &name,
                            const std::string &signature, double score,
                            const std::string &details = "");

} // namespace tc::rt

#endif // TC_RUNTIME_SCORE_SIGNATURE_H
