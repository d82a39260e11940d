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
#include "runtime/format/TcxFile.h"
#include "runtime/train/Checkpoint.h"
#include "runtime/train/DirectoryLock.h"
#include "runtime/train/MetricsLog.h"
#include "runtime/train/ParameterInit.h"
#include "runtime/train/StopOnSignals.h"

#include <chrono>
#include <cmath>
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
};

bool setUpRun(const tcx::Executable &x, Device &device,
              const TrainOptions &options, Run &run, std::string &error) {
  run.fingerprint = parameterFingerprint(x);
  run.buckets = bucketsOf(x);
  run.vocab = vocabularyOf(x);
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
    if (!run.checkpoint.empty() && fs::exists(run.checkpoint)) {
      error = run.checkpoint + " already holds a checkpoint; pass --resume to "
                               "continue that run, or choose another "
                               "--checkpoint-dir (nothing was overwritten)";
      return false;
    }
    state.seed = options.seed;
    state.params.assign(x.param_bytes(), 0);
    initializeParameters(x, state.params.data(), state.seed);
  }
  // The data is drawn with the run's seed: a resumed run's own.
  run.data = makeDataSource(x, options.data, state.seed, error);
  if (!run.data)
    return false;
  uint64_t dataFingerprint = fingerprintOf(run.data->describe());
  if (options.resume && state.dataFingerprint != dataFingerprint) {
    error = run.checkpoint + " was trained on other data than " +
            run.data->describe() +
            "; resume with the --data or --synthetic it was trained with";
    return false;
  }
  state.dataFingerprint = dataFingerprint;
  if (options.resume && options.steps <= state.step) {
    error = run.checkpoint + " is at step " + std::to_string(state.step) +
            "; pass --steps larger than that to train further";
    return false;
  }
  if (!options.quiet)
    std::fprintf(stderr, "tc-run: data: %s\n", run.data->describe().c_str());
  if (!options.quiet && run.data->skipped() > 0)
    std::fprintf(stderr,
                 "tc-run: note: %lld pairs fit no shape bucket and are left "
                 "out; add a larger bucket to keep them\n",
                 (long long)run.data->skipped());
  loadState(device, state);
  releaseState(state); // the device holds them; read back at checkpoints
  return true;
}

/// Writes the run's checkpoint (after the metrics up to its step are on
/// disk), unless the parameters are not finite: the last one is kept then.
class CheckpointWriter {
public:
  CheckpointWriter(const tcx::Executable &x, Device &device, Run &run,
                   MetricsLog &metrics)
      : x_(x), device_(device), run_(run), metrics_(metrics) {}

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
    return written;
  }

private:
  const tcx::Executable &x_;
  Device &device_;
  Run &run_;
  MetricsLog &metrics_;
};

bool bindBatch(Device &device, const tcx::Function &function,
               const Batch &batch, uint64_t seed, int64_t step) {
  int64_t rng[2] = {int64_t(seed), step};
  return device.writeInput(function, binding::kSourceIds, batch.source.data(),
                           batch.source.size() * 4) &&
         device.writeInput(function, binding::kTargetIn, batch.targetIn.data(),
                           batch.targetIn.size() * 4) &&
         device.writeInput(function, binding::kTargetOut,
                           batch.targetOut.data(),
                           batch.targetOut.size() * 4) &&
         device.writeInput(function, binding::kRng, rng, sizeof rng);
}

/// What one training step returned.
struct StepOutputs {
  float loss = 0, learningRate = 0;
  int32_t tokens = 0;
  int64_t batchTokens = 0; ///< source and target tokens fed
};

/// Runs step `step` on the run's next batch; false with `error` when the
/// batch fits no bucket or the function does not bind as a training step.
bool runStep(const Executable &executable, Device &device, Run &run,
             int64_t step, StepOutputs &out, std::string &error) {
  std::vector<SentencePair> pairs = run.data->batch(run.state.dataPosition);
  std::optional<BucketShape> bucket = bucketFor(run.buckets, pairs);
  const tcx::Function *function =
      bucket ? executable.function(tcx::FunctionRole::TrainStep, *bucket)
             : nullptr;
  Batch batch;
  if (!function ||
      !fillBatch(pairs, run.vocab, bucket->batch, bucket->sourceLength,
                 bucket->targetLength, batch)) {
    error = "batch " + std::to_string(run.state.dataPosition) + " of " +
            run.data->describe() + " fits no shape bucket";
    return false;
  }
  bool bound = bindBatch(device, *function, batch, run.state.seed, step);
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
  return true;
}

} // namespace

std::vector<support::ProtectedFile>
protectedFiles(const TrainOptions &options) {
  std::vector<support::ProtectedFile> files = {
      {options.executablePath, "the executable"},
      {options.data.tokenFile, "the training data"}};
  if (!options.checkpointDir.empty()) {
    files.push_back({checkpointPath(options.checkpointDir), "the checkpoint"});
    files.push_back({DirectoryLock::pathIn(options.checkpointDir),
                     "the checkpoint directory's lock"});
  }
  return files;
}

TrainResult train(const Executable &executable, Device &device,
                  const TrainOptions &options, std::string &error) {
  const tcx::Executable &x = executable.root();
  TrainResult result;
  result.kind = TrainResult::Failed;
  Run run;
  if (!setUpRun(x, device, options, run, error))
    return result;
  MetricsLog metrics;
  std::vector<support::ProtectedFile> protect = protectedFiles(options);
  if (!metrics.open(options.metricsPath, options.resume, run.state.step,
                    protect, error))
    return result;
  CheckpointWriter checkpoints(x, device, run, metrics);

  result.kind = TrainResult::Finished;
  StopOnSignals signals;
  Progress progress(run.state.step, options.steps, stderr);
  auto start = std::chrono::steady_clock::now();
  int64_t tokens = 0;
  while (run.state.step < options.steps) {
    int64_t step = run.state.step + 1;
    StepOutputs out;
    if (!runStep(executable, device, run, step, out, error)) {
      result.kind = TrainResult::Failed;
      break;
    }
    double perToken = out.tokens > 0 ? out.loss / out.tokens : 0.0;
    if (!std::isfinite(perToken)) {
      error = "the loss is not finite at step " + std::to_string(step) +
              "; stopping without writing a checkpoint (the last one is "
              "kept); lower the learning rate or enable gradient_clip";
      result.kind = TrainResult::Failed;
      break;
    }
    run.state.step = step;
    ++run.state.dataPosition;
    tokens += out.batchTokens;
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    double throughput = seconds > 0 ? tokens / seconds : 0.0;
    if (!metrics.write(
            {step, perToken, out.learningRate, out.tokens, throughput, seconds},
            error)) {
      result.kind = TrainResult::Failed;
      break;
    }
    if (!options.quiet)
      progress.update(step, perToken, out.learningRate, throughput);
    if (int signal = signals.stopRequested()) {
      result.kind = TrainResult::Stopped;
      result.signal = signal;
      break;
    }
    bool periodic =
        options.checkpointEvery > 0 && step % options.checkpointEvery == 0;
    if (periodic && step < options.steps && !checkpoints.save(error)) {
      result.kind = TrainResult::Failed;
      break;
    }
  }
  if (!options.quiet)
    progress.finish();
  result.step = run.state.step;
  if (result.kind != TrainResult::Failed && !checkpoints.save(error))
    result.kind = TrainResult::Failed;
  return result;
}

} // namespace tc::rt
