//===- EvalCommand.cpp - tc-run eval --------------------------------------===//

#include "CommandLine.h"
#include "runtime/decode/SyntheticEvaluation.h"
#include "runtime/format/Contract.h"
#include "runtime/train/Validation.h"

#include <climits>

namespace tc::run {
namespace {

struct EvalOptions {
  ModelOptions model;
  std::string checkpoint, synthetic, data;
  int64_t sequences = 1000;
  int64_t seed = 7;
  int64_t translate = 0;
};

/// Validation scores of the trained model on a token file.
int evaluateOnData(const EvalOptions &o, TrainedModel &trained) {
  std::string error;
  std::string vocabulary =
      trained.vocabulary ? trained.vocabulary->serialized() : "";
  std::unique_ptr<rt::Validation> validation = rt::Validation::open(
      *trained.executable, o.data, vocabulary, o.translate, error);
  if (!validation)
    return fail(error);
  std::optional<rt::ValidationScores> scores =
      validation->run(*trained.device, error);
  if (!scores)
    return fail(o.model.model + ": " + error, kRunFailed);
  std::printf("%s, checkpoint %s at step %lld\n",
              validation->describe().c_str(), trained.checkpoint.c_str(),
              (long long)trained.state.step);
  std::printf("loss %.6f per target token, perplexity %.4f (%lld tokens of "
              "%lld pairs; %lld pairs fit no bucket)\n",
              scores->loss, scores->perplexity, (long long)scores->tokens,
              (long long)scores->sentences, (long long)scores->leftOut);
  if (scores->bleu)
    std::printf("BLEU %.2f, chrF %.2f (greedy decoding of %lld sentences)\n",
                *scores->bleu, *scores->chrf, (long long)scores->translated);
  return kSuccess;
}

int evaluate(EvalOptions o) {
  TrainedModel trained;
  if (int code = loadTrainedModel(o.model, o.checkpoint, false, trained))
    return code;
  if (!o.data.empty())
    return evaluateOnData(o, trained);
  const tcx::Executable &x = trained.executable->root();
  if (o.synthetic.empty() && x.run() && x.run()->synthetic())
    o.synthetic = x.run()->synthetic()->str();
  std::optional<rt::SyntheticTask> task = rt::parseSyntheticTask(o.synthetic);
  if (!task)
    return fail("eval needs a synthetic task (--synthetic copy|reverse) or "
                "held-out pairs (--data FILE.tok)");
  std::string error;
  std::optional<rt::ExactMatch> match =
      rt::evaluateSyntheticTask(*trained.executable, *trained.device, *task,
                                o.sequences, uint64_t(o.seed), error);
  if (!match)
    return fail(o.model.model + ": " + error);
  std::printf("exact match: %lld/%lld = %.2f%% (%s task, greedy decoding, "
              "checkpoint at step %lld)\n",
              (long long)match->correct, (long long)match->total,
              100.0 * match->correct / match->total, o.synthetic.c_str(),
              (long long)trained.state.step);
  return kSuccess;
}

} // namespace

Command addEvalCommand(CLI::App &app) {
  auto o = std::make_shared<EvalOptions>();
  CLI::App *command = app.add_subcommand(
      "eval", "score a checkpoint on held-out pairs (--data: loss, "
              "perplexity, BLEU and chrF of greedy decoding), or its "
              "exact-match rate on fresh synthetic sequences (copy or "
              "reverse task)");
  addModelOptions(*command, o->model);
  addCheckpointOption(*command, o->checkpoint);
  CLI::Option *data =
      command
          ->add_option("--data", o->data,
                       "held-out pairs, a token file (tc-run prepare "
                       "--vocabulary TRAIN.tok)")
          ->check(CLI::ExistingFile);
  command
      ->add_option("--translate", o->translate,
                   "translate only the first N sources of --data for BLEU "
                   "and chrF (default: all)")
      ->transform(integerIn(1, INT32_MAX))
      ->needs(data);
  command->add_option("--sequences", o->sequences, "how many sequences")
      ->default_val(1000)
      ->transform(integerIn(1, INT32_MAX))
      ->excludes(data);
  command
      ->add_option("--seed", o->seed,
                   "seed of the fresh sequences (training draws from "
                   "other streams)")
      ->default_val(7)
      ->transform(integerIn(0, contract::kMaxSeed))
      ->excludes(data);
  command
      ->add_option("--synthetic", o->synthetic,
                   "the task: copy or reverse (default: the model's)")
      ->check(syntheticTask())
      ->excludes(data);
  return {command, [o] { return evaluate(*o); }};
}

} // namespace tc::run
