//===- TranslateCommand.cpp - tc-run translate ----------------------------===//
//
// Raw text in, raw text out: each input line is encoded with the run's
// vocabulary (or read as token ids with --ids), translated by beam search
// (greedy with --beam 1) on the compiled incremental decoder, and decoded
// back to text, one output line per input line (or --n-best lines
// "I ||| TEXT ||| SCORE"); empty lines (support/BlankText.h) stay empty, and
// a line longer than the model can take is cut before it is encoded
// (runtime/data/LineLimit.h). The work is runtime/decode's: SourceLines.h,
// Translator.h (PrefixGreedySearch.h for --recompute-prefix) and
// TranslationOutput.h; this command reads the options and reports.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "runtime/cpu/CpuDevice.h"
#include "runtime/cpu/OpenMpThreads.h"
#include "runtime/data/LineLimit.h"
#include "runtime/decode/ParallelTranslation.h"
#include "runtime/decode/PrefixGreedySearch.h"
#include "runtime/decode/SourceLines.h"
#include "runtime/decode/TranslationOutput.h"
#include "runtime/decode/Translator.h"
#include "runtime/report/ProfileReport.h"
#include "runtime/report/Progress.h"
#include "runtime/train/CheckpointDirectory.h"
#include "support/FileBytes.h"
#include "support/OutputPath.h"
#include "support/TextLines.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>

namespace tc::run {
namespace {

struct TranslateOptions {
  ModelOptions model;
  std::string checkpoint, input = "-", output = "-";
  rt::SearchOptions search;
  bool nBestOutput = false, ids = false, recomputePrefix = false;
  bool overwrite = false, quiet = false;
  std::string computeType = "f32";
  std::string profilePath; ///< --profile: empty for none
  int64_t workers = 1;     ///< --workers: decoders on threads of their own
};

/// The largest text translate reads.
constexpr uint64_t kMaxInputBytes = uint64_t(4) << 30;

/// Refuses options that do not go together, and an -o that names something
/// translations must not replace; 0 when they are fine.
int checkOptions(const TranslateOptions &o) {
  std::string error;
  if (o.search.nBest > o.search.beam)
    return fail("--n-best " + std::to_string(o.search.nBest) +
                " is more than the --beam of " + std::to_string(o.search.beam) +
                "; a search keeps at most its beam's hypotheses");
  if (o.recomputePrefix && (o.search.beam != 1 || o.nBestOutput))
    return fail("--recompute-prefix decodes greedily: use it with --beam 1 "
                "and without --n-best");
  if (o.workers > 1 && (o.recomputePrefix || o.search.batchSentences == 1 ||
                        !o.profilePath.empty()))
    return fail("--workers runs several decoders at once: leave it out with "
                "--recompute-prefix, with --batch-sentences 1 (the latency "
                "mode: one sentence at a time) and with --profile (which "
                "times one decoder)");
  if (o.recomputePrefix && o.search.batchSentences != 0)
    return fail("--recompute-prefix decodes in the training buckets' "
                "batches: leave --batch-sentences out (it sets the "
                "incremental decoder's)");
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
  if (!o.profilePath.empty() &&
      !support::checkOutputPath(
          {"--profile",
           o.profilePath,
           "the profile",
           rt::kProfileMagic,
           {{o.model.model, "the executable"},
            {o.input, "the input"},
            {o.output, "the translations"},
            {rt::resolveCheckpoint(o.checkpoint), "the checkpoint"}}},
          error))
    return fail(error);
  return kSuccess;
}

/// The median of the times between one sentence's end and the next's
/// (from the start for the first): with --batch-sentences 1 each is one
/// sentence's latency, its encoding included.
double medianLatency(std::vector<double> doneAt) {
  if (doneAt.empty())
    return 0;
  for (size_t i = doneAt.size(); i-- > 1;)
    doneAt[i] -= doneAt[i - 1];
  auto middle = doneAt.begin() + doneAt.size() / 2;
  std::nth_element(doneAt.begin(), middle, doneAt.end());
  return *middle;
}

/// The summary line (unless --quiet) and the notes on what was cut.
void reportTranslations(const TranslateOptions &o,
                        const rt::SourceLines &sources,
                        const rt::Translations &translations, double seconds,
                        const std::vector<double> &doneAt,
                        const rt::LineLimit &limit) {
  char latency[64] = "";
  if (o.search.batchSentences == 1)
    std::snprintf(latency, sizeof latency, ", median latency %.1f ms",
                  medianLatency(doneAt) * 1e3);
  if (!o.quiet)
    std::fprintf(
        stderr,
        "tc-run: translated %zu sentences in %.3f s (%.1f sentences/s, "
        "%.0f target tokens/s, %s%s)\n",
        sources.sources.size(), seconds,
        sources.sources.size() / std::max(seconds, 1e-9),
        translations.targetTokens / std::max(seconds, 1e-9),
        o.recomputePrefix ? "greedy, prefix recomputed"
        : o.search.beam == 1
            ? "greedy"
            : ("beam " + std::to_string(o.search.beam)).c_str(),
        latency);
  if (sources.cut > 0)
    std::fprintf(stderr,
                 "tc-run: note: %" PRId64 " lines were longer than %s and "
                 "were cut there, at a character, before encoding\n",
                 sources.cut, limit.describe().c_str());
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
}

/// --workers N: N - 1 more devices like the model's (`model`: its options
/// with the compute type) holding the checkpoint's parameters, each for a
/// decoder on a thread of its own (CPU only: one GPU runs one
/// decoder at a time anyway). Returns the exit code after reporting why not.
int addWorkers(const TranslateOptions &o, const ModelOptions &model,
               const TrainedModel &trained, size_t sources,
               std::vector<std::unique_ptr<rt::Device>> &others) {
  if (o.workers > 1 && !dynamic_cast<rt::CpuDevice *>(trained.device.get()))
    return fail("--workers runs several decoders on the CPU's cores; on a "
                "GPU leave it out");
  std::string error;
  // No more decoders than sentences: an idle one would hold a copy of the
  // parameters for nothing.
  int64_t workers = std::min<int64_t>(o.workers, std::max<size_t>(sources, 1));
  for (int64_t w = 1; w < workers; ++w) {
    others.push_back(createDevice(model, *trained.executable, error));
    if (!others.back())
      return fail(model.model + ": " + error);
    rt::loadState(*others.back(), trained.state);
  }
  return kSuccess;
}

/// The translations of `sources`: on the model's device alone, or split
/// among it and `others`, each worker with an equal share of the OpenMP
/// threads (at least one).
std::optional<rt::Translations>
translateOnWorkers(const TranslateOptions &o, const TrainedModel &trained,
                   const std::vector<std::unique_ptr<rt::Device>> &others,
                   const std::vector<std::vector<int32_t>> &sources,
                   std::string &error,
                   const std::function<void(size_t, int64_t)> &progress) {
  if (others.empty())
    return rt::translate(*trained.executable, *trained.device, sources,
                         o.search, error, progress);
  std::vector<rt::Device *> devices = {trained.device.get()};
  for (const auto &device : others)
    devices.push_back(device.get());
  int before = rt::openMpThreads(); // this thread's, worker 0's too
  int threads = std::max<int>(1, before / int(devices.size()));
  std::optional<rt::Translations> translations = rt::translateInParallel(
      *trained.executable, devices, sources, o.search, error,
      [threads] { rt::setOpenMpThreads(threads); }, progress);
  rt::setOpenMpThreads(before);
  return translations;
}

int translateText(const TranslateOptions &o) {
  if (int code = checkOptions(o))
    return code;
  std::string error;
  ModelOptions model = o.model;
  if (!rt::parseComputeType(o.computeType, model.computeType, error))
    return fail(error);
  TrainedModel trained;
  if (int code = loadTrainedModel(model, o.checkpoint, !o.ids, trained))
    return code;
  if (!o.recomputePrefix &&
      !rt::checkBeamWidth(*trained.executable, o.search.beam, error))
    return fail(o.model.model + ": " + error);
  std::string inputName = o.input == "-" ? "standard input" : o.input;
  std::optional<std::string> text =
      support::readTextOrStandardInput(o.input, kMaxInputBytes, error);
  std::optional<std::vector<std::string>> lines;
  if (text)
    lines = support::splitUtf8Lines(*text, inputName, error);
  if (!lines)
    return fail(error);
  const tcx::Executable &root = trained.executable->root();
  rt::LineLimit limit = rt::lineLimitOf(root);
  const rt::SubwordVocabulary *subwords =
      o.ids ? nullptr : trained.vocabulary.get();
  std::optional<rt::SourceLines> sources = rt::sourcesOfLines(
      *lines, subwords, rt::vocabularyOf(root), limit, inputName, error);
  if (!sources)
    return fail(error);
  rt::Progress progress({"tc-run: translated", "sentences", "target tokens"},
                        int64_t(sources->sources.size()), stderr, !o.quiet);
  std::vector<std::unique_ptr<rt::Device>> others;
  if (int code = addWorkers(o, model, trained, sources->sources.size(), others))
    return code;
  std::vector<double> doneAt; // seconds from the start, per sentence
  if (!o.profilePath.empty() && !trained.device->startProfile())
    return fail("the " + o.model.device + " device cannot profile");
  auto started = std::chrono::steady_clock::now();
  std::optional<rt::Translations> translations =
      o.recomputePrefix
          ? rt::translateByRecompute(*trained.executable, *trained.device,
                                     sources->sources, o.search.maxLengthOffset,
                                     error)
          : translateOnWorkers(
                o, trained, others, sources->sources, error,
                [&](size_t done, int64_t tokens) {
                  doneAt.push_back(
                      std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - started)
                          .count());
                  progress.count(int64_t(done), tokens);
                });
  if (!translations)
    return fail(o.model.model + ": " + error, kRunFailed);
  progress.finish();
  reportTranslations(o, *sources, *translations, progress.elapsed(), doneAt,
                     limit);
  // The translations first: a profile that cannot be written costs only
  // itself.
  if (!rt::writeTranslations(o.output,
                             rt::translationText(*translations, *sources,
                                                 lines->size(), subwords,
                                                 o.nBestOutput),
                             support::ifPresentFor(o.overwrite), error))
    return fail(error, kRunFailed);
  if (!o.profilePath.empty() &&
      !rt::writeProfile(o.profilePath, trained.device->profile(),
                        progress.elapsed(), error))
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
  command
      ->add_option_function<std::string>(
          "--stop",
          [o](const std::string &rule) {
            o->search.stop = rule == "beam-finished"
                                 ? rt::StopRule::BeamFinished
                                 : rt::StopRule::BestProven;
          },
          "when a sentence's beam search stops: best-proven (once "
          "its best finished hypothesis beats every live one's best "
          "reachable score: the search's own best) or beam-finished "
          "(once --beam hypotheses have finished, as CTranslate2, "
          "fairseq and Hugging Face's early_stopping=True do: fewer "
          "steps, and a better hypothesis may be left unfinished)")
      ->check(CLI::IsMember({"best-proven", "beam-finished"}))
      ->default_str("best-proven");
  command
      ->add_option("--batch-sentences", o->search.batchSentences,
                   "at most N sentences decoded at a time (default: as many "
                   "as a decoder step's rows hold); 1 translates one sentence "
                   "after the other, as an interactive user would, and "
                   "reports the median latency per sentence")
      ->transform(integerIn(1, 1 << 20));
  command->add_flag("--ids", o->ids,
                    "read and write token ids (space-separated) instead of "
                    "text; no vocabulary needed");
  command->add_flag("--recompute-prefix", o->recomputePrefix,
                    "decode greedily (--beam 1) by rerunning the decoder on "
                    "the whole prefix at every position, as tc did before its "
                    "incremental decoder; for measuring the difference");
  command
      ->add_option("--compute-type", o->computeType,
                   "the type of the GEMMs of activations times weights on the "
                   "CPU, as CTranslate2 names them: f32; int8 (weights "
                   "quantized per output row when loaded, activations per "
                   "row at run time); bf16 (on a CPU with bf16 GEMM "
                   "instructions)")
      ->capture_default_str();
  command->add_flag("--overwrite", o->overwrite, "replace -o when it exists");
  command->add_flag("--quiet", o->quiet, "no progress output");
  command
      ->add_option("--workers", o->workers,
                   "decoders translating at once, each on its own thread "
                   "with an equal share of the OpenMP threads and its own "
                   "copy of the parameters (CTranslate2's inter_threads; the "
                   "CPU device); the translations are the same")
      ->transform(integerIn(1, 64))
      ->capture_default_str();
  command->add_option("--profile", o->profilePath,
                      "time every decoder function the device runs: a "
                      "summary by op on stderr, every kernel's time as JSON "
                      "in FILE (the CPU device)");
  return {command, [o] { return translateText(*o); }};
}

} // namespace tc::run
