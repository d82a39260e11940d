//===- Trainer.cpp - the training loop of tc-run ----------------------------===//
//
// train() in four pieces: setUpRun (the checkpoint directory's lock, a fresh
// or resumed state, the data), the metrics log, the step loop (runStep), and
// the checkpoint policy (CheckpointWriter: periodic, at the end, on a signal;
// never a non-finite state).
//
//===----------------------------------------------------------------------===//

#include "runtime/train/Trainer.h"
#include "runtime/Progress.h"
#include "runtime/data/Buckets.h"
#include "runtime/data/SubwordVocabulary.h"
#include "runtime/format/TcxFile.h"
#include "runtime/train/Checkpoint.h"
#include "runtime/train/CheckpointDirectory.h"
#include "runtime/train/DataParallel.h"
#include "runtime/train/DirectoryLock.h"
#include "runtime/train/MetricsLog.h"
#include "runtime/train/ParameterArchive.h"
#include "runtime/train/ParameterInit.h"
#include "runtime/train/StopOnSignals.h"

#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>

namespace fs = std::filesystem;

namespace tc::rt {
namespace {

namespace binding = contract::binding;

uint64_t fingerprintOf(const std::string &text) {
  return tcx::checksum(reinterpret_cast<const uint8_t *>(text.data()),
                       text.size());
}

bool finite(const std::vector<uint8_t> &floats) {
  const float *p = reinterpret_cast<const float *>(floats.data());
  for (size_t i = 0; i < floats.size() / 4; ++i)
    if (!std::isfinite(p[i]))
      return false;
  return true;
}

/// What a run has once it is set up: its checkpoint directory locked, its
/// state (fresh or resumed; parameters and moments already on the device)
/// and its data.
struct Run {
  std::string checkpoint; ///< the checkpoint file; empty: none
  uint64_t fingerprint = 0;
  DirectoryLock lock;
  TrainingState state;
  std::unique_ptr<DataSource> data;
  std::vector<BucketShape> buckets;
  Vocabulary vocab;
  std::unique_ptr<Validation> validation; ///< null: none
  ValidationMetric metric = ValidationMetric::Loss;
  BestValidation best;
  /// The resumed step is one to validate that a signal stopped first.
  bool validationPending = false;
};

/// A fresh run must not write over what an earlier run left in its
/// directory.
bool checkFreshDirectory(const std::string &directory, std::string &error) {
  std::error_code ec;
  for (const std::string &path :
       {checkpointPath(directory), bestCheckpointPath(directory)})
    if (fs::exists(path, ec)) {
      error = path + " already holds a checkpoint; pass --resume to "
                     "continue that run, or choose another "
                     "--checkpoint-dir (nothing was overwritten)";
      return false;
    }
  std::vector<NumberedCheckpoint> numbered = numberedCheckpoints(directory);
  if (!numbered.empty()) {
    error = directory + " holds checkpoints of an earlier run (" +
            numbered.front().path +
            "); choose another --checkpoint-dir (nothing was overwritten)";
    return false;
  }
  return true;
}

/// The validation set, and where keep-best stands (a resumed run's own).
bool setUpValidation(const Executable &executable,
                     const TrainOptions &options, Run &run,
                     std::string &error) {
  const ValidationOptions &v = options.validation;
  if (v.tokenFile.empty())
    return true;
  run.validation = Validation::open(executable, v.tokenFile,
                                    run.data->vocabulary(), v.translate, error);
  if (!run.validation)
    return false;
  bool text = !run.data->vocabulary().empty();
  run.metric = v.metric.value_or(text ? ValidationMetric::Bleu
                                      : ValidationMetric::Loss);
  if (run.metric != ValidationMetric::Loss && !text) {
    error = std::string("--keep-best ") + validationMetricName(run.metric) +
            " needs text: the training data holds no vocabulary (it was "
            "prepared with --ids); pass --keep-best loss";
    return false;
  }
  run.best.metric = validationMetricName(run.metric);
  if (options.resume) {
    std::optional<BestValidation> best =
        readBestValidation(options.checkpointDir, run.state.step, error);
    if (!best)
      return false;
    if (best->metric == run.best.metric)
      run.best = *best;
    int64_t step = run.state.step;
    run.validationPending =
        v.every > 0 && step % v.every == 0 && run.best.last < step;
  }
  if (!options.quiet)
    std::fprintf(stderr, "tc-run: validation: %s every %lld steps\n",
                 run.validation->describe().c_str(), (long long)v.every);
  return true;
}

/// Rank 0's part of setting a run up: the checkpoint directory's lock and
/// the state, fresh or resumed.
bool setUpState(const Executable &executable, const TrainOptions &options,
                Run &run, std::string &error) {
  const tcx::Executable &x = executable.root();
  if (!options.checkpointDir.empty()) {
    run.checkpoint = checkpointPath(options.checkpointDir);
    std::error_code ec;
    if (!options.resume)
      fs::create_directories(options.checkpointDir, ec);
    if (ec) {
      error = "cannot create the checkpoint directory " +
              options.checkpointDir + ": " + ec.message();
      return false;
    }
    if (fs::is_directory(options.checkpointDir) &&
        !run.lock.acquire(options.checkpointDir, error))
      return false;
  }
  TrainingState &state = run.state;
  if (options.resume) {
    std::optional<TrainingState> loaded =
        readCheckpoint(run.checkpoint, run.fingerprint, x.param_bytes(), error);
    if (!loaded)
      return false;
    state = std::move(*loaded);
  } else {
    if (!run.checkpoint.empty() &&
        !checkFreshDirectory(options.checkpointDir, error))
      return false;
    state.seed = options.seed;
    if (options.initialParameters.empty()) {
      state.params.assign(x.param_bytes(), 0);
      initializeParameters(x, state.params.data(), state.seed);
    } else {
      std::optional<std::vector<uint8_t>> params =
          importParameters(x, options.initialParameters, error);
      if (!params)
        return false;
      state.params = std::move(*params);
    }
  }
  return true;
}

/// Every rank's part: the data, drawn with the run's seed (a resumed run's
/// own), which must be the data the state was trained on.
bool setUpData(const Executable &executable, const TrainOptions &options,
               Run &run, std::string &error) {
  TrainingState &state = run.state;
  int64_t accumulation = accumulationStepsOf(executable.root());
  if (accumulation > 1 && run.buckets.size() > 1) {
    // Batches are cut per bucket and drawn in any order: the micro-batches
    // of one step would often need a bucket no description lists.
    error = options.executablePath + " sums " + std::to_string(accumulation) +
            " micro-batches per step ([training] accumulation_steps) over " +
            std::to_string(run.buckets.size()) +
            " shape buckets, but a step's micro-batches share one compiled "
            "shape; compile it with one bucket, or with accumulation_steps "
            "= 1 and train on more ranks (mpirun -np K)";
    return false;
  }
  run.data = makeDataSource(executable.root(), options.data, state.seed, error);
  if (!run.data)
    return false;
  // The description, and the version of the batch order (2: an order of
  // its own per epoch), so that a checkpoint never resumes on other data or
  // another order.
  uint64_t dataFingerprint =
      fingerprintOf(run.data->describe() + "\norder 2");
  if (options.resume && state.dataFingerprint != dataFingerprint) {
    error = checkpointPath(options.checkpointDir) +
            " was trained on other data than " + run.data->describe() +
            "; resume with the --data or --synthetic it was trained with";
    return false;
  }
  state.dataFingerprint = dataFingerprint;
  // Translate refuses a vocabulary other than the one the run trained with.
  uint64_t vocabulary = run.data->vocabulary().empty()
                            ? 0
                            : vocabularyFingerprint(run.data->vocabulary());
  if (options.resume && state.vocabularyFingerprint != 0 &&
      state.vocabularyFingerprint != vocabulary) {
    error = checkpointPath(options.checkpointDir) +
            " was trained with another vocabulary than " +
            run.data->describe() +
            "'s; resume with data prepared with the run's vocabulary.model "
            "(tc-run prepare --vocabulary)";
    return false;
  }
  state.vocabularyFingerprint = vocabulary;
  if (options.resume && options.steps <= state.step) {
    error = checkpointPath(options.checkpointDir) + " is at step " +
            std::to_string(state.step) +
            "; pass --steps larger than that to train further";
    return false;
  }
  return true;
}

/// Rank 0's last part: validation, and the vocabulary beside the
/// checkpoints.
bool setUpOutputs(const Executable &executable, const TrainOptions &options,
                  Run &run, std::string &error) {
  if (!options.quiet)
    std::fprintf(stderr, "tc-run: data: %s\n", run.data->describe().c_str());
  if (!setUpValidation(executable, options, run, error))
    return false;
  // Last: a run refused above leaves nothing in its directory.
  if (!run.checkpoint.empty() && !run.data->vocabulary().empty() &&
      !storeVocabulary(options.checkpointDir, run.data->vocabulary(), error))
    return false;
  if (!options.quiet && run.data->skipped() > 0)
    std::fprintf(stderr,
                 "tc-run: note: %lld pairs fit no shape bucket and are left "
                 "out; add a larger bucket to keep them\n",
                 (long long)run.data->skipped());
  return true;
}

/// A hash of the options that decide when the ranks talk to each other.
int64_t scheduleOf(const TrainOptions &options) {
  std::string text =
      std::to_string(options.checkpointEvery) + " " +
      std::to_string(options.validation.tokenFile.empty()
                         ? 0
                         : options.validation.every) +
      " " + std::to_string(options.checkRanksEvery) + " " +
      std::to_string(options.maxSeconds > 0);
  return int64_t(fingerprintOf(text));
}

/// Sets the run up on every rank: rank 0 locks the directory and makes or
/// reads the state, which every rank then holds; each its data; the same
/// start everywhere; the state on the device.
bool setUpRun(const Executable &executable, Device &device,
              Communicator &ranks, const TrainOptions &options, Run &run,
              std::string &error) {
  const tcx::Executable &x = executable.root();
  bool lead = ranks.rank() == 0;
  run.fingerprint = parameterFingerprint(x);
  run.buckets = bucketsOf(x);
  run.vocab = vocabularyOf(x);
  if (!allStarted(ranks, !lead || setUpState(executable, options, run, error),
                  error))
    return false;
  shareState(ranks, x.param_bytes(), run.state);
  if (!allStarted(ranks, setUpData(executable, options, run, error), error))
    return false;
  StartFingerprint start{executable.fingerprint(), run.state.dataFingerprint,
                         options.resume ? run.state.seed : options.seed,
                         options.steps, options.resume ? 1 : 0,
                         scheduleOf(options)};
  if (!sameStart(ranks, start, error))
    return false;
  if (!allStarted(ranks,
                  !lead || setUpOutputs(executable, options, run, error),
                  error))
    return false;
  loadState(device, run.state);
  releaseState(run.state); // the device holds them; read back at checkpoints
  return true;
}

/// Writes the run's checkpoint (after the metrics up to its step are on
/// disk), unless the parameters are not finite: the last one is kept then.
class CheckpointWriter {
public:
  CheckpointWriter(const tcx::Executable &x, Device &device, Run &run,
                   MetricsLog &metrics, const TrainOptions &options)
      : x_(x), device_(device), run_(run), metrics_(metrics),
        options_(options) {}

  bool save(std::string &error) {
    if (!metrics_.sync(error))
      return false;
    if (run_.checkpoint.empty())
      return true;
    TrainingState &state = run_.state;
    saveState(device_, x_.param_bytes(), state);
    bool written =
        finite(state.params) &&
        writeCheckpoint(run_.checkpoint, state, run_.fingerprint, error);
    if (!written && error.empty())
      error = "the parameters are not finite after step " +
              std::to_string(state.step) +
              "; not writing a checkpoint (the last one is kept); lower the "
              "learning rate or enable gradient_clip";
    releaseState(state);
    savedStep_ = state.step;
    return written &&
           (options_.keepLast == 0 ||
            keepNumberedCheckpoint(options_.checkpointDir,
                                   {run_.fingerprint, state.seed,
                                    state.dataFingerprint, state.step},
                                   options_.keepLast, error));
  }

  /// Saves unless the state at this step is saved already.
  bool saveOnce(std::string &error) {
    return savedStep_ == run_.state.step || save(error);
  }

private:
  const tcx::Executable &x_;
  Device &device_;
  Run &run_;
  MetricsLog &metrics_;
  const TrainOptions &options_;
  int64_t savedStep_ = -1;
};

bool bindBatch(Device &device, const tcx::Function &function,
               const Batch &batch, uint64_t seed, int64_t step) {
  int64_t rng[2] = {int64_t(seed), step};
  return device.writeInput(function, binding::kSourceIds, batch.source) &&
         device.writeInput(function, binding::kTargetIn, batch.targetIn) &&
         device.writeInput(function, binding::kTargetOut, batch.targetOut) &&
         device.writeInput(function, binding::kRng, rng, sizeof rng);
}

/// What one training step returned.
struct StepOutputs {
  float loss = 0, learningRate = 0;
  int32_t tokens = 0;
  int64_t batchTokens = 0; ///< source and target tokens fed
  int64_t batchSlots = 0;  ///< source and target positions, with padding
};

/// Runs step `step` on this rank's micro-batches (Shard); false with
/// `error` when they fit no bucket or the function does not bind as a
/// training step.
bool runStep(const Executable &executable, Device &device, Run &run,
             const Shard &shard, int64_t step, StepOutputs &out,
             std::string &error) {
  uint64_t first = shard.first(run.state.dataPosition);
  std::vector<std::vector<SentencePair>> micro;
  for (int64_t m = 0; m < shard.accumulation; ++m)
    micro.push_back(run.data->batch(first + m));
  std::optional<BucketShape> bucket = bucketFor(run.buckets, micro);
  const tcx::Function *function =
      bucket ? executable.function(tcx::FunctionRole::TrainStep, *bucket)
             : nullptr;
  // The micro-batches one after another: the step's leading dimension.
  Batch batch;
  for (const std::vector<SentencePair> &pairs : micro) {
    Batch part;
    if (!function ||
        !fillBatch(pairs, run.vocab, bucket->batch, bucket->sourceLength,
                   bucket->targetLength, part)) {
      error = "batch " + std::to_string(first) + " of " +
              run.data->describe() + " fits no shape bucket";
      return false;
    }
    batch.source.insert(batch.source.end(), part.source.begin(),
                        part.source.end());
    batch.targetIn.insert(batch.targetIn.end(), part.targetIn.begin(),
                          part.targetIn.end());
    batch.targetOut.insert(batch.targetOut.end(), part.targetOut.begin(),
                           part.targetOut.end());
    batch.tokens += part.tokens;
    batch.rows += part.rows;
    batch.sourceLength = part.sourceLength;
    batch.targetLength = part.targetLength;
  }
  bool bound =
      bindBatch(device, *function, batch, shard.seed(run.state.seed), step);
  if (bound)
    device.run(*function);
  if (!bound ||
      !device.readOutput(*function, binding::kLoss, &out.loss,
                         sizeof out.loss) ||
      !device.readOutput(*function, binding::kTokens, &out.tokens,
                         sizeof out.tokens) ||
      !device.readOutput(*function, binding::kLearningRate, &out.learningRate,
                         sizeof out.learningRate)) {
    error = function->name()->str() + " does not take " +
            std::string(binding::kSourceIds) + ", " +
            std::string(binding::kTargetIn) + ", " +
            std::string(binding::kTargetOut) + " and " +
            std::string(binding::kRng) + " or return " +
            std::string(binding::kLoss) + ", " + std::string(binding::kTokens) +
            " and " + std::string(binding::kLearningRate) +
            " as a training step does";
    return false;
  }
  out.batchTokens = batch.tokens;
  out.batchSlots =
      batch.rows * (batch.sourceLength + batch.targetLength);
  return true;
}

/// Scores the run's parameters on its validation set, logs the scores, and
/// keeps the best checkpoint (the state at this step, saved first); sets
/// `stop` when `patience` evaluations in a row did not improve.
bool validate(Device &device, const TrainOptions &options, Run &run,
              MetricsLog &metrics, CheckpointWriter &checkpoints,
              double elapsedSeconds, bool &stop, std::string &error) {
  if (!checkpoints.saveOnce(error))
    return false;
  std::optional<ValidationScores> scores =
      run.validation->run(device, error);
  if (!scores)
    return false;
  int64_t step = run.state.step;
  if (!metrics.writeValidation(step, *scores, elapsedSeconds, error))
    return false;
  const ValidationOptions &v = options.validation;
  std::optional<double> value = metricValue(run.metric, *scores);
  // A non-finite score (a diverged validation loss) is never the best: it
  // would freeze best.tcck, and validation.txt refuses it on --resume.
  bool better = value && std::isfinite(*value) && (run.best.step == 0 ||
                          improves(run.metric, *value, run.best.best));
  if (better) {
    run.best.best = *value;
    run.best.step = step;
    run.best.since = 0;
  } else {
    ++run.best.since;
  }
  run.best.last = step;
  if (!options.quiet) {
    char line[256];
    int length = std::snprintf(
        line, sizeof line, "tc-run: step %lld: validation loss %.4f "
        "(perplexity %.2f)", (long long)step, scores->loss, scores->perplexity);
    if (scores->bleu)
      length += std::snprintf(line + length, sizeof line - length,
                              ", BLEU %.2f, chrF %.2f", *scores->bleu,
                              *scores->chrf);
    if (better)
      std::snprintf(line + length, sizeof line - length, " (best)");
    else
      std::snprintf(line + length, sizeof line - length,
                    " (best %s %.4g at step %lld)", run.best.metric.c_str(),
                    run.best.best, (long long)run.best.step);
    std::fprintf(stderr, "%s\n", line);
  }
  if (!options.checkpointDir.empty()) {
    if (better && !linkCheckpoint(run.checkpoint,
                                  bestCheckpointPath(options.checkpointDir),
                                  error))
      return false;
    if (!writeBestValidation(options.checkpointDir, run.best, error))
      return false;
  }
  stop = v.patience > 0 && run.best.since >= v.patience;
  return true;
}

} // namespace

support::Output runOutput(const TrainOptions &options, const std::string &flag,
                          const std::string &path, std::string_view magic) {
  return {flag,
          path,
          flag == "--profile" ? "the profile" : "the metrics",
          magic,
          {{options.executablePath, "the executable"},
           {options.data.tokenFile, "the training data"},
           {options.validation.tokenFile, "the validation data"},
           {options.initialParameters, "the initial parameters"}},
          options.checkpointDir};
}

TrainResult train(const Executable &executable, Device &device,
                  Communicator &ranks, const TrainOptions &options,
                  std::string &error) {
  const tcx::Executable &x = executable.root();
  TrainResult result;
  result.kind = TrainResult::Failed;
  bool lead = ranks.rank() == 0;
  Shard shard = shardOf(ranks, x);
  Run run;
  if (!setUpRun(executable, device, ranks, options, run, error))
    return result;
  MetricsLog metrics; // rank 0's; the others' writes nothing
  if (!allStarted(
          ranks,
          !lead || metrics.open(runOutput(options, "--metrics",
                                          options.metricsPath, kMetricsMagic),
                                options.resume, run.state.step, error),
          error))
    return result;
  CheckpointWriter checkpoints(x, device, run, metrics, options);

  result.kind = TrainResult::Finished;
  StopOnSignals signals;
  Progress progress(run.state.step, options.steps, stderr, options.maxSeconds);
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  int64_t tokens = 0, slots = 0;
  double validationSeconds = 0; ///< not counted in the throughput
  auto runValidation = [&](bool &stop) {
    double began = elapsed();
    bool ok = validate(device, options, run, metrics, checkpoints, began,
                       stop, error);
    validationSeconds += elapsed() - began;
    return ok;
  };
  // Work rank 0 does alone (checkpoints, validation): every rank waits for
  // its verdict, so that the ranks go on, or stop, together.
  auto leadAlone = [&](auto work) {
    Verdict verdict = Verdict::Continue;
    if (lead) {
      bool stop = false;
      verdict = !work(stop) ? Verdict::Failed
                : stop      ? Verdict::StopEarly
                            : Verdict::Continue;
    }
    verdict = shareVerdict(ranks, verdict);
    if (verdict == Verdict::Failed && !lead)
      error = "rank 0 failed (its message says why)";
    return verdict;
  };
  bool stopEarly = false;
  {
    Verdict verdict = leadAlone([&](bool &stop) {
      return !run.validationPending || runValidation(stop);
    });
    if (verdict == Verdict::Failed) {
      result.kind = TrainResult::Failed;
      return result;
    }
    stopEarly = verdict == Verdict::StopEarly;
  }
  if (stopEarly)
    result.endedEarly = "early stopping";
  while (run.state.step < options.steps && !stopEarly) {
    int64_t step = run.state.step + 1;
    StepOutputs out;
    if (!runStep(executable, device, run, shard, step, out, error)) {
      result.kind = TrainResult::Failed;
      break;
    }
    // Loss and tokens are the job's (summed over the ranks by the step).
    double perToken = out.tokens > 0 ? out.loss / out.tokens : 0.0;
    if (!std::isfinite(perToken)) {
      error = "the loss is not finite at step " + std::to_string(step) +
              "; stopping without writing a checkpoint (the last one is "
              "kept); lower the learning rate or enable gradient_clip";
      result.kind = TrainResult::Failed;
      break;
    }
    run.state.step = step;
    run.state.dataPosition += shard.perUpdate();
    double seconds = elapsed();
    StepReport report{out.batchTokens, out.batchSlots,
                      signals.stopRequested() ? 1 : 0,
                      lead && options.maxSeconds > 0 &&
                              seconds >= options.maxSeconds &&
                              step < options.steps
                          ? 1
                          : 0};
    exchangeReports(ranks, report, options.collectiveTimeout);
    tokens += report.tokens;
    slots += report.slots;
    double trainingSeconds = seconds - validationSeconds;
    double throughput = trainingSeconds > 0 ? tokens / trainingSeconds : 0.0;
    if (!metrics.write(
            {step, perToken, out.learningRate, out.tokens, throughput, seconds},
            error)) {
      result.kind = TrainResult::Failed;
      break;
    }
    if (!options.quiet)
      progress.update(step, perToken, out.learningRate, throughput);
    if (options.checkRanksEvery > 0 && step % options.checkRanksEvery == 0 &&
        !sameParameters(ranks, device, x.param_bytes(), step,
                        options.collectiveTimeout, error)) {
      result.kind = TrainResult::Failed;
      break;
    }
    if (report.stopping > 0) {
      result.kind = TrainResult::Stopped;
      int own = signals.stopRequested();
      result.signal = own ? own : SIGTERM; // another rank's signal
      break;
    }
    if (report.outOfTime > 0) {
      result.endedEarly = "the time limit";
      break;
    }
    bool last = step == options.steps;
    bool periodic =
        options.checkpointEvery > 0 && step % options.checkpointEvery == 0;
    bool validating = !options.validation.tokenFile.empty() &&
                      options.validation.every > 0 &&
                      step % options.validation.every == 0;
    if (last || (!periodic && !validating))
      continue;
    Verdict verdict = leadAlone([&](bool &stop) {
      return (!periodic || checkpoints.save(error)) &&
             (!validating || runValidation(stop));
    });
    if (verdict == Verdict::Failed) {
      result.kind = TrainResult::Failed;
      break;
    }
    if (verdict == Verdict::StopEarly) {
      result.endedEarly = "early stopping";
      break;
    }
  }
  if (!options.quiet)
    progress.finish();
  result.step = run.state.step;
  if (result.kind == TrainResult::Failed)
    return result;
  // The end of a run (not a signal's stop) is validated too.
  bool validated = run.validation && result.kind == TrainResult::Finished &&
                   result.endedEarly != "early stopping";
  Verdict verdict = leadAlone([&](bool &stop) {
    return (!validated || runValidation(stop)) && checkpoints.saveOnce(error);
  });
  if (verdict == Verdict::Failed) {
    result.kind = TrainResult::Failed;
    return result;
  }
  if (!options.quiet && slots > 0)
    std::fprintf(stderr,
                 "tc-run: trained on %lld tokens in %lld padded positions: "
                 "padding share %.1f%%\n",
                 (long long)tokens, (long long)slots,
                 100.0 * double(slots - tokens) / double(slots));
  return result;
}

} // namespace tc::rt
