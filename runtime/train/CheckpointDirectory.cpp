//===- CheckpointDirectory.cpp - the files of a run's checkpoint directory -===//

#include "runtime/train/CheckpointDirectory.h"
#include "runtime/data/SubwordVocabulary.h"
#include "runtime/train/Checkpoint.h"
#include "support/AtomicFile.h"
#include "support/FileBytes.h"
#include "support/RunDirectory.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <unistd.h>

namespace fs = std::filesystem;

namespace tc::rt {
namespace {

/// An integer field of the record in [low, high]; none with `error`.
std::optional<int64_t> recordInteger(std::string_view text,
                                     const std::string &what, int64_t low,
                                     int64_t high, const std::string &range,
                                     std::string &error) {
  int64_t value = 0;
  auto [end, failed] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (failed != std::errc() || end != text.data() + text.size() ||
      value < low || value > high) {
    error = what + " '" + std::string(text) + "' is not in [" +
            std::to_string(low) + ", " + std::to_string(high) + "]" + range;
    return std::nullopt;
  }
  return value;
}

/// "METRIC BEST STEP SINCE LAST\n", each value one tc could have written
/// by `checkpointStep`; none with `error` (what is wrong, without the file).
std::optional<BestValidation> parseValidationRecord(const std::string &text,
                                                    int64_t checkpointStep,
                                                    std::string &error) {
  std::string_view rest(text);
  if (rest.ends_with('\n'))
    rest.remove_suffix(1);
  bool printable = std::all_of(rest.begin(), rest.end(),
                               [](char c) { return c >= ' ' && c <= '~'; });
  std::vector<std::string_view> fields;
  for (size_t space; (space = rest.find(' ')) != std::string_view::npos;
       rest.remove_prefix(space + 1))
    fields.push_back(rest.substr(0, space));
  fields.push_back(rest);
  if (fields.size() != 5 || !printable) {
    error = "not a validation record (METRIC BEST STEP SINCE LAST, one line)";
    return std::nullopt;
  }
  BestValidation best;
  best.metric = std::string(fields[0]);
  bool score = best.metric == "bleu" || best.metric == "chrf";
  if (!score && best.metric != "loss") {
    error = "the metric '" + best.metric + "' is not bleu, chrf or loss";
    return std::nullopt;
  }
  // BLEU and chrF are percentages; a loss is a cross-entropy.
  std::string number(fields[1]);
  char *end = nullptr;
  best.best = std::strtod(number.c_str(), &end);
  if (number.empty() || *end != '\0' || !std::isfinite(best.best) ||
      best.best < 0 || (score && best.best > 100)) {
    error = "the best score '" + number + "' is not a finite number " +
            (score ? "in [0, 100]" : "of at least 0");
    return std::nullopt;
  }
  // Step 0: no validation gave a score yet (the best is then ignored); a
  // record is written after a validation, so one step was validated.
  std::optional<int64_t> step =
      recordInteger(fields[2], "the step of the best score", 0, checkpointStep,
                    " (the checkpoint's step)", error);
  std::optional<int64_t> last;
  if (step)
    last = recordInteger(fields[4], "the step validated last",
                         std::max<int64_t>(*step, 1), checkpointStep,
                         " (from the best score's step to the checkpoint's)",
                         error);
  std::optional<int64_t> since;
  if (last)
    since = recordInteger(fields[3], "the validations since the best", 0, *last,
                          "", error);
  if (!since)
    return std::nullopt;
  best.step = *step;
  best.since = *since;
  best.last = *last;
  return best;
}

} // namespace

std::string vocabularyPath(const std::string &directory) {
  return support::runFilePath(directory, support::kVocabularyName);
}

std::string bestCheckpointPath(const std::string &directory) {
  return support::runFilePath(directory, support::kBestCheckpointName);
}

std::string numberedCheckpointPath(const std::string &directory,
                                   int64_t step) {
  return support::runFilePath(directory, support::numberedCheckpointName(step));
}

std::string resolveCheckpoint(const std::string &fileOrDirectory) {
  std::error_code ec;
  return fs::is_directory(fileOrDirectory, ec)
             ? checkpointPath(fileOrDirectory)
             : fileOrDirectory;
}

std::vector<NumberedCheckpoint>
numberedCheckpoints(const std::string &directory) {
  std::vector<NumberedCheckpoint> found;
  std::error_code ec;
  for (const fs::directory_entry &entry :
       fs::directory_iterator(directory, ec))
    if (std::optional<int64_t> step =
            support::stepOfNumberedName(entry.path().filename().string()))
      found.push_back({*step, entry.path().string()});
  std::sort(found.begin(), found.end(),
            [](const NumberedCheckpoint &a, const NumberedCheckpoint &b) {
              return a.step < b.step;
            });
  return found;
}

std::vector<NumberedCheckpoint>
numberedCheckpointsOf(const std::string &directory,
                      const CheckpointIdentity &run) {
  std::vector<NumberedCheckpoint> ours;
  for (const NumberedCheckpoint &numbered : numberedCheckpoints(directory)) {
    std::optional<CheckpointIdentity> identity =
        readCheckpointIdentity(numbered.path);
    if (identity && identity->fingerprint == run.fingerprint &&
        identity->seed == run.seed &&
        identity->dataFingerprint == run.dataFingerprint &&
        identity->step == numbered.step && identity->step <= run.step)
      ours.push_back(numbered);
  }
  return ours;
}

bool checkRunFilesAreNotLinks(const std::string &directory,
                              std::string &error) {
  for (const std::string &path :
       {checkpointPath(directory), vocabularyPath(directory),
        support::runFilePath(directory, support::kValidationRecordName)}) {
    std::error_code ec;
    if (!fs::is_symlink(path, ec))
      continue;
    std::string to = fs::read_symlink(path, ec).string();
    error = path + " is a symbolic link (to " + to +
            "); a run writes its own files, and would write through it: "
            "replace it by a copy (cp --remove-destination " +
            support::writtenPath(path) + " " + path + ")";
    return false;
  }
  return true;
}

bool keepNumberedCheckpoint(const std::string &directory,
                            const CheckpointIdentity &run, int64_t keep,
                            std::string &error) {
  if (!support::linkFileAtomically(checkpointPath(directory),
                                   numberedCheckpointPath(directory, run.step),
                                   error))
    return false;
  // A file is removed only when tc wrote it for this run: a stray name
  // (checkpoint-99999999.tcck) or another run's checkpoint would otherwise
  // count as the newest and push a real one out.
  std::vector<NumberedCheckpoint> ours = numberedCheckpointsOf(directory, run);
  for (size_t i = 0; i + keep < ours.size(); ++i)
    if (::unlink(ours[i].path.c_str()) != 0 && errno != ENOENT) {
      error = "cannot remove " + ours[i].path + ": " + std::strerror(errno);
      return false;
    }
  return true;
}

static std::string validationRecordPath(const std::string &directory) {
  return support::runFilePath(directory, support::kValidationRecordName);
}

std::optional<BestValidation> readBestValidation(const std::string &directory,
                                                 int64_t checkpointStep,
                                                 std::string &error) {
  std::string path = validationRecordPath(directory);
  std::error_code ec;
  if (!fs::exists(path, ec))
    return BestValidation{};
  std::optional<std::string> text = support::readFileText(path, 4096, error);
  if (!text)
    return std::nullopt;
  std::optional<BestValidation> best =
      parseValidationRecord(*text, checkpointStep, error);
  if (!best)
    error = path + ":1: " + error + "; remove " + path +
            " to start keep-best and early stopping afresh (nothing was "
            "written)";
  return best;
}

bool writeBestValidation(const std::string &directory,
                         const BestValidation &best, std::string &error) {
  char line[128];
  int length = std::snprintf(line, sizeof line, "%s %.17g %lld %lld %lld\n",
                             best.metric.c_str(), best.best,
                             (long long)best.step, (long long)best.since,
                             (long long)best.last);
  return support::writeFileAtomically(
      validationRecordPath(directory),
      [&](support::FileWriter &out) { return out.write(line, length); },
      support::Durability::Durable, error);
}

std::optional<VocabularyThere>
vocabularyThere(const std::string &directory, const std::string &serialized,
                std::string &error) {
  std::string path = vocabularyPath(directory);
  std::error_code ec;
  if (!fs::exists(path, ec))
    return VocabularyThere::None;
  std::optional<std::string> stored =
      support::readFileText(path, kMaxVocabularyBytes, error);
  if (!stored)
    return std::nullopt;
  return *stored == serialized ? VocabularyThere::Same
                               : VocabularyThere::Other;
}

bool storeVocabulary(const std::string &directory,
                     const std::string &serialized, std::string &error) {
  std::optional<VocabularyThere> there =
      vocabularyThere(directory, serialized, error);
  if (!there)
    return false;
  if (*there == VocabularyThere::Other) {
    error = vocabularyPath(directory) +
            " is another vocabulary than the training data's; this "
            "directory belongs to another run (choose another "
            "--checkpoint-dir)";
    return false;
  }
  if (*there == VocabularyThere::Same)
    return true;
  std::string path = vocabularyPath(directory);
  return support::writeFileAtomically(
      path,
      [&](support::FileWriter &out) {
        return out.write(serialized.data(), serialized.size());
      },
      support::Durability::Durable, error);
}

} // namespace tc::rt
