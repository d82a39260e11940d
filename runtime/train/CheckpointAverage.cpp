//===- CheckpointAverage.cpp - the mean of several checkpoints' parameters -===//

#include "runtime/train/CheckpointAverage.h"
#include "runtime/train/Checkpoint.h"

#include <cstring>

namespace tc::rt {

std::optional<TrainingState>
averageCheckpoints(const std::vector<std::string> &paths,
                   const ModelFingerprint &fingerprint,
                   int64_t paramBytes, std::string &error) {
  std::vector<double> sums(paramBytes / 4, 0.0);
  std::optional<TrainingState> newest;
  uint64_t vocabulary = 0;
  std::string vocabularyFrom; ///< the first checkpoint that names one
  for (const std::string &path : paths) {
    // One at a time: a big model's checkpoints need not fit in memory
    // together.
    std::optional<TrainingState> state =
        readCheckpoint(path, fingerprint, paramBytes, error);
    if (!state)
      return std::nullopt;
    // A checkpoint older than the fingerprint goes with any; else one
    // recorded with no vocabulary (ids, a synthetic task) goes with none
    // that has one.
    if (state->vocabularyRecorded) {
      if (vocabularyFrom.empty()) {
        vocabulary = state->vocabularyFingerprint;
        vocabularyFrom = path;
      } else if (state->vocabularyFingerprint != vocabulary) {
        auto trainedOn = [](uint64_t fingerprint) {
          return std::string(fingerprint ? "with a vocabulary"
                                         : "on token ids (no vocabulary)");
        };
        error = path + " was trained " +
                (state->vocabularyFingerprint && vocabulary
                     ? "with another vocabulary than " + vocabularyFrom
                     : trainedOn(state->vocabularyFingerprint) + ", " +
                           vocabularyFrom + " " + trainedOn(vocabulary)) +
                "; average checkpoints of one run";
        return std::nullopt;
      }
    }
    const float *params = reinterpret_cast<const float *>(state->params.data());
    for (size_t i = 0; i < sums.size(); ++i)
      sums[i] += params[i];
    if (!newest || state->step >= newest->step)
      newest = std::move(state);
  }
  if (!newest) {
    error = "no checkpoints to average";
    return std::nullopt;
  }
  newest->vocabularyFingerprint = vocabulary;
  newest->vocabularyRecorded = !vocabularyFrom.empty();
  float *average = reinterpret_cast<float *>(newest->params.data());
  for (size_t i = 0; i < sums.size(); ++i)
    average[i] = float(sums[i] / double(paths.size()));
  return newest;
}

} // namespace tc::rt
