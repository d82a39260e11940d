//===- TrainCommand.cpp - tc-run train ------------------------------------===//

#include "CommandLine.h"
#include "runtime/collective/Ranks.h"
#include "runtime/format/Contract.h"
#include "runtime/report/ProfileReport.h"
#include "runtime/train/DataParallel.h"
#include "runtime/train/MetricsLog.h"
#include "runtime/train/Trainer.h"
#include "support/OutputPath.h"

#include <chrono>
#include <climits>
#include <filesystem>

namespace tc::run {
namespace {

struct TrainCommandOptions {
  ModelOptions model;
  rt::TrainOptions train;
  int64_t steps = 0;
  int64_t seed = 0;
  bool seedGiven = false;
  std::string profilePath;
  std::string metric; ///< --keep-best
  double minutes = 0; ///< --time-limit
};

/// Bounds of the durations a user gives: about two years of training, and
/// about eleven days for one sum to wait (0: for ever).
constexpr double kMaxTimeLimitMinutes = 1e6;
constexpr double kMaxCollectiveTimeout = 1e6;

/// Takes the description's [data] valid where the run's data come from its
/// [data] section (neither --data nor --synthetic) and --valid is not
/// given; returns the refusal of a validation option without validation
/// pairs (empty: none).
std::string resolveValidationPairs(const tcx::RunConfig *run,
                                   TrainCommandOptions &o) {
  rt::ValidationOptions &v = o.train.validation;
  bool dataFromDescription =
      o.train.data.tokenFile.empty() && o.train.data.synthetic.empty();
  if (dataFromDescription && v.tokenFile.empty() && run && run->valid_data() &&
      run->valid_data()->size() > 0) {
    v.tokenFile = run->valid_data()->str();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(v.tokenFile, ec))
      return "the model description's [data] valid: " + v.tokenFile +
             " is not a file (a path from the working directory); pass "
             "--valid FILE.tok";
  }
  // Each of these options is at least 1 (or a name) when given.
  const char *given = v.every > 0         ? "--valid-every"
                      : v.translate > 0   ? "--valid-translate"
                      : !o.metric.empty() ? "--keep-best"
                      : v.patience > 0    ? "--early-stop"
                                          : nullptr;
  if (!given || !v.tokenFile.empty())
    return "";
  return std::string(given) +
         " needs validation pairs: pass --valid FILE.tok (or set [data] "
         "valid in the model description, which is used when neither "
         "--data nor --synthetic is given)";
}

int trainAsRank(TrainCommandOptions o, rt::Communicator *ranks) {
  std::string error;
  bool lead = ranks->rank() == 0;
  auto onRank = [&](const std::string &message) {
    return ranks->size() > 1
               ? "rank " + std::to_string(ranks->rank()) + ": " + message
               : message;
  };
  if (!lead) {
    o.train.quiet = true; // rank 0 speaks for the job
    o.profilePath.clear();
  }
  LoadedModel loaded;
  if (int code = loadModel(o.model, loaded))
    return code;
  if (!loaded.device->joinRanks(*ranks, o.train.collectiveTimeout, error))
    return fail(onRank(error));
  const tcx::RunConfig *run = loaded.executable->root().run();
  o.train.steps = o.steps > 0 ? o.steps : run ? run->steps() : 0;
  o.train.seed = o.seedGiven ? uint64_t(o.seed) : run ? run->seed() : 1;
  o.train.executablePath = o.model.model;
  o.train.maxSeconds = 60 * o.minutes;
  if (std::string message = resolveValidationPairs(run, o); !message.empty())
    return fail(message);
  if (!o.metric.empty())
    o.train.validation.metric = rt::parseValidationMetric(o.metric);
  if (!o.train.validation.tokenFile.empty() && o.train.validation.every == 0)
    o.train.validation.every = o.train.checkpointEvery;
  if (o.train.resume && o.train.checkpointDir.empty())
    return fail("--resume needs --checkpoint-dir");
  if (o.train.resume && !o.train.initialParameters.empty())
    return fail("--init starts a new run; a resumed run continues from its "
                "checkpoint");
  if (o.train.keepLast > 0 && o.train.checkpointDir.empty())
    return fail("--keep-last needs --checkpoint-dir");
  if (o.train.steps < 1)
    return fail("no step count: pass --steps N");
  if (!o.train.quiet)
    std::fprintf(stderr, "tc-run: training %s, %lld step%s, device %s\n",
                 o.model.model.c_str(), (long long)o.train.steps,
                 o.train.steps == 1 ? "" : "s",
                 loaded.device->describe().c_str());
  if (!o.train.quiet && ranks->size() > 1)
    std::fprintf(stderr,
                 "tc-run: data-parallel over %d ranks (%s); rank 0 writes "
                 "the checkpoints and metrics\n",
                 ranks->size(), ranks->describe().c_str());
  // The outputs are checked before the run, which may take hours, and
  // before its directory is touched.
  // Rank 0's verdict is every rank's: the others must not wait for it in
  // the run's first sum.
  bool metricsOk = !lead || o.train.metricsPath.empty() ||
                   rt::MetricsLog::check(rt::runOutput(o.train, "--metrics",
                                                       o.train.metricsPath,
                                                       rt::kMetricsMagic),
                                         o.train.resume, error);
  if (!rt::allStarted(*ranks, metricsOk, error))
    return fail(onRank(error));
  if (!o.profilePath.empty()) {
    support::Output profile =
        rt::runOutput(o.train, "--profile", o.profilePath, rt::kProfileMagic);
    profile.protect.push_back({o.train.metricsPath, "the metrics file"});
    if (!support::checkOutputPath(profile, error))
      return fail(error);
    if (!loaded.device->startProfile())
      return fail("the " + o.model.device + " device cannot profile");
  }
  auto start = std::chrono::steady_clock::now();
  rt::TrainResult result =
      rt::train(*loaded.executable, *loaded.device, *ranks, o.train, error);
  if (result.kind == rt::TrainResult::Refused)
    return fail(onRank(error));
  if (result.kind == rt::TrainResult::Failed)
    return fail(onRank(error), kRunFailed);
  if (!o.profilePath.empty() &&
      !rt::writeProfile(o.profilePath, loaded.device->profile(),
                        std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - start)
                            .count(),
                        error))
    return fail(error, kRunFailed);
  if (!result.endedEarly.empty() && !o.train.quiet)
    std::fprintf(stderr, "tc-run: %s ended the run at step %lld\n",
                 result.endedEarly.c_str(), (long long)result.step);
  if (result.kind == rt::TrainResult::Stopped) {
    if (!lead)
      return 128 + result.signal;
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

int trainModel(const TrainCommandOptions &o) {
  // Under mpirun, this process is one rank of a data-parallel job.
  std::string error;
  std::unique_ptr<rt::Communicator> ranks = rt::connectRanks(error);
  if (!ranks)
    return fail(error);
  int code = trainAsRank(o, ranks.get());
  // A rank that fails alone must not wait for the others in MPI_Finalize
  // (they wait for it in their next sum): it ends here, and mpirun ends
  // them. Ranks stopped by a signal end here too: mpirun, tearing the job
  // down, no longer answers MPI_Finalize.
  if (code != kSuccess)
    ranks->abort(code);
  return code;
}

} // namespace

Command addTrainCommand(CLI::App &app) {
  auto o = std::make_shared<TrainCommandOptions>();
  CLI::App *command = app.add_subcommand("train", "train a model");
  addModelOptions(*command, o->model);
  command
      ->add_option("--steps", o->steps,
                   "train until this many steps are done (default: "
                   "[training] steps of the model description)")
      ->transform(integerIn(1, contract::kMaxTrainingSteps));
  command->add_option("--checkpoint-dir", o->train.checkpointDir,
                      "write checkpoint.tcck here (every "
                      "--checkpoint-every steps, at the end, on "
                      "SIGINT/SIGTERM)");
  command
      ->add_option("--checkpoint-every", o->train.checkpointEvery,
                   "steps between checkpoints (0: only at the end)")
      ->default_val(500)
      ->transform(integerIn(0, contract::kMaxTrainingSteps));
  command->add_flag("--resume", o->train.resume,
                    "continue the run in --checkpoint-dir");
  command->add_option("--metrics", o->train.metricsPath,
                      "write one JSON line per step to FILE (appended "
                      "when resuming): step, "
                      "loss (per token), learning_rate, tokens, "
                      "tokens_per_second, elapsed_seconds");
  CLI::Option *seed =
      command
          ->add_option("--seed", o->seed,
                       "seed of initialisation, dropout and synthetic "
                       "data (default: [training] seed; a resumed run "
                       "keeps its own)")
          ->transform(integerIn(0, contract::kMaxSeed));
  CLI::Option *data =
      command->add_option("--data", o->train.data.tokenFile,
                          "training pairs, a token file (tc-run prepare)");
  command
      ->add_option("--synthetic", o->train.data.synthetic,
                   "train on a synthetic task instead: copy or reverse")
      ->check(syntheticTask())
      ->excludes(data);
  command
      ->add_option("--time-limit", o->minutes,
                   "stop after the step that passes this many minutes "
                   "of wall time (validated and checkpointed as at the "
                   "end)")
      ->transform(positiveNumberUpTo(kMaxTimeLimitMinutes));
  // The options below that only validation reads need validation pairs:
  // --valid, or the description's [data] valid (checked once it is read).
  command
      ->add_option("--valid", o->train.validation.tokenFile,
                   "validation pairs, a token file (tc-run prepare "
                   "--vocabulary TRAIN.tok): loss, perplexity, and BLEU "
                   "and chrF of greedy decoding, to stderr and the metrics "
                   "file (default: the model description's [data] valid "
                   "when neither --data nor --synthetic is given)")
      ->check(CLI::ExistingFile);
  command
      ->add_option("--valid-every", o->train.validation.every,
                   "steps between validations (default: "
                   "--checkpoint-every); also at the end")
      ->transform(integerIn(1, contract::kMaxTrainingSteps));
  command
      ->add_option("--valid-translate", o->train.validation.translate,
                   "translate only the first N validation sources for BLEU "
                   "and chrF (default: all)")
      ->transform(integerIn(1, INT32_MAX));
  command
      ->add_option("--keep-best", o->metric,
                   "the validation score that decides best.tcck and early "
                   "stopping: bleu, chrf or loss (default: bleu for text, "
                   "loss for --ids data; on --resume, the one "
                   "validation.txt records, and no other)")
      ->check(CLI::IsMember({"bleu", "chrf", "loss"}));
  command
      ->add_option("--early-stop", o->train.validation.patience,
                   "stop after N validations in a row without a better "
                   "score (default: never)")
      ->transform(integerIn(1, INT32_MAX));
  command
      ->add_option("--keep-last", o->train.keepLast,
                   "keep the last N checkpoints as checkpoint-STEP.tcck "
                   "(for tc-run average)")
      ->transform(integerIn(1, INT32_MAX));
  command
      ->add_option("--init", o->train.initialParameters,
                   "start from the parameters in this .npz (tc-run export, "
                   "or numpy.savez with --emit=params names) instead of "
                   "the seed's initialisation")
      ->check(CLI::ExistingFile);
  command
      ->add_option("--collective-timeout", o->train.collectiveTimeout,
                   "under mpirun: seconds a sum over the ranks may wait for "
                   "the others before this rank gives up (one died or "
                   "hangs); 0: for ever")
      ->default_val(60)
      ->transform(numberIn(0, kMaxCollectiveTimeout));
  command
      ->add_option("--check-ranks-every", o->train.checkRanksEvery,
                   "under mpirun: steps between comparisons of the ranks' "
                   "parameters (a mismatch stops the run); 0: never")
      ->default_val(100)
      ->transform(integerIn(0, contract::kMaxTrainingSteps));
  command->add_flag("--quiet", o->train.quiet, "no progress output");
  command->add_option("--profile", o->profilePath,
                      "time every step of the device: a summary by op "
                      "on stderr, every kernel's time as JSON in FILE");
  return {command, [o, seed] {
            o->seedGiven = seed->count() > 0;
            return trainModel(*o);
          }};
}

} // namespace tc::run
