//===- Signature.cpp - sacreBLEU-style signatures of tc's scores ----------===//

#include "runtime/score/Signature.h"
#include "runtime/score/Chrf.h"

#include <cstdio>

namespace tc::rt {

std::string scoreVersion() { return std::string(kSacreBleuVersion) + "+tc"; }

std::string referenceCount(const std::vector<Segment> &segments) {
  if (segments.empty())
    return "1";
  size_t count = segments.front().references.size();
  for (const Segment &segment : segments)
    if (segment.references.size() != count)
      return "var";
  return std::to_string(count);
}

SignatureFields bleuSignatureFields(const std::string &nrefs) {
  return {{"nrefs", nrefs}, {"case", "mixed"}, {"eff", "no"},
          {"tok", "13a"},   {"smooth", "exp"}, {"version", scoreVersion()}};
}

SignatureFields chrfSignatureFields(const std::string &nrefs) {
  return {{"nrefs", nrefs},
          {"case", "mixed"},
          {"eff", "yes"},
          {"nc", std::to_string(kChrfCharOrder)},
          {"nw", std::to_string(kChrfWordOrder)},
          {"space", "no"},
          {"version", scoreVersion()}};
}

std::string formatSignature(const SignatureFields &fields) {
  std::string text;
  for (const auto &[key, value] : fields) {
    if (!text.empty())
      text += '|';
    text += key + ':' + value;
  }
  return text;
}

std::string bleuName() { return "BLEU"; }

std::string chrfName() {
  // CHRFScore: "chrF" + beta + one '+' per word order.
  return "chrF" + std::to_string(kChrfBeta) +
         std::string(size_t(kChrfWordOrder), '+');
}

std::string formatScoreLine(const std::string &name,
                            const std::string &signature, double score,
                            const std::string &details) {
  char number[64];
  std::snprintf(number, sizeof number, "%.2f", score);
  std::string line = name;
  if (!signature.empty())
    line += "|" + signature;
  line += " = ";
  line += number;
  if (!details.empty())
    line += " " + details;
  return line;
}

} // namespace tc::rt
