//===- EvalCommand.cpp - tc-run eval --------------------------------------===//

#include "CommandLine.h"
#include "runtime/decode/SyntheticEvaluation.h"
#include "runtime/format/Contract.h"
#include "runtime/train/Checkpoint.h"

#include <climits>

namespace tc::run {
namespace {

struct EvalOptions {
  ModelOptions model;
  std::string checkpointDir, synthetic;
  int64_t sequences = 1000;
  int64_t seed = 7;
};

int evaluate(EvalOptions o) {
  LoadedModel loaded;
  if (int code = loadModel(o.model, loaded))
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
                                o.sequences, uint64_t(o.seed), error);
  if (!match)
    return fail(o.model.model + ": " + error);
  std::printf("exact match: %lld/%lld = %.2f%% (%s task, greedy decoding, "
              "checkpoint at step %lld)\n",
              (long long)match->correct, (long long)match->total,
              100.0 * match->correct / match->total, o.synthetic.c_str(),
              (long long)state->step);
  return kSuccess;
}

} // namespace

Command addEvalCommand(CLI::App &app) {
  auto o = std::make_shared<EvalOptions>();
  CLI::App *command = app.add_subcommand(
      "eval", "exact-match rate of greedy decoding on fresh synthetic "
              "sequences (copy or reverse task)");
  addModelOptions(*command, o->model);
  command
      ->add_option("--checkpoint-dir", o->checkpointDir,
                   "the trained model's checkpoint directory")
      ->required();
  command->add_option("--sequences", o->sequences, "how many sequences")
      ->default_val(1000)
      ->transform(integerIn(1, INT32_MAX));
  command
      ->add_option("--seed", o->seed,
                   "seed of the fresh sequences (training draws from "
                   "other streams)")
      ->default_val(7)
      ->transform(integerIn(0, contract::kMaxSeed));
  command->add_option("--synthetic", o->synthetic,
                      "the task: copy or reverse (default: the model's)");
  return {command, [o] { return evaluate(*o); }};
}

} // namespace tc::run
