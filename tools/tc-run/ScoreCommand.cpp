//===- ScoreCommand.cpp - tc-run score ------------------------------------===//
//
//   tc-run score --reference ref.txt hyp.txt          # sacreBLEU's text lines
//   tc-run score --reference ref.txt hyp.txt --json   # and as JSON
//
// BLEU and chrF of a hypothesis file against one or more reference files,
// computed as sacreBLEU 2.6.0 computes them (runtime/score/).
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "runtime/score/ScoreFiles.h"
#include "runtime/score/Signature.h"

#include <charconv>
#include <cstdio>

namespace tc::run {
namespace {

struct ScoreOptions {
  std::string hypothesis;
  std::vector<std::string> references;
  bool json = false;
};

/// The shortest decimal text that reads back as `value` (JSON numbers).
std::string number(double value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return ec == std::errc() ? std::string(buffer, end) : "0";
}

std::string number(int64_t value) { return std::to_string(value); }

template <typename T, size_t N>
std::string numberList(const std::array<T, N> &values) {
  std::string text = "[";
  for (size_t i = 0; i < N; ++i)
    text += (i ? ", " : "") + number(values[i]);
  return text + "]";
}

/// A JSON object's members, one per line (the strings here are ASCII
/// without quotes or backslashes: names, signatures, numbers).
struct JsonObject {
  std::vector<std::pair<std::string, std::string>> members;
  void string(const std::string &key, const std::string &value) {
    members.emplace_back(key, "\"" + value + "\"");
  }
  void raw(const std::string &key, const std::string &value) {
    members.emplace_back(key, value);
  }
  std::string text() const {
    std::string out = " {\n";
    for (size_t i = 0; i < members.size(); ++i)
      out += "  \"" + members[i].first + "\": " + members[i].second +
             (i + 1 < members.size() ? ",\n" : "\n");
    return out + " }";
  }
};

/// sacreBLEU's JSON object of a score (name, score, signature, its fields),
/// the score unrounded.
JsonObject scoreObject(const std::string &name, double score,
                       const rt::SignatureFields &signature) {
  JsonObject object;
  object.string("name", name);
  object.raw("score", number(score));
  object.string("signature", rt::formatSignature(signature));
  return object;
}

void addSignatureFields(JsonObject &object,
                        const rt::SignatureFields &signature) {
  for (const auto &[key, value] : signature)
    object.string(key, value);
}

std::string jsonReport(const rt::CorpusScores &scores) {
  const rt::BleuScore &bleu = scores.bleu;
  rt::SignatureFields bleuSignature = rt::bleuSignatureFields(scores.nrefs);
  JsonObject bleuObject =
      scoreObject(rt::bleuName(), bleu.score, bleuSignature);
  bleuObject.string("verbose_score", rt::bleuDetails(bleu));
  addSignatureFields(bleuObject, bleuSignature);
  bleuObject.raw("counts", numberList(bleu.statistics.correct));
  bleuObject.raw("totals", numberList(bleu.statistics.total));
  bleuObject.raw("precisions", numberList(bleu.precisions));
  bleuObject.raw("bp", number(bleu.brevityPenalty));
  bleuObject.raw("ratio", number(bleu.ratio));
  bleuObject.raw("hyp_len", number(bleu.statistics.hypothesisLength));
  bleuObject.raw("ref_len", number(bleu.statistics.referenceLength));

  const rt::ChrfScore &chrf = scores.chrf;
  rt::SignatureFields chrfSignature = rt::chrfSignatureFields(scores.nrefs);
  JsonObject chrfObject =
      scoreObject(rt::chrfName(), chrf.score, chrfSignature);
  addSignatureFields(chrfObject, chrfSignature);
  std::string orders = "[";
  for (size_t n = 0; n < chrf.statistics.orders.size(); ++n) {
    const rt::ChrfStatistics::Order &order = chrf.statistics.orders[n];
    orders += std::string(n ? ",\n   " : "\n   ") +
              "{\"order\": " + std::to_string(n + 1) +
              ", \"hyp\": " + number(order.hypothesis) +
              ", \"ref\": " + number(order.reference) +
              ", \"match\": " + number(order.match) + "}";
  }
  chrfObject.raw("char_ngrams", orders + "\n  ]");
  chrfObject.raw("segments", number(int64_t(scores.segments)));
  bleuObject.raw("segments", number(int64_t(scores.segments)));
  return "[\n" + bleuObject.text() + ",\n" + chrfObject.text() + "\n]\n";
}

/// sacreBLEU's text lines, aligned at their '=' as sacreBLEU aligns them.
std::string textReport(const rt::CorpusScores &scores) {
  std::string lines[] = {
      rt::formatScoreLine(
          rt::bleuName(),
          rt::formatSignature(rt::bleuSignatureFields(scores.nrefs)),
          scores.bleu.score, rt::bleuDetails(scores.bleu)),
      rt::formatScoreLine(
          rt::chrfName(),
          rt::formatSignature(rt::chrfSignatureFields(scores.nrefs)),
          scores.chrf.score)};
  size_t width = 0;
  for (const std::string &line : lines)
    width = std::max(width, line.find(" = "));
  std::string text;
  for (const std::string &line : lines)
    text += std::string(width - line.find(" = "), ' ') + line + "\n";
  return text;
}

int score(const ScoreOptions &o) {
  std::string error;
  std::optional<rt::CorpusScores> scores =
      rt::scoreFiles(o.hypothesis, o.references, error);
  if (!scores)
    return fail(error);
  std::string report = o.json ? jsonReport(*scores) : textReport(*scores);
  std::fputs(report.c_str(), stdout);
  if (std::fflush(stdout) != 0)
    return fail("cannot write the scores to standard output", kRunFailed);
  return kSuccess;
}

} // namespace

Command addScoreCommand(CLI::App &app) {
  auto o = std::make_shared<ScoreOptions>();
  CLI::App *command = app.add_subcommand(
      "score", "BLEU and chrF of a hypothesis file against reference files, "
               "as sacreBLEU 2.6.0 computes them (one segment per line)");
  command
      ->add_option("hypothesis", o->hypothesis,
                   "the system's translations, one segment per line "
                   "(-: standard input)")
      ->required();
  command
      ->add_option("-r,--reference", o->references,
                   "the reference translations, line i for line i of the "
                   "hypothesis; repeat for several references")
      ->required()
      ->allow_extra_args(false); // one file per --reference
  command->add_flag("--json", o->json,
                    "print the scores, their signatures and counts as JSON");
  return {command, [o] { return score(*o); }};
}

} // namespace tc::run
