//===- CheckpointDirectory.h - the files of a run's checkpoint directory ---===//
//
// The names are support/RunDirectory.h's (every command's output check
// reads the same list):
//
//   checkpoint.tcck          the latest state: what --resume continues
//   checkpoint-STEP.tcck     the last N states (--keep-last N), for averaging
//   best.tcck                the state of the best validation so far
//   vocabulary.model         the SentencePiece model of the run's data
//   validation.txt           "METRIC BEST STEP SINCE LAST": the best
//                            validation score, its step, the evaluations
//                            since and the step validated last (so that a
//                            resumed run keeps its early stopping, and
//                            validates a step a signal cut short)
//   lock                     marks the directory; the run holds it
//                            (DirectoryLock.h)
//
// The numbered and best checkpoints are hard links to the file
// checkpoint.tcck was when they were made: no copy, and each is replaced
// atomically. Everything read back is checked as a checkpoint is: pruning
// touches only numbered checkpoints whose header says they are this run's,
// and validation.txt must hold values tc could have written.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_TRAIN_CHECKPOINTDIRECTORY_H
#define TC_RUNTIME_TRAIN_CHECKPOINTDIRECTORY_H

#include "runtime/train/Checkpoint.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tc::rt {

std::string vocabularyPath(const std::string &directory);
std::string bestCheckpointPath(const std::string &directory);
std::string numberedCheckpointPath(const std::string &directory, int64_t step);

/// The checkpoint a user names: a directory's latest (checkpoint.tcck), or
/// the file itself.
std::string resolveCheckpoint(const std::string &fileOrDirectory);

/// The files named as numbered checkpoints in `directory`, oldest step
/// first (their contents unchecked).
struct NumberedCheckpoint {
  int64_t step;
  std::string path;
};
std::vector<NumberedCheckpoint>
numberedCheckpoints(const std::string &directory);

/// The numbered checkpoints of `directory` that are `run`'s: their header
/// intact and of `run`'s model, seed and data at the step their name says,
/// at most `run`'s step; oldest first. Any other file of a numbered name (a
/// stray checkpoint-99999999.tcck, another run's) is not among them.
std::vector<NumberedCheckpoint>
numberedCheckpointsOf(const std::string &directory,
                      const CheckpointIdentity &run);

/// False with `error` when a file the run writes in `directory` (its
/// checkpoint, validation record, vocabulary) is a symbolic link: outputs
/// are written through links (support/AtomicFile.h), and a run's own files
/// would write into whatever the link names (another run's, a numbered
/// checkpoint of this one).
bool checkRunFilesAreNotLinks(const std::string &directory,
                              std::string &error);

/// Links the latest checkpoint, of `run` (its step the latest), as
/// checkpoint-STEP.tcck and removes `run`'s numbered ones
/// (numberedCheckpointsOf) beyond the newest `keep`: a file it did not
/// verify is neither counted nor removed.
bool keepNumberedCheckpoint(const std::string &directory,
                            const CheckpointIdentity &run, int64_t keep,
                            std::string &error);

/// Where keep-best and early stopping stand (validation.txt).
struct BestValidation {
  std::string metric; ///< "bleu", "chrf" or "loss"
  double best = 0;
  int64_t step = 0;  ///< of the best; 0: no validation yet
  int64_t since = 0; ///< evaluations since the best
  int64_t last = 0;  ///< the step validated last
};
/// The directory's record, or a fresh one when it has none; none with
/// `error` (the file, the line and the fix) when it is unreadable or holds
/// a value tc never writes: a metric other than bleu, chrf or loss, a score
/// that is not finite or outside the metric's range, steps after
/// `checkpointStep` (the resumed checkpoint's), a negative count.
std::optional<BestValidation> readBestValidation(const std::string &directory,
                                                 int64_t checkpointStep,
                                                 std::string &error);
bool writeBestValidation(const std::string &directory,
                         const BestValidation &best, std::string &error);

/// Writes `serialized` as the directory's vocabulary.model, or checks that
/// the one there is the same; false with `error` when it differs.
/// What `directory` holds as vocabulary.model, against `serialized`.
enum class VocabularyThere { None, Same, Other };

/// Whether `directory` holds no vocabulary, `serialized` or another; none
/// with `error` when it cannot be read.
std::optional<VocabularyThere>
vocabularyThere(const std::string &directory, const std::string &serialized,
                std::string &error);

bool storeVocabulary(const std::string &directory,
                     const std::string &serialized, std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_CHECKPOINTDIRECTORY_H
