//===- RunDirectory.h - the names a training run owns in its directory -----===//
//
// A run's checkpoint directory holds files that only its trainer writes:
//
//   checkpoint.tcck          the latest state: what --resume continues
//   checkpoint-STEP.tcck     the last N states (--keep-last N)
//   best.tcck                the state of the best validation so far
//   vocabulary.model         the SentencePiece model of the run's data
//   validation.txt           where keep-best and early stopping stand
//   lock                     marks the directory as a run's; held by its run
//   NAME.tmp.PID             a write of one of the above in progress
//
// The names live here, below every layer, so that the trainer
// (runtime/train/CheckpointDirectory.h) and every command's output check
// (OutputPath.h) read them from one list.
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_RUNDIRECTORY_H
#define TC_SUPPORT_RUNDIRECTORY_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tc::support {

inline constexpr std::string_view kLatestCheckpointName = "checkpoint.tcck";
inline constexpr std::string_view kBestCheckpointName = "best.tcck";
inline constexpr std::string_view kVocabularyName = "vocabulary.model";
inline constexpr std::string_view kValidationRecordName = "validation.txt";
inline constexpr std::string_view kLockName = "lock";

/// `directory`/`name`.
std::string runFilePath(const std::string &directory, std::string_view name);

/// checkpoint-STEP.tcck (STEP in 8 digits at least).
std::string numberedCheckpointName(int64_t step);
/// The step a numbered checkpoint's name says, or none for another name
/// (also another spelling of a step: checkpoint-12.tcck).
std::optional<int64_t> stepOfNumberedName(std::string_view name);

/// What a file named `name` is to the run whose directory holds it ("the
/// run's lock"), or none when a run writes no file of that name.
std::optional<std::string> runFileRole(std::string_view name);

/// Whether `directory` is a run's checkpoint directory: it holds a file of
/// a name only a run writes (a lock, a checkpoint, a validation record, a
/// vocabulary).
bool isRunDirectory(const std::string &directory);

} // namespace tc::support

#endif // TC_SUPPORT_RUNDIRECTORY_H
