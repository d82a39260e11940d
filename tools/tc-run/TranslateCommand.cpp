//===- TranslateCommand.cpp - tc-run translate ----------------------------===//
//
// Raw text in, raw text out: each input line is encoded with the run's
// vocabulary, translated (greedy decoding; beam search is issue 17), and
// decoded back to text, one output line per input line.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "runtime/decode/Translator.h"
#include "runtime/train/CheckpointDirectory.h"
#include "support/AtomicFile.h"
#include "support/FileBytes.h"
#include "support/OutputPath.h"
#include "support/TextLines.h"

#include <chrono>
#include <filesystem>
#include <unistd.h>

namespace tc::run {
namespace {

struct TranslateOptions {
  ModelOptions model;
  std::string checkpoint, input = "-", output = "-";
  bool overwrite = false, quiet = false;
};

/// The largest text translate reads.
constexpr uint64_t kMaxInputBytes = uint64_t(4) << 30;

int translateText(const TranslateOptions &o) {
  std::string error;
  // A text file (any content) may be replaced with --overwrite; never the
  // model's files, and never a stream (leave -o out for standard output).
  std::string checkpoint = rt::resolveCheckpoint(o.checkpoint);
  std::string directory = std::filesystem::path(checkpoint).parent_path();
  if (o.output != "-" &&
      !support::checkReplaceableOutput(
          "-o", o.output, "",
          {{o.model.model, "the executable"},
           {o.input, "the input"},
           {checkpoint, "the checkpoint"},
           {rt::vocabularyPath(directory.empty() ? "." : directory),
            "the run's vocabulary"}},
          o.overwrite, "the translations", error))
    return fail(error);
  TrainedModel trained;
  if (int code = loadTrainedModel(o.model, o.checkpoint, true, trained))
    return code;
  std::optional<std::string> text =
      support::readTextOrStandardInput(o.input, kMaxInputBytes, error);
  std::optional<std::vector<std::string>> lines;
  if (text)
    lines = support::splitUtf8Lines(
        *text, o.input == "-" ? "standard input" : o.input, error);
  if (!lines)
    return fail(error);
  rt::Vocabulary vocab = rt::vocabularyOf(trained.executable->root());
  std::vector<std::vector<int32_t>> sources;
  for (const std::string &line : *lines) {
    sources.push_back(trained.vocabulary->encode(line));
    sources.back().push_back(vocab.eos);
  }
  // A count redrawn in place on a terminal; one line at the end elsewhere.
  bool terminal = !o.quiet && isatty(fileno(stderr));
  auto progress = [&](size_t done) {
    if (terminal)
      std::fprintf(stderr, "\rtc-run: translated %zu/%zu", done,
                   sources.size());
  };
  auto start = std::chrono::steady_clock::now();
  std::optional<rt::Translations> translations = rt::translate(
      *trained.executable, *trained.device, sources, error, progress);
  if (terminal)
    std::fprintf(stderr, "\n");
  if (translations && !o.quiet)
    std::fprintf(stderr, "tc-run: translated %zu sentences in %.1f s\n",
                 sources.size(),
                 std::chrono::duration<double>(
                     std::chrono::steady_clock::now() - start)
                     .count());
  if (!translations)
    return fail(o.model.model + ": " + error, kRunFailed);
  if (translations->truncated > 0)
    std::fprintf(stderr,
                 "tc-run: note: %lld sentences were longer than the largest "
                 "shape bucket and were cut to it\n",
                 (long long)translations->truncated);
  if (translations->unfinished > 0)
    std::fprintf(stderr,
                 "tc-run: note: %lld translations reached their bucket's "
                 "target length without an end of sentence\n",
                 (long long)translations->unfinished);
  std::string output;
  for (const std::vector<int32_t> &target : translations->targets)
    output += trained.vocabulary->decode(target) + "\n";
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
      "translate", "translate raw text, one sentence per line (greedy "
                   "decoding with the checkpoint's parameters and its run's "
                   "vocabulary)");
  addModelOptions(*command, o->model);
  addCheckpointOption(*command, o->checkpoint);
  command->add_option("--input", o->input,
                      "the text to translate (default: standard input)");
  command->add_option("-o", o->output,
                      "the file to write the translations to (default: "
                      "standard output)");
  command->add_flag("--overwrite", o->overwrite,
                    "replace -o when it exists");
  command->add_flag("--quiet", o->quiet, "no progress output");
  return {command, [o] { return translateText(*o); }};
}

} // namespace tc::run
