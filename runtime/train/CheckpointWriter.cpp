//===- CheckpointWriter.cpp - when a training run writes its checkpoint ---===//

#include "runtime/train/CheckpointWriter.h"

#include <cmath>

namespace tc::rt {
namespace {

/// Whether `bytes` holds finite floats only (the parameters are f32).
bool finite(const std::vector<uint8_t> &bytes) {
  const float *p = reinterpret_cast<const float *>(bytes.data());
  for (size_t i = 0; i < bytes.size() / sizeof(float); ++i)
    if (!std::isfinite(p[i]))
      return false;
  return true;
}

} // namespace

bool CheckpointWriter::save(std::string &error) {
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
  return written && (options_.keepLast == 0 ||
                     keepNumberedCheckpoint(options_.checkpointDir,
                                            {run_.fingerprint.parameters, state.seed,
                                             state.dataFingerprint, state.step},
                                            options_.keepLast, error));
}

bool CheckpointWriter::saveOnce(std::string &error) {
  return savedStep_ == run_.state.step || save(error);
}

} // namespace tc::rt
