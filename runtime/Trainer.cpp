//===- Trainer.cpp - the training loop of tc-run ----------------------------===//

#include "runtime/Trainer.h"
#include "runtime/Buckets.h"
#include "runtime/Checkpoint.h"
#include "runtime/ParameterInit.h"
#include "runtime/Progress.h"
#include "runtime/format/TcxFile.h"
#include "support/AtomicFile.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/file.h>
#include <unistd.h>

namespace fs = std::filesystem;

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

/// Installs requestStop for SIGINT and SIGTERM while a run lasts, except
/// where the signal was ignored (a background job keeps ignoring Ctrl-C).
class StopOnSignals {
public:
  StopOnSignals() {
    stopSignal = 0;
    for (int s : {SIGINT, SIGTERM}) {
      previous[s == SIGINT] = std::signal(s, requestStop);
      if (previous[s == SIGINT] == SIG_IGN)
        std::signal(s, SIG_IGN);
    }
  }
  ~StopOnSignals() {
    std::signal(SIGINT, previous[1]);
    std::signal(SIGTERM, previous[0]);
  }

private:
  void (*previous[2])(int);
};

/// An exclusive lock on the checkpoint directory: two runs never train into
/// one directory at once.
class DirectoryLock {
public:
  bool acquire(const std::string &directory, std::string &error) {
    std::string path = (fs::path(directory) / "lock").string();
    fd = ::open(path.c_str(), O_RDWR | O_CREAT, 0644);
    if (fd < 0 || ::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      error = "another tc-run is training into " + directory +
              " (it holds " + path + "); wait for it or choose another "
              "--checkpoint-dir";
      return false;
    }
    return true;
  }
  ~DirectoryLock() {
    if (fd >= 0)
      ::close(fd);
  }

private:
  int fd = -1;
};

uint64_t fingerprintOf(const std::string &text) {
  return tcx::checksum(reinterpret_cast<const uint8_t *>(text.data()),
                       text.size());
}

/// Keeps the lines of a metrics file up to step `last` (a run resumed from
/// step `last` writes the later ones again) and drops a line cut short.
bool trimMetrics(const std::string &path, int64_t last, std::string &error) {
  std::ifstream in(path);
  if (!in)
    return true; // no file yet
  std::string kept, line;
  while (std::getline(in, line)) {
    long long step = 0;
    bool complete = !line.empty() && line.back() == '}' &&
                    std::sscanf(line.c_str(), "{\"step\": %lld", &step) == 1;
    if (complete && step <= last)
      kept += line + "\n";
  }
  if (!support::writeFileAtomically(path, kept.data(), kept.size(), error)) {
    error = "cannot rewrite the metrics file: " + error;
    return false;
  }
  return true;
}

bool bindBatch(Device &device, const tcx::Function &function,
               const Batch &batch, uint64_t seed, int64_t step) {
  namespace binding = contract::binding;
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

bool finite(const std::vector<uint8_t> &floats) {
  const float *p = reinterpret_cast<const float *>(floats.data());
  for (size_t i = 0; i < floats.size() / 4; ++i)
    if (!std::isfinite(p[i]))
      return false;
  return true;
}

} // namespace

void loadState(Device &device, const TrainingState &state) {
  // Empty moments (a fresh run): the device's are zero already.
  for (auto [space, bytes] :
       {std::pair(tcx::Space::Params, &state.params),
        std::pair(tcx::Space::AdamM, &state.firstMoments),
        std::pair(tcx::Space::AdamV, &state.secondMoments)})
    if (!bytes->empty())
      device.write(space, 0, bytes->data(), bytes->size());
}

void saveState(Device &device, int64_t paramBytes, TrainingState &state) {
  for (auto [space, bytes] :
       {std::pair(tcx::Space::Params, &state.params),
        std::pair(tcx::Space::AdamM, &state.firstMoments),
        std::pair(tcx::Space::AdamV, &state.secondMoments)}) {
    bytes->resize(paramBytes);
    device.read(space, 0, bytes->data(), bytes->size());
  }
}

void releaseState(TrainingState &state) {
  for (std::vector<uint8_t> *bytes :
       {&state.params, &state.firstMoments, &state.secondMoments})
    std::vector<uint8_t>().swap(*bytes);
}

TrainResult train(const Executable &executable, Device &device,
                  const TrainOptions &options, std::string &error) {
  const tcx::Executable &x = executable.root();
  TrainResult result;
  auto failed = [&]() {
    result.kind = TrainResult::Failed;
    return result;
  };
  uint64_t fingerprint = parameterFingerprint(x);
  std::string checkpoint =
      options.checkpointDir.empty() ? "" : checkpointPath(options.checkpointDir);
  DirectoryLock lock;
  if (!checkpoint.empty()) {
    std::error_code ec;
    if (!options.resume)
      fs::create_directories(options.checkpointDir, ec);
    if (ec) {
      error = "cannot create the checkpoint directory " +
              options.checkpointDir + ": " + ec.message();
      return failed();
    }
    if (fs::is_directory(options.checkpointDir) &&
        !lock.acquire(options.checkpointDir, error))
      return failed();
  }

  TrainingState state;
  if (options.resume) {
    std::optional<TrainingState> loaded =
        readCheckpoint(checkpoint, fingerprint, x.param_bytes(), error);
    if (!loaded)
      return failed();
    state = std::move(*loaded);
  } else {
    if (!checkpoint.empty() && fs::exists(checkpoint)) {
      error = checkpoint + " already holds a checkpoint; pass --resume to "
                           "continue that run, or choose another "
                           "--checkpoint-dir (nothing was overwritten)";
      return failed();
    }
    state.seed = options.seed;
    state.params.assign(x.param_bytes(), 0);
    initializeParameters(x, state.params.data(), state.seed);
  }
  // The data is drawn with the run's seed: a resumed run's own.
  std::unique_ptr<DataSource> data =
      makeDataSource(x, options.data, state.seed, error);
  if (!data)
    return failed();
  uint64_t dataFingerprint = fingerprintOf(data->describe());
  if (options.resume && state.dataFingerprint != dataFingerprint) {
    error = checkpoint + " was trained on other data than " + data->describe() +
            "; resume with the --data or --synthetic it was trained with";
    return failed();
  }
  state.dataFingerprint = dataFingerprint;
  if (options.resume && options.steps <= state.step) {
    error = checkpoint + " is at step " + std::to_string(state.step) +
            "; pass --steps larger than that to train further";
    return failed();
  }
  if (!options.quiet)
    std::fprintf(stderr, "tc-run: data: %s\n", data->describe().c_str());
  if (!options.quiet && data->skipped() > 0)
    std::fprintf(stderr,
                 "tc-run: note: %lld pairs fit no shape bucket and are left "
                 "out; add a larger bucket to keep them\n",
                 (long long)data->skipped());
  loadState(device, state);
  releaseState(state); // the device holds them; read back at checkpoints

  std::FILE *metrics = nullptr;
  if (!options.metricsPath.empty()) {
    if (options.resume && !trimMetrics(options.metricsPath, state.step, error))
      return failed();
    metrics = std::fopen(options.metricsPath.c_str(), options.resume ? "a" : "w");
    if (!metrics) {
      error = "cannot open the metrics file " + options.metricsPath + ": " +
              std::strerror(errno);
      return failed();
    }
  }
  auto save = [&]() {
    if (metrics) { // metrics up to the checkpoint's step are on disk first
      std::fflush(metrics);
      ::fsync(fileno(metrics));
    }
    if (checkpoint.empty())
      return true;
    saveState(device, x.param_bytes(), state);
    bool written = finite(state.params) &&
                   writeCheckpoint(checkpoint, state, fingerprint, error);
    if (!written && error.empty())
      error = "the parameters are not finite after step " +
              std::to_string(state.step) +
              "; not writing a checkpoint (the last one is kept); lower the "
              "learning rate or enable gradient_clip";
    releaseState(state);
    return written;
  };

  std::vector<BucketShape> buckets = bucketsOf(x);
  Vocabulary vocab = vocabularyOf(x);
  StopOnSignals signals;
  Progress progress(state.step, options.steps, stderr);
  auto start = std::chrono::steady_clock::now();
  int64_t tokens = 0;
  while (state.step < options.steps) {
    int64_t step = state.step + 1;
    std::vector<SentencePair> pairs = data->batch(state.dataPosition);
    std::optional<BucketShape> bucket = bucketFor(buckets, pairs);
    Batch batch;
    const tcx::Function *function =
        bucket ? executable.function(tcx::FunctionRole::TrainStep, *bucket)
               : nullptr;
    if (!function || !fillBatch(pairs, vocab, bucket->batch,
                                bucket->sourceLength, bucket->targetLength,
                                batch)) {
      error = "batch " + std::to_string(state.dataPosition) + " of " +
              data->describe() + " fits no shape bucket";
      result.kind = TrainResult::Failed;
      break;
    }
    float loss = 0, rate = 0;
    int32_t count = 0;
    bool bound = bindBatch(device, *function, batch, state.seed, step);
    if (bound)
      device.run(*function);
    namespace binding = contract::binding;
    if (!bound ||
        !device.readOutput(*function, binding::kLoss, &loss, sizeof loss) ||
        !device.readOutput(*function, binding::kTokens, &count, sizeof count) ||
        !device.readOutput(*function, binding::kLearningRate, &rate,
                           sizeof rate)) {
      error = function->name()->str() + " does not take " +
              std::string(binding::kSourceIds) + ", " +
              std::string(binding::kTargetIn) + ", " +
              std::string(binding::kTargetOut) + " and " +
              std::string(binding::kRng) + " or return " +
              std::string(binding::kLoss) + ", " +
              std::string(binding::kTokens) + " and " +
              std::string(binding::kLearningRate) + " as a training step does";
      result.kind = TrainResult::Failed;
      break;
    }
    double perToken = count > 0 ? loss / count : 0.0;
    if (!std::isfinite(perToken)) {
      error = "the loss is not finite at step " + std::to_string(step) +
              "; stopping without writing a checkpoint (the last one is "
              "kept); lower the learning rate or enable gradient_clip";
      result.kind = TrainResult::Failed;
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
    if (stopSignal != 0) {
      result.kind = TrainResult::Stopped;
      result.signal = stopSignal;
      break;
    }
    bool periodic = options.checkpointEvery > 0 &&
                    step % options.checkpointEvery == 0;
    if (periodic && step < options.steps && !save()) {
      result.kind = TrainResult::Failed;
      break;
    }
  }
  if (!options.quiet)
    progress.finish();
  result.step = state.step;
  if (result.kind != TrainResult::Failed && !save())
    result.kind = TrainResult::Failed;
  if (metrics)
    std::fclose(metrics);
  return result;
}

} // namespace tc::rt
