//===- Trainer.cpp - the training loop of tc-run ----------------------------===//

#include "runtime/Trainer.h"
#include "runtime/Buckets.h"
#include "runtime/Checkpoint.h"
#include "runtime/ParameterInit.h"
#include "runtime/Progress.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <filesystem>

namespace tc::rt {
namespace {

std::atomic<int> stopSignal{0};

/// The first SIGINT or SIGTERM asks the loop to stop after the current
/// step; a second one, while that step is still running, ends the process
/// at once (the last checkpoint stays as it was).
extern "C" void requestStop(int signal) {
  if (stopSignal != 0) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
  }
  stopSignal = signal;
}

/// SIGINT and SIGTERM ask the loop to stop after the current step.
class StopOnSignals {
public:
  StopOnSignals() {
    stopSignal = 0;
    previousInt = std::signal(SIGINT, requestStop);
    previousTerm = std::signal(SIGTERM, requestStop);
  }
  ~StopOnSignals() {
    std::signal(SIGINT, previousInt);
    std::signal(SIGTERM, previousTerm);
  }

private:
  void (*previousInt)(int);
  void (*previousTerm)(int);
};

void bindBatch(Device &device, const tcx::Function &function,
               const Batch &batch, uint64_t seed, int64_t step) {
  auto copy = [&](const char *name, const std::vector<int32_t> &ids) {
    device.writeInput(function, name, ids.data(), ids.size() * sizeof(int32_t));
  };
  copy("source_ids", batch.source);
  copy("target_in", batch.targetIn);
  copy("target_out", batch.targetOut);
  int64_t rng[2] = {int64_t(seed), step};
  device.writeInput(function, "rng", rng, sizeof rng);
}

} // namespace

void loadState(Device &device, const TrainingState &state) {
  device.write(tcx::Space::Params, 0, state.params.data(), state.params.size());
  device.write(tcx::Space::AdamM, 0, state.firstMoments.data(),
               state.firstMoments.size());
  device.write(tcx::Space::AdamV, 0, state.secondMoments.data(),
               state.secondMoments.size());
}

void saveState(Device &device, TrainingState &state) {
  for (auto [space, bytes] :
       {std::pair(tcx::Space::Params, &state.params),
        std::pair(tcx::Space::AdamM, &state.firstMoments),
        std::pair(tcx::Space::AdamV, &state.secondMoments)})
    device.read(space, 0, bytes->data(), bytes->size());
}

TrainResult train(const Executable &executable, Device &device,
                  DataSource &data, const TrainOptions &options,
                  std::string &error) {
  const tcx::Executable &x = executable.root();
  std::vector<BucketShape> buckets = bucketsOf(x);
  if (buckets.empty()) {
    error = "the executable has no shape buckets (was it compiled from a "
            "model description?)";
    return TrainResult::Failed;
  }
  uint64_t fingerprint = parameterFingerprint(x);
  std::string checkpoint =
      options.checkpointDir.empty() ? "" : checkpointPath(options.checkpointDir);
  if (!options.checkpointDir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options.checkpointDir, ec);
    if (ec) {
      error = "cannot create the checkpoint directory " +
              options.checkpointDir + ": " + ec.message();
      return TrainResult::Failed;
    }
  }

  TrainingState state;
  if (options.resume) {
    std::optional<TrainingState> loaded =
        readCheckpoint(checkpoint, fingerprint, x.param_bytes(), error);
    if (!loaded)
      return TrainResult::Failed;
    state = std::move(*loaded);
    loadState(device, state);
  } else {
    if (!checkpoint.empty() && std::filesystem::exists(checkpoint)) {
      error = checkpoint + " already holds a checkpoint; pass --resume to "
                           "continue that run, or choose another "
                           "--checkpoint-dir (nothing was overwritten)";
      return TrainResult::Failed;
    }
    state.seed = options.seed;
    state.params.assign(x.param_bytes(), 0);
    state.firstMoments.assign(x.param_bytes(), 0);
    state.secondMoments.assign(x.param_bytes(), 0);
    initializeParameters(x, state.params.data(), state.seed);
    loadState(device, state);
  }

  auto save = [&]() {
    if (checkpoint.empty())
      return true;
    saveState(device, state);
    return writeCheckpoint(checkpoint, state, fingerprint, error);
  };
  std::FILE *metrics = nullptr;
  if (!options.metricsPath.empty()) {
    metrics = std::fopen(options.metricsPath.c_str(), options.resume ? "a" : "w");
    if (!metrics) {
      error = "cannot open the metrics file " + options.metricsPath + ": " +
              std::strerror(errno);
      return TrainResult::Failed;
    }
  }

  StopOnSignals signals;
  Progress progress(state.step, options.steps, stderr);
  auto start = std::chrono::steady_clock::now();
  int64_t tokens = 0;
  TrainResult result = TrainResult::Finished;
  while (state.step < options.steps) {
    int64_t step = state.step + 1;
    std::vector<SentencePair> pairs =
        data.batch(state.dataPosition, buckets.front().batch);
    std::optional<BucketShape> bucket = bucketFor(buckets, pairs);
    Batch batch;
    if (!bucket || !fillBatch(pairs, vocabularyOf(x), bucket->batch,
                              bucket->sourceLength, bucket->targetLength, batch)) {
      error = "batch " + std::to_string(state.dataPosition) + " of " +
              data.describe() + " fits no shape bucket; add a larger bucket "
              "to the model description";
      result = TrainResult::Failed;
      break;
    }
    const tcx::Function *function = executable.function(bucket->trainStep());
    bindBatch(device, *function, batch, state.seed, step);
    device.run(*function);
    float loss = 0, rate = 0;
    int32_t count = 0;
    device.readOutput(*function, "loss", &loss, sizeof loss);
    device.readOutput(*function, "tokens", &count, sizeof count);
    device.readOutput(*function, "learning_rate", &rate, sizeof rate);
    double perToken = count > 0 ? loss / count : 0.0;
    if (!std::isfinite(perToken)) {
      error = "the loss is not finite at step " + std::to_string(step) +
              "; stopping without writing a checkpoint (the last one is "
              "kept); lower the learning rate or enable gradient_clip";
      result = TrainResult::Failed;
      break;
    }
    state.step = step;
    ++state.dataPosition;
    tokens += batch.tokens;
    double seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - start)
                         .count();
    double throughput = seconds > 0 ? tokens / seconds : 0.0;
    if (metrics)
      std::fprintf(metrics,
                   "{\"step\": %lld, \"loss\": %.6f, \"learning_rate\": %.6e, "
                   "\"tokens\": %d, \"tokens_per_second\": %.1f, "
                   "\"elapsed_seconds\": %.3f}\n",
                   (long long)step, perToken, rate, count, throughput, seconds);
    if (!options.quiet)
      progress.update(step, perToken, rate, throughput);
    bool periodic = options.checkpointEvery > 0 &&
                    step % options.checkpointEvery == 0;
    if (stopSignal != 0) {
      result = TrainResult::Stopped;
      break;
    }
    if (periodic && step < options.steps && !save()) {
      result = TrainResult::Failed;
      break;
    }
  }
  if (!options.quiet)
    progress.finish();
  if (metrics)
    std::fclose(metrics);
  if (result != TrainResult::Failed && !save())
    return TrainResult::Failed;
  return result;
}

} // namespace tc::rt
