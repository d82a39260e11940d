//===- tc-run.cpp - trains, evaluates and feeds tc executables ------------===//
//
//   tc-run train model.tcx --checkpoint-dir ck        # train, checkpointing
//   tc-run train model.tcx --checkpoint-dir ck --resume --steps 2000
//   tc-run eval model.tcx --checkpoint-dir ck         # copy/reverse exact match
//   tc-run prepare model.tcx --source s.txt --target t.txt -o train.tok
//
// Links only the runtime (no MLIR, no LLVM). Exit codes: 0 success, 1 the
// run failed (a non-finite loss, a checkpoint that cannot be written), 2 bad
// usage or input, 128 + the signal (130, 143) when SIGINT or SIGTERM stopped
// a run after writing its checkpoint.
//
//===----------------------------------------------------------------------===//

#include "runtime/ProcessEnvironment.h"
#include "runtime/Buckets.h"
#include "runtime/Checkpoint.h"
#include "runtime/Device.h"
#include "runtime/GreedyDecoder.h"
#include "runtime/Trainer.h"
#include "runtime/data/TokenFile.h"

#include <CLI/CLI.hpp>

#include <cstdio>

using namespace tc;

namespace {

enum ExitCode { kSuccess = 0, kRunFailed = 1, kBadInput = 2 };

int fail(const std::string &message, int code = kBadInput) {
  std::fprintf(stderr, "tc-run: error: %s\n", message.c_str());
  return code;
}

struct Common {
  std::string model;
  std::string device = "auto";
};

/// The executable and a device for it, or an exit code.
struct Loaded {
  std::unique_ptr<rt::Executable> executable;
  std::unique_ptr<rt::Device> device;
};

int load(const Common &common, Loaded &loaded) {
  std::string error;
  loaded.executable = rt::Executable::load(common.model, error);
  if (!loaded.executable)
    return fail(error);
  loaded.device = rt::createDevice(common.device, *loaded.executable, error);
  if (!loaded.device)
    return fail(common.model + ": " + error);
  return kSuccess;
}

} // namespace

int main(int argc, char **argv) {
  rt::configureProcessEnvironment(argv);
  CLI::App app{"tc-run: train, evaluate and feed tc executables (.tcx)"};
  app.require_subcommand(1);
  Common common;
  auto addCommon = [&](CLI::App *command) {
    command->add_option("model", common.model, "the executable (tc-compile -o)")
        ->required()
        ->check(CLI::ExistingFile);
    command
        ->add_option("--device", common.device,
                     "where to run: auto (a GPU when there is one, else the "
                     "CPU; only the CPU is built so far) or cpu")
        ->check(CLI::IsMember({"auto", "cpu"}));
  };

  rt::TrainOptions train;
  std::string synthetic;
  int64_t steps = 0;
  uint64_t seed = 0;
  CLI::App *trainCommand = app.add_subcommand("train", "train a model");
  addCommon(trainCommand);
  trainCommand
      ->add_option("--steps", steps,
                   "train until this many steps are done (default: "
                   "[training] steps of the model description)")
      ->check(CLI::PositiveNumber);
  trainCommand->add_option("--checkpoint-dir", train.checkpointDir,
                           "write checkpoint.tcck here (every "
                           "--checkpoint-every steps, at the end, on "
                           "SIGINT/SIGTERM)");
  trainCommand
      ->add_option("--checkpoint-every", train.checkpointEvery,
                   "steps between checkpoints (0: only at the end)")
      ->default_val(500)
      ->check(CLI::NonNegativeNumber);
  trainCommand->add_flag("--resume", train.resume,
                         "continue the run in --checkpoint-dir");
  trainCommand->add_option("--metrics", train.metricsPath,
                           "write one JSON line per step to FILE (appended "
                           "when resuming): step, "
                           "loss (per token), learning_rate, tokens, "
                           "tokens_per_second, elapsed_seconds");
  trainCommand->add_option("--seed", seed,
                           "seed of initialisation, dropout and synthetic "
                           "data (default: [training] seed; a resumed run "
                           "keeps its own)");
  trainCommand->add_option("--data", train.data.tokenFile,
                           "training pairs, a token file (tc-run prepare)");
  trainCommand->add_option("--synthetic", train.data.synthetic,
                           "train on a synthetic task instead: copy or reverse");
  trainCommand->add_flag("--quiet", train.quiet, "no progress output");

  std::string checkpointDir;
  int64_t sequences = 1000;
  uint64_t evalSeed = 7;
  CLI::App *evalCommand = app.add_subcommand(
      "eval", "exact-match rate of greedy decoding on fresh synthetic "
              "sequences (copy or reverse task)");
  addCommon(evalCommand);
  evalCommand->add_option("--checkpoint-dir", checkpointDir,
                          "the trained model's checkpoint directory")
      ->required();
  evalCommand->add_option("--sequences", sequences, "how many sequences")
      ->default_val(1000)
      ->check(CLI::PositiveNumber);
  evalCommand->add_option("--seed", evalSeed,
                          "seed of the fresh sequences (training draws from "
                          "other streams)")
      ->default_val(7);
  evalCommand->add_option("--synthetic", synthetic,
                          "the task: copy or reverse (default: the model's)");

  std::string sourceText, targetText, output;
  CLI::App *prepareCommand = app.add_subcommand(
      "prepare", "convert whitespace-separated token ids (one sentence per "
                 "line) into a token file");
  prepareCommand->add_option("model", common.model,
                             "the executable (for the vocabulary)")
      ->required()
      ->check(CLI::ExistingFile);
  prepareCommand->add_option("--source", sourceText, "source sentences")
      ->required()
      ->check(CLI::ExistingFile);
  prepareCommand->add_option("--target", targetText, "target sentences")
      ->required()
      ->check(CLI::ExistingFile);
  prepareCommand->add_option("-o", output, "the token file to write")
      ->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return app.exit(e) == 0 ? kSuccess : kBadInput;
  }

  Loaded loaded;
  if (*prepareCommand) {
    std::string error;
    auto executable = rt::Executable::load(common.model, error);
    if (!executable)
      return fail(error);
    auto pairs = rt::readIdText(sourceText, targetText,
                                rt::vocabularyOf(executable->root()), error);
    if (!pairs)
      return fail(error);
    if (!rt::writeTokenFile(output, *pairs, error))
      return fail(error);
    std::fprintf(stderr, "tc-run: wrote %zu pairs to %s\n", pairs->size(),
                 output.c_str());
    return kSuccess;
  }
  if (int code = load(common, loaded))
    return code;
  const tcx::Executable &x = loaded.executable->root();
  const tcx::RunConfig *run = x.run();

  if (*trainCommand) {
    train.steps = steps > 0 ? steps : run ? run->steps() : 0;
    train.seed = trainCommand->count("--seed") ? seed : run ? run->seed() : 1;
    if (train.resume && train.checkpointDir.empty())
      return fail("--resume needs --checkpoint-dir");
    if (train.steps < 1)
      return fail("no step count: pass --steps N");
    if (!train.quiet)
      std::fprintf(stderr, "tc-run: training %s, %lld steps, device %s\n",
                   common.model.c_str(), (long long)train.steps,
                   loaded.device->describe().c_str());
    std::string error;
    rt::TrainResult result =
        rt::train(*loaded.executable, *loaded.device, train, error);
    if (result.kind == rt::TrainResult::Failed)
      return fail(error, kRunFailed);
    if (result.kind == rt::TrainResult::Stopped) {
      if (train.checkpointDir.empty())
        std::fprintf(stderr, "tc-run: stopped at step %lld; nothing saved (no "
                             "--checkpoint-dir)\n",
                     (long long)result.step);
      else
        std::fprintf(stderr, "tc-run: stopped at step %lld; checkpoint "
                             "written to %s; continue with --resume\n",
                     (long long)result.step, train.checkpointDir.c_str());
      return 128 + result.signal;
    }
    return kSuccess;
  }

  // eval
  std::string error;
  std::optional<rt::TrainingState> state =
      rt::readCheckpoint(rt::checkpointPath(checkpointDir),
                         rt::parameterFingerprint(x), x.param_bytes(), error);
  if (!state)
    return fail(error);
  rt::loadState(*loaded.device, *state);
  if (synthetic.empty() && run && run->synthetic())
    synthetic = run->synthetic()->str();
  std::optional<rt::SyntheticTask> task = rt::parseSyntheticTask(synthetic);
  if (!task)
    return fail("eval needs a synthetic task: pass --synthetic copy|reverse");
  std::vector<rt::BucketShape> buckets = rt::bucketsOf(x);
  if (buckets.empty())
    return fail(common.model + " has no shape buckets (was it compiled from "
                "a model description?)");
  rt::BucketShape bucket = buckets.front();
  rt::Vocabulary vocab = rt::vocabularyOf(x);
  int64_t maxSymbols = std::min(bucket.sourceLength - 1, bucket.targetLength - 1);
  int64_t correct = 0, done = 0;
  // Fresh sequences: batch indices counting down from the top of the
  // streams, which training (counting up from 0) does not reach.
  for (uint64_t index = 0x7fffffff; done < sequences; --index) {
    int64_t rows = std::min<int64_t>(bucket.batch, sequences - done);
    std::vector<rt::SentencePair> pairs =
        rt::syntheticPairs(*task, vocab, rows, maxSymbols, evalSeed, index);
    std::vector<std::vector<int32_t>> sources;
    for (const rt::SentencePair &pair : pairs)
      sources.push_back(pair.source);
    auto decoded =
        rt::greedyDecode(*loaded.executable, *loaded.device, bucket, sources, error);
    if (!decoded)
      return fail(error);
    for (int64_t r = 0; r < rows; ++r)
      correct += (*decoded)[r] == pairs[r].target;
    done += rows;
  }
  std::printf("exact match: %lld/%lld = %.2f%% (%s task, greedy decoding, "
              "checkpoint at step %lld)\n",
              (long long)correct, (long long)done, 100.0 * correct / done,
              synthetic.c_str(), (long long)state->step);
  return kSuccess;
}
