//===- Checkpoint.h - the whole state of a training run, on disk ----------===//
//
// A checkpoint holds everything a run needs to continue bit-identically:
// parameters, Adam moments, the step, the seed, which data and where in it.
// The file is an 88-byte header (magic "TCCKPT", version 3, step, seed,
// data position, parameter bytes, fingerprints of the parameter table, of
// the data and of the vocabulary, FNV-1a checksums of the body and of the
// header itself) followed by the three flat buffers. Version 2 (no
// vocabulary fingerprint) is still read, with the vocabulary unknown (0).
//
// Writes are atomic: a temporary file in the same directory, fsync, rename
// over the old file, fsync of the directory. A run killed at any moment
// leaves the previous checkpoint or the new one, never a mix.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_TRAIN_CHECKPOINT_H
#define TC_RUNTIME_TRAIN_CHECKPOINT_H

#include "runtime/Executable.h"
#include "runtime/format/FileKind.h"
#include "runtime/train/TrainingState.h"
#include "support/AtomicFile.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tc::rt {

/// Which model a checkpoint is of: a checkpoint is only loaded into the
/// model it was written from.
struct ModelFingerprint {
  /// A hash of the parameter names, shapes and offsets.
  uint64_t parameters = 0;
  /// The executable's RunConfig.model_settings: the [model] settings the
  /// table does not show (heads, d_k, d_v, ...). 0: not recorded (an
  /// executable or a checkpoint from before it, or one compiled from
  /// .mlir), which any takes.
  uint32_t settings = 0;
};
ModelFingerprint modelFingerprint(const tcx::Executable &executable);

/// The checkpoint file inside a checkpoint directory.
std::string checkpointPath(const std::string &directory);

/// Which model, run and step a checkpoint is of.
struct CheckpointIdentity {
  uint64_t fingerprint = 0; ///< of the parameter table
  uint64_t seed = 0;
  uint64_t dataFingerprint = 0;
  int64_t step = 0;
};

/// The identity an intact header of `path` states (its magic, version and
/// header checksum checked; the body is not read), or none.
std::optional<CheckpointIdentity>
readCheckpointIdentity(const std::string &path);

/// Writes `state` to `path` durably; `ifPresent` says what becomes of a
/// file that is there (the trainer replaces its own checkpoint; average
/// without --overwrite replaces none).
bool writeCheckpoint(
    const std::string &path, const TrainingState &state,
    const ModelFingerprint &fingerprint, std::string &error,
    support::IfPresent ifPresent = support::IfPresent::Replace);

/// The state in `path`, or none with `error` naming the file and what is
/// wrong (missing, truncated, corrupted, another model).
std::optional<TrainingState> readCheckpoint(const std::string &path,
                                            const ModelFingerprint &fingerprint,
                                            int64_t paramBytes,
                                            std::string &error);

/// The state in a checkpoint file's `bytes` (read from `path`, which
/// messages name).
std::optional<TrainingState>
parseCheckpoint(const std::vector<uint8_t> &bytes, const std::string &path,
                const ModelFingerprint &fingerprint, int64_t paramBytes,
                std::string &error);

/// Whether `vocabulary`, the fingerprint of the vocabulary file at
/// `vocabularyPath`, is that of the vocabulary the checkpoint at
/// `checkpointPath` (holding `state`) was trained with; a checkpoint that
/// records none (0: older than the fingerprint) takes any. False with
/// `error` naming both files and the fix.
bool isTrainedVocabulary(uint64_t vocabulary, const std::string &vocabularyPath,
                         const TrainingState &state,
                         const std::string &checkpointPath, std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_CHECKPOINT_H
