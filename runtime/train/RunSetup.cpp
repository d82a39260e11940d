//===- RunSetup.cpp - a training run set up on every rank -----------------===//

#include "runtime/train/RunSetup.h"
#include "runtime/data/SubwordVocabulary.h"
#include "runtime/format/TcxFile.h"
#include "runtime/train/Checkpoint.h"
#include "runtime/train/DataParallel.h"
#include "runtime/train/ParameterArchive.h"
#include "runtime/train/ParameterInit.h"
#include "runtime/train/StepSchedule.h"
#include "support/RunDirectory.h"

#include <filesystem>

namespace fs = std::filesystem;

namespace tc::rt {
namespace {

uint64_t fingerprintOf(const std::string &text) {
  return tcx::checksum(reinterpret_cast<const uint8_t *>(text.data()),
                       text.size());
}

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
bool setUpValidation(const Executable &executable, const TrainOptions &options,
                     Run &run, std::string &error) {
  const ValidationOptions &v = options.validation;
  if (v.tokenFile.empty())
    return true;
  run.validation = Validation::open(executable, v.tokenFile,
                                    run.data->vocabulary(), v.translate, error);
  if (!run.validation)
    return false;
  bool text = !run.data->vocabulary().empty();
  run.metric =
      v.metric.value_or(text ? ValidationMetric::Bleu : ValidationMetric::Loss);
  // A resumed run keeps the metric its record's best was chosen by: another
  // would take its first validation for a new best and replace best.tcck
  // (a run kept by loss and resumed without --keep-best, whose default for
  // text is bleu, lost its best checkpoint without a word).
  std::optional<BestValidation> recorded;
  if (options.resume) {
    recorded = readBestValidation(options.checkpointDir, run.state.step, error);
    if (!recorded)
      return false;
    std::optional<ValidationMetric> kept =
        recorded->step > 0 ? parseValidationMetric(recorded->metric)
                           : std::nullopt;
    if (kept && v.metric && *kept != *v.metric) {
      error = support::runFilePath(options.checkpointDir,
                                   support::kValidationRecordName) +
              ": the best so far (" + recorded->metric + " at step " +
              std::to_string(recorded->step) + ", best.tcck) was chosen by " +
              recorded->metric + ", and --keep-best " +
              validationMetricName(*v.metric) +
              " would replace it; resume with --keep-best " + recorded->metric +
              ", or move best.tcck and validation.txt out of the directory "
              "to start keep-best afresh";
      return false;
    }
    if (kept)
      run.metric = *kept;
  }
  if (run.metric != ValidationMetric::Loss && !text) {
    error = std::string("--keep-best ") + validationMetricName(run.metric) +
            " needs text: the training data holds no vocabulary (it was "
            "prepared with --ids); pass --keep-best loss";
    return false;
  }
  run.best.metric = validationMetricName(run.metric);
  if (recorded) {
    if (recorded->metric == run.best.metric)
      run.best = *recorded;
    int64_t step = run.state.step;
    run.validationPending =
        StepSchedule(options).validates(step) && run.best.last < step;
  }
  if (!options.quiet)
    std::fprintf(stderr, "tc-run: validation: %s every %s\n",
                 run.validation->describe().c_str(),
                 v.every == 1 ? "step"
                              : (std::to_string(v.every) + " steps").c_str());
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
        (!run.lock.acquire(options.checkpointDir, error) ||
         !checkRunFilesAreNotLinks(options.checkpointDir, error)))
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
  uint64_t dataFingerprint = fingerprintOf(run.data->identity() + "\norder 2");
  // Checkpoints written before identity() recorded describe()'s: the token
  // file's path as it was typed. Such a run keeps its fingerprint, which
  // its numbered checkpoints carry (--keep-last and tc-run average know a
  // run's checkpoints by it).
  uint64_t olderFingerprint = fingerprintOf(run.data->describe() + "\norder 2");
  if (options.resume && state.dataFingerprint != dataFingerprint &&
      state.dataFingerprint != olderFingerprint) {
    error = checkpointPath(options.checkpointDir) +
            " was trained on other data than " + run.data->describe() +
            "; resume with the --data or --synthetic it was trained with";
    return false;
  }
  if (!options.resume)
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
                 "tc-run: note: %lld %s no shape bucket and %s left out; add "
                 "a larger bucket to keep %s\n",
                 (long long)run.data->skipped(),
                 run.data->skipped() == 1 ? "pair fits" : "pairs fit",
                 run.data->skipped() == 1 ? "is" : "are",
                 run.data->skipped() == 1 ? "it" : "them");
  return true;
}

} // namespace

bool setUpRun(const Executable &executable, Device &device, Communicator &ranks,
              const TrainOptions &options, Run &run, std::string &error) {
  const tcx::Executable &x = executable.root();
  bool lead = ranks.rank() == 0;
  run.fingerprint = modelFingerprint(x);
  run.buckets = bucketsOf(x);
  run.vocab = vocabularyOf(x);
  if (!allStarted(ranks, !lead || setUpState(executable, options, run, error),
                  error))
    return false;
  shareState(ranks, x.param_bytes(), run.state);
  if (!allStarted(ranks, setUpData(executable, options, run, error), error))
    return false;
  StartFingerprint start{executable.fingerprint(),
                         run.state.dataFingerprint,
                         options.resume ? run.state.seed : options.seed,
                         options.steps,
                         options.resume ? 1 : 0,
                         StepSchedule(options).fingerprint()};
  if (!sameStart(ranks, start, error))
    return false;
  if (!allStarted(ranks, !lead || setUpOutputs(executable, options, run, error),
                  error))
    return false;
  loadState(device, run.state);
  releaseState(run.state); // the device holds them; read back at checkpoints
  return true;
}

} // namespace tc::rt
