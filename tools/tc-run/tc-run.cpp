//===- tc-run.cpp - trains, evaluates and feeds tc executables ------------===//
//
//   tc-run train model.tcx --checkpoint-dir ck        # train, checkpointing
//   tc-run train model.tcx --checkpoint-dir ck --resume --steps 2000
//   tc-run eval model.tcx --checkpoint-dir ck         # copy/reverse exact
//   match tc-run prepare model.tcx --source s.txt --target t.txt -o train.tok
//
// Links only the runtime (no MLIR, no LLVM). Exit codes: 0 success, 1 the
// run failed (a non-finite loss, a checkpoint that cannot be written), 2 bad
// usage or input, 128 + the signal (130, 143) when SIGINT or SIGTERM stopped
// a run after writing its checkpoint.
//
//===----------------------------------------------------------------------===//

#include "runtime/Device.h"
#include "runtime/ProfileReport.h"
#include "runtime/cpu/ProcessEnvironment.h"
#include "runtime/data/Buckets.h"
#include "runtime/data/TokenFile.h"
#include "runtime/decode/SyntheticEvaluation.h"
#include "runtime/format/Contract.h"
#include "runtime/train/Checkpoint.h"
#include "runtime/train/Trainer.h"
#include "support/OutputPath.h"

#include <CLI/CLI.hpp>

#include <charconv>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdio>

using namespace tc;

namespace {

enum ExitCode { kSuccess = 0, kRunFailed = 1, kBadInput = 2 };

int fail(const std::string &message, int code = kBadInput) {
  std::fprintf(stderr, "tc-run: error: %s\n", message.c_str());
  return code;
}

/// A CLI11 transform (a check that may rewrite the text): the option is a
/// decimal integer in [min, max], read from its text, since CLI11's own
/// conversion clamps what overflows (strtoll), reads "-1" as 2^64 - 1
/// (strtoull) and "010" as 8.
CLI::Validator integerIn(int64_t min, int64_t max) {
  std::string range =
      "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
  return CLI::Validator(
      [=](std::string &text) -> std::string {
        int64_t value = 0;
        const char *end = text.data() + text.size();
        auto [stop, ec] = std::from_chars(text.data(), end, value);
        if (ec != std::errc() || stop != end || value < min || value > max)
          return "'" + text + "' is not an integer in " + range;
        // CLI11 then converts the text with base 0 ("010" is 8): hand it
        // the decimal value read here.
        text = std::to_string(value);
        return "";
      },
      "INT in " + range);
}

/// Every command's options, as parsed.
struct Options {
  std::string model;
  std::string device = "auto";
  // train
  rt::TrainOptions train;
  int64_t steps = 0;
  int64_t seed = 0;
  // eval
  std::string checkpointDir, synthetic;
  int64_t sequences = 1000;
  int64_t evalSeed = 7;
  std::string profilePath; ///< train --profile
  // prepare
  std::string sourceText, targetText, output;
};

/// The executable and a device for it, or an exit code.
struct Loaded {
  std::unique_ptr<rt::Executable> executable;
  std::unique_ptr<rt::Device> device;
};

int load(const Options &o, Loaded &loaded) {
  std::string error;
  loaded.executable = rt::Executable::load(o.model, error);
  if (!loaded.executable)
    return fail(error);
  loaded.device = rt::createDevice(o.device, *loaded.executable, error);
  if (!loaded.device)
    return fail(o.model + ": " + error);
  return kSuccess;
}

int prepare(const Options &o) {
  std::string error;
  auto executable = rt::Executable::load(o.model, error);
  if (!executable)
    return fail(error);
  // -o may replace an earlier token file, never anything else; it is
  // written by replacing, which a stream cannot be.
  std::optional<support::OutputKind> kind =
      support::checkOutputPath("-o", o.output, rt::kTokenFileMagic,
                               {{o.model, "the executable"},
                                {o.sourceText, "the source text"},
                                {o.targetText, "the target text"}},
                               error);
  if (!kind)
    return fail(error);
  if (*kind == support::OutputKind::Stream)
    return fail("-o " + o.output +
                " is not a regular file; give the path of "
                "the token file to write");
  auto pairs = rt::readIdText(o.sourceText, o.targetText,
                              rt::vocabularyOf(executable->root()), error);
  if (!pairs)
    return fail(error);
  if (!rt::writeTokenFile(o.output, *pairs, error))
    return fail(error);
  std::fprintf(stderr, "tc-run: wrote %zu pairs to %s\n", pairs->size(),
               o.output.c_str());
  return kSuccess;
}

int trainModel(Options o, bool seedGiven) {
  Loaded loaded;
  if (int code = load(o, loaded))
    return code;
  const tcx::RunConfig *run = loaded.executable->root().run();
  o.train.steps = o.steps > 0 ? o.steps : run ? run->steps() : 0;
  o.train.seed = seedGiven ? uint64_t(o.seed) : run ? run->seed() : 1;
  o.train.executablePath = o.model;
  if (o.train.resume && o.train.checkpointDir.empty())
    return fail("--resume needs --checkpoint-dir");
  if (o.train.steps < 1)
    return fail("no step count: pass --steps N");
  if (!o.train.quiet)
    std::fprintf(stderr, "tc-run: training %s, %lld steps, device %s\n",
                 o.model.c_str(), (long long)o.train.steps,
                 loaded.device->describe().c_str());
  if (!o.profilePath.empty()) {
    // Checked before the run, which may take hours, and against the files
    // the run owns (the checkpoint is written during the run).
    std::vector<support::ProtectedFile> protect = rt::protectedFiles(o.train);
    protect.push_back({o.train.metricsPath, "the metrics file"});
    std::string error;
    if (!support::checkOutputPath("--profile", o.profilePath, rt::kProfileMagic,
                                  protect, error))
      return fail(error);
    if (!loaded.device->startProfile())
      return fail("the " + o.device + " device cannot profile");
  }
  std::string error;
  auto start = std::chrono::steady_clock::now();
  rt::TrainResult result =
      rt::train(*loaded.executable, *loaded.device, o.train, error);
  if (result.kind == rt::TrainResult::Failed)
    return fail(error, kRunFailed);
  if (!o.profilePath.empty() &&
      !rt::writeProfile(o.profilePath, loaded.device->profile(),
                        std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - start)
                            .count(),
                        error))
    return fail(error, kRunFailed);
  if (result.kind == rt::TrainResult::Stopped) {
    if (o.train.checkpointDir.empty())
      std::fprintf(stderr,
                   "tc-run: stopped at step %lld; nothing saved (no "
                   "--checkpoint-dir)\n",
                   (long long)result.step);
    else
      std::fprintf(stderr,
                   "tc-run: stopped at step %lld; checkpoint "
                   "written to %s; continue with --resume\n",
                   (long long)result.step, o.train.checkpointDir.c_str());
    return 128 + result.signal;
  }
  return kSuccess;
}

int evaluate(Options o) {
  Loaded loaded;
  if (int code = load(o, loaded))
    return code;
  const tcx::Executable &x = loaded.executable->root();
  std::string error;
  std::optional<rt::TrainingState> state =
      rt::readCheckpoint(rt::checkpointPath(o.checkpointDir),
                         rt::parameterFingerprint(x), x.param_bytes(), error);
  if (!state)
    return fail(error);
  rt::loadState(*loaded.device, *state);
  if (o.synthetic.empty() && x.run() && x.run()->synthetic())
    o.synthetic = x.run()->synthetic()->str();
  std::optional<rt::SyntheticTask> task = rt::parseSyntheticTask(o.synthetic);
  if (!task)
    return fail("eval needs a synthetic task: pass --synthetic copy|reverse");
  std::optional<rt::ExactMatch> match =
      rt::evaluateSyntheticTask(*loaded.executable, *loaded.device, *task,
                                o.sequences, o.evalSeed, error);
  if (!match)
    return fail(o.model + ": " + error);
  std::printf("exact match: %lld/%lld = %.2f%% (%s task, greedy decoding, "
              "checkpoint at step %lld)\n",
              (long long)match->correct, (long long)match->total,
              100.0 * match->correct / match->total, o.synthetic.c_str(),
              (long long)state->step);
  return kSuccess;
}

} // namespace

int main(int argc, char **argv) {
  rt::configureProcessEnvironment(argv);
  // A metrics or profile pipe that closes is a failed write, reported as
  // one, not a silent death by SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  CLI::App app{"tc-run: train, evaluate and feed tc executables (.tcx)"};
  app.require_subcommand(1);
  Options o;
  auto addCommon = [&](CLI::App *command) {
    command->add_option("model", o.model, "the executable (tc-compile -o)")
        ->required()
        ->check(CLI::ExistingFile);
    command
        ->add_option("--device", o.device,
                     "where to run: auto (the GPU when the executable has "
                     "CUDA code and there is one, else the CPU), cpu or cuda")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  };

  CLI::App *trainCommand = app.add_subcommand("train", "train a model");
  addCommon(trainCommand);
  trainCommand
      ->add_option("--steps", o.steps,
                   "train until this many steps are done (default: "
                   "[training] steps of the model description)")
      ->transform(integerIn(1, contract::kMaxTrainingSteps));
  trainCommand->add_option("--checkpoint-dir", o.train.checkpointDir,
                           "write checkpoint.tcck here (every "
                           "--checkpoint-every steps, at the end, on "
                           "SIGINT/SIGTERM)");
  trainCommand
      ->add_option("--checkpoint-every", o.train.checkpointEvery,
                   "steps between checkpoints (0: only at the end)")
      ->default_val(500)
      ->transform(integerIn(0, contract::kMaxTrainingSteps));
  trainCommand->add_flag("--resume", o.train.resume,
                         "continue the run in --checkpoint-dir");
  trainCommand->add_option("--metrics", o.train.metricsPath,
                           "write one JSON line per step to FILE (appended "
                           "when resuming): step, "
                           "loss (per token), learning_rate, tokens, "
                           "tokens_per_second, elapsed_seconds");
  trainCommand
      ->add_option("--seed", o.seed,
                   "seed of initialisation, dropout and synthetic "
                   "data (default: [training] seed; a resumed run "
                   "keeps its own)")
      ->transform(integerIn(0, contract::kMaxSeed));
  CLI::Option *data =
      trainCommand->add_option("--data", o.train.data.tokenFile,
                               "training pairs, a token file (tc-run prepare)");
  trainCommand
      ->add_option("--synthetic", o.train.data.synthetic,
                   "train on a synthetic task instead: copy or reverse")
      ->excludes(data);
  trainCommand->add_flag("--quiet", o.train.quiet, "no progress output");
  trainCommand->add_option("--profile", o.profilePath,
                           "time every step of the device: a summary by op "
                           "on stderr, every kernel's time as JSON in FILE");

  CLI::App *evalCommand = app.add_subcommand(
      "eval", "exact-match rate of greedy decoding on fresh synthetic "
              "sequences (copy or reverse task)");
  addCommon(evalCommand);
  evalCommand
      ->add_option("--checkpoint-dir", o.checkpointDir,
                   "the trained model's checkpoint directory")
      ->required();
  evalCommand->add_option("--sequences", o.sequences, "how many sequences")
      ->default_val(1000)
      ->transform(integerIn(1, INT32_MAX));
  evalCommand
      ->add_option("--seed", o.evalSeed,
                   "seed of the fresh sequences (training draws from "
                   "other streams)")
      ->default_val(7)
      ->transform(integerIn(0, contract::kMaxSeed));
  evalCommand->add_option("--synthetic", o.synthetic,
                          "the task: copy or reverse (default: the model's)");

  CLI::App *prepareCommand = app.add_subcommand(
      "prepare", "convert whitespace-separated token ids (one sentence per "
                 "line) into a token file");
  prepareCommand
      ->add_option("model", o.model, "the executable (for the vocabulary)")
      ->required()
      ->check(CLI::ExistingFile);
  prepareCommand->add_option("--source", o.sourceText, "source sentences")
      ->required()
      ->check(CLI::ExistingFile);
  prepareCommand->add_option("--target", o.targetText, "target sentences")
      ->required()
      ->check(CLI::ExistingFile);
  prepareCommand->add_option("-o", o.output, "the token file to write")
      ->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return app.exit(e) == 0 ? kSuccess : kBadInput;
  }

  // A device that fails mid-run (a GPU error) throws; checkpoints already
  // written stay as they are.
  try {
    if (*prepareCommand)
      return prepare(o);
    return *trainCommand ? trainModel(o, trainCommand->count("--seed") > 0)
                         : evaluate(o);
  } catch (const std::exception &e) {
    return fail(std::string("the device failed: ") + e.what(), kRunFailed);
  }
}
