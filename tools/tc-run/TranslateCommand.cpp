//===- TranslateCommand.cpp - tc-run translate ----------------------------===//
//
// Raw text in, raw text out: each input line is encoded with the run's
// vocabulary (or read as token ids with --ids), translated by beam search
// (greedy with --beam 1) on the compiled incremental decoder, and decoded
// back to text, one output line per input line (or --n-best lines
// "I ||| TEXT ||| SCORE"); empty lines (support/BlankText.h) stay empty, and
// a line longer than the model can take is cut before it is encoded
// (runtime/data/LineLimit.h).
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "runtime/data/LineLimit.h"
#include "runtime/decode/PrefixGreedySearch.h"
#include "runtime/decode/Translator.h"
#include "runtime/train/CheckpointDirectory.h"
#include "support/AtomicFile.h"
#include "support/BlankText.h"
#include "support/FileBytes.h"
#include "support/OutputPath.h"
#include "support/TextLines.h"
#include "support/Utf8.h"

#include <charconv>
#include <chrono>
#include <cinttypes>
#include <filesystem>
#include <unistd.h>

namespace tc::run {
namespace {

struct TranslateOptions {
  ModelOptions model;
  std::string checkpoint, input = "-", output = "-";
  rt::SearchOptions search;
  bool nBestOutput = false, ids = false, recomputePrefix = false;
  bool overwrite = false, quiet = false;
};

/// The largest text translate reads.
constexpr uint64_t kMaxInputBytes = uint64_t(4) << 30;

/// "4 17 9" -> its ids, each in [0, vocabulary); none with `error`.
std::optional<std::vector<int32_t>> parseIds(const std::string &line,
                                             int64_t vocabulary,
                                             const std::string &where,
                                             std::string &error) {
  std::vector<int32_t> ids;
  const char *at = line.data(), *end = line.data() + line.size();
  while (at < end) {
    if (*at == ' ' || *at == '\t') {
      ++at;
      continue;
    }
    int64_t id = -1;
    auto [next, ec] = std::from_chars(at, end, id);
    if (ec != std::errc() || id < 0 || id >= vocabulary ||
        (next < end && *next != ' ' && *next != '\t')) {
      error = where + ": '" + line + "' is not a list of token ids in [0, " +
              std::to_string(vocabulary) +
              "); leave out --ids to translate text";
      return std::nullopt;
    }
    ids.push_back(int32_t(id));
    at = next;
  }
  return ids;
}

/// `line` cut to at most `maxBytes` bytes: at a character, and for token
/// ids after a space or tab where there is one (a cut number is another
/// id).
std::string_view cutLine(std::string_view line, int64_t maxBytes, bool ids) {
  std::string_view cut =
      line.substr(0, support::utf8PrefixLength(line, size_t(maxBytes)));
  if (cut.size() < line.size() && ids && line[cut.size()] != ' ' &&
      line[cut.size()] != '\t') {
    size_t space = cut.find_last_of(" \t");
    if (space != std::string_view::npos)
      cut = cut.substr(0, space);
  }
  return cut;
}

/// Redraws "translated N/M, S sentences/s, T tokens/s" on a terminal.
class TranslateProgress {
public:
  TranslateProgress(size_t total, bool show) : total(total), show(show) {}
  void update(size_t done, int64_t tokens) {
    double seconds = elapsed();
    if (!show || (done < total && seconds - lastDrawn < 0.2))
      return;
    lastDrawn = seconds;
    std::fprintf(stderr,
                 "\rtc-run: translated %zu/%zu, %.1f sentences/s, %.0f target "
                 "tokens/s ",
                 done, total, done / std::max(seconds, 1e-9),
                 tokens / std::max(seconds, 1e-9));
  }
  void finish() {
    if (show)
      std::fprintf(stderr, "\n");
  }
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  }

private:
  size_t total;
  bool show;
  double lastDrawn = -1;
  std::chrono::steady_clock::time_point start =
      std::chrono::steady_clock::now();
};

int translateText(const TranslateOptions &o) {
  std::string error;
  if (o.search.nBest > o.search.beam)
    return fail("--n-best " + std::to_string(o.search.nBest) +
                " is more than the --beam of " +
                std::to_string(o.search.beam) +
                "; a search keeps at most its beam's hypotheses");
  if (o.recomputePrefix && (o.search.beam != 1 || o.nBestOutput))
    return fail("--recompute-prefix decodes greedily: use it with --beam 1 "
                "and without --n-best");
  // Translations are text (no magic): they replace only earlier text, with
  // --overwrite, and never a stream (leave -o out for standard output).
  if (o.output != "-" &&
      !support::checkReplaceableOutput(
          {"-o",
           o.output,
           "the translations",
           "",
           {{o.model.model, "the executable"},
            {o.input, "the input"},
            {rt::resolveCheckpoint(o.checkpoint), "the checkpoint"}}},
          o.overwrite, error))
    return fail(error);
  TrainedModel trained;
  if (int code = loadTrainedModel(o.model, o.checkpoint, !o.ids, trained))
    return code;
  std::string inputName = o.input == "-" ? "standard input" : o.input;
  std::optional<std::string> text =
      support::readTextOrStandardInput(o.input, kMaxInputBytes, error);
  std::optional<std::vector<std::string>> lines;
  if (text)
    lines = support::splitUtf8Lines(*text, inputName, error);
  if (!lines)
    return fail(error);
  rt::Vocabulary vocab = rt::vocabularyOf(trained.executable->root());
  rt::LineLimit limit = rt::lineLimitOf(trained.executable->root());
  // Empty lines are not translated: they give empty lines.
  std::vector<std::vector<int32_t>> sources;
  std::vector<size_t> lineOf;
  int64_t cut = 0;
  for (size_t i = 0; i < lines->size(); ++i) {
    if (support::isBlankLine((*lines)[i]))
      continue;
    // Every line gives a line, so a long one is cut, not skipped: the
    // translator would cut its tokens to the longest bucket anyway.
    std::string line(cutLine((*lines)[i], limit.bytes, o.ids));
    cut += line.size() < (*lines)[i].size();
    std::vector<int32_t> ids;
    if (o.ids) {
      auto parsed = parseIds(line, vocab.size,
                             inputName + ":" + std::to_string(i + 1), error);
      if (!parsed)
        return fail(error);
      ids = std::move(*parsed);
    } else {
      ids = trained.vocabulary->encode(line);
    }
    ids.push_back(vocab.eos);
    sources.push_back(std::move(ids));
    lineOf.push_back(i);
  }
  TranslateProgress progress(sources.size(),
                             !o.quiet && isatty(fileno(stderr)));
  rt::Translations translations;
  if (o.recomputePrefix) {
    auto targets = rt::translateByRecompute(*trained.executable,
                                            *trained.device, sources,
                                            o.search.maxLengthOffset, error);
    if (!targets)
      return fail(o.model.model + ": " + error, kRunFailed);
    for (std::vector<int32_t> &target : *targets) {
      translations.targetTokens += int64_t(target.size()) + 1;
      translations.nBest.push_back({rt::Hypothesis{std::move(target)}});
    }
  } else {
    auto found = rt::translate(
        *trained.executable, *trained.device, sources, o.search, error,
        [&](size_t done, int64_t tokens) { progress.update(done, tokens); });
    if (!found)
      return fail(o.model.model + ": " + error, kRunFailed);
    translations = std::move(*found);
  }
  progress.finish();
  double seconds = progress.elapsed();
  if (!o.quiet)
    std::fprintf(stderr,
                 "tc-run: translated %zu sentences in %.1f s (%.1f sentences/s, "
                 "%.0f target tokens/s, %s)\n",
                 sources.size(), seconds,
                 sources.size() / std::max(seconds, 1e-9),
                 translations.targetTokens / std::max(seconds, 1e-9),
                 o.recomputePrefix ? "greedy, prefix recomputed"
                 : o.search.beam == 1
                     ? "greedy"
                     : ("beam " + std::to_string(o.search.beam)).c_str());
  if (cut > 0)
    std::fprintf(stderr,
                 "tc-run: note: %" PRId64 " lines were longer than %s and "
                 "were cut there, at a character, before encoding\n",
                 cut, limit.describe().c_str());
  if (translations.truncated > 0)
    std::fprintf(stderr,
                 "tc-run: note: %" PRId64 " sentences were longer than the "
                 "largest decoder shape and were cut to it\n",
                 translations.truncated);
  if (translations.unfinished > 0)
    std::fprintf(stderr,
                 "tc-run: note: %" PRId64 " translations reached their length "
                 "limit without an end of sentence\n",
                 translations.unfinished);
  auto render = [&](const std::vector<int32_t> &tokens) {
    if (!o.ids)
      return trained.vocabulary->decode(tokens);
    std::string ids;
    for (int32_t id : tokens)
      ids += (ids.empty() ? "" : " ") + std::to_string(id);
    return ids;
  };
  std::string output;
  size_t next = 0; // the next translated source
  for (size_t i = 0; i < lines->size(); ++i) {
    bool translated = next < lineOf.size() && lineOf[next] == i;
    if (!o.nBestOutput) {
      output += (translated ? render(translations.best(next)) : "") + "\n";
    } else if (translated) {
      for (const rt::Hypothesis &h : translations.nBest[next]) {
        char score[32];
        std::snprintf(score, sizeof score, "%.9g", h.score);
        output += std::to_string(i) + " ||| " + render(h.tokens) + " ||| " +
                  score + "\n";
      }
    }
    next += translated;
  }
  if (o.output == "-") {
    if (std::fwrite(output.data(), 1, output.size(), stdout) !=
            output.size() ||
        std::fflush(stdout) != 0)
      return fail("cannot write the translations to standard output",
                  kRunFailed);
    return kSuccess;
  }
  if (!support::writeFileAtomically(o.output, output.data(), output.size(),
                                    error))
    return fail(error, kRunFailed);
  return kSuccess;
}

} // namespace

Command addTranslateCommand(CLI::App &app) {
  auto o = std::make_shared<TranslateOptions>();
  CLI::App *command = app.add_subcommand(
      "translate", "translate raw text, one sentence per line, by beam "
                   "search on the compiled incremental decoder with the "
                   "checkpoint's parameters and its run's vocabulary");
  addModelOptions(*command, o->model);
  addCheckpointOption(*command, o->checkpoint);
  command->add_option("--input", o->input,
                      "the text to translate (default: standard input)");
  command->add_option("-o", o->output,
                      "the file to write the translations to (default: "
                      "standard output)");
  command
      ->add_option("--beam", o->search.beam,
                   "hypotheses kept per sentence; 1 is greedy decoding")
      ->transform(integerIn(1, 1024))
      ->capture_default_str();
  command
      ->add_option("--alpha", o->search.alpha,
                   "the length penalty's exponent: scores are log P / ((5 + "
                   "length) / 6)^alpha (GNMT); 0 turns it off")
      ->transform(numberIn(0, 10))
      ->capture_default_str();
  command
      ->add_option_function<int64_t>(
          "--n-best",
          [o](int64_t n) {
            o->search.nBest = n;
            o->nBestOutput = true;
          },
          "write the N best hypotheses of each sentence as lines 'LINE ||| "
          "TRANSLATION ||| SCORE' (LINE counts from 0; at most --beam)")
      ->transform(integerIn(1, 1024));
  command
      ->add_option("--max-length-offset", o->search.maxLengthOffset,
                   "target tokens a translation may have beyond its source's "
                   "(capped by the decoder shape's target length)")
      ->transform(integerIn(0, 1 << 20))
      ->capture_default_str();
  command->add_flag("--ids", o->ids,
                    "read and write token ids (space-separated) instead of "
                    "text; no vocabulary needed");
  command->add_flag("--recompute-prefix", o->recomputePrefix,
                    "decode greedily (--beam 1) by rerunning the decoder on "
                    "the whole prefix at every position, as tc did before its "
                    "incremental decoder; for measuring the difference");
  command->add_flag("--overwrite", o->overwrite,
                    "replace -o when it exists");
  command->add_flag("--quiet", o->quiet, "no progress output");
  return {command, [o] { return translateText(*o); }};
}

} // namespace tc::run
