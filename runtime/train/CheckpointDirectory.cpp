//===- CheckpointDirectory.cpp - the files of a run's checkpoint directory -===//

#include "runtime/train/CheckpointDirectory.h"
#include "runtime/data/SubwordVocabulary.h"
#include "runtime/train/Checkpoint.h"
#include "support/AtomicFile.h"
#include "support/FileBytes.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <unistd.h>

namespace fs = std::filesystem;

namespace tc::rt {
namespace {

constexpr std::string_view kNumberedPrefix = "checkpoint-";
constexpr std::string_view kCheckpointSuffix = ".tcck";

/// The step of a numbered checkpoint's file name, or none.
std::optional<int64_t> stepOfName(const std::string &name) {
  if (name.size() <= kNumberedPrefix.size() + kCheckpointSuffix.size() ||
      name.compare(0, kNumberedPrefix.size(), kNumberedPrefix) != 0 ||
      name.compare(name.size() - kCheckpointSuffix.size(),
                   kCheckpointSuffix.size(), kCheckpointSuffix) != 0)
    return std::nullopt;
  std::string digits =
      name.substr(kNumberedPrefix.size(), name.size() - kNumberedPrefix.size() -
                                              kCheckpointSuffix.size());
  if (digits.empty() || digits.size() > 12 ||
      !std::all_of(digits.begin(), digits.end(),
                   [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return std::stoll(digits);
}

} // namespace

std::string vocabularyPath(const std::string &directory) {
  return (fs::path(directory) / "vocabulary.model").string();
}

std::string bestCheckpointPath(const std::string &directory) {
  return (fs::path(directory) / "best.tcck").string();
}

std::string numberedCheckpointPath(const std::string &directory,
                                   int64_t step) {
  char name[64];
  std::snprintf(name, sizeof name, "checkpoint-%08lld.tcck", (long long)step);
  return (fs::path(directory) / name).string();
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
            stepOfName(entry.path().filename().string()))
      found.push_back({*step, entry.path().string()});
  std::sort(found.begin(), found.end(),
            [](const NumberedCheckpoint &a, const NumberedCheckpoint &b) {
              return a.step < b.step;
            });
  return found;
}

bool linkCheckpoint(const std::string &target, const std::string &link,
                    std::string &error) {
  std::string temporary = link + ".tmp." + std::to_string(getpid());
  ::unlink(temporary.c_str());
  if (::link(target.c_str(), temporary.c_str()) != 0 ||
      ::rename(temporary.c_str(), link.c_str()) != 0) {
    error = "cannot link " + link + " to " + target + ": " +
            std::strerror(errno);
    ::unlink(temporary.c_str());
    return false;
  }
  support::syncDirectoryOf(link);
  return true;
}

bool keepNumberedCheckpoint(const std::string &directory, int64_t step,
                            int64_t keep, std::string &error) {
  if (!linkCheckpoint(checkpointPath(directory),
                      numberedCheckpointPath(directory, step), error))
    return false;
  std::vector<NumberedCheckpoint> kept = numberedCheckpoints(directory);
  for (size_t i = 0; i + keep < kept.size(); ++i)
    if (::unlink(kept[i].path.c_str()) != 0 && errno != ENOENT) {
      error = "cannot remove " + kept[i].path + ": " + std::strerror(errno);
      return false;
    }
  return true;
}

static std::string validationRecordPath(const std::string &directory) {
  return (fs::path(directory) / "validation.txt").string();
}

std::optional<BestValidation> readBestValidation(const std::string &directory,
                                                 std::string &error) {
  std::string path = validationRecordPath(directory);
  std::error_code ec;
  if (!fs::exists(path, ec))
    return BestValidation{};
  std::optional<std::string> text = support::readFileText(path, 4096, error);
  if (!text)
    return std::nullopt;
  char metric[16] = {};
  BestValidation best;
  long long step = 0, since = 0, last = 0;
  if (std::sscanf(text->c_str(), "%15s %lf %lld %lld %lld", metric, &best.best,
                  &step, &since, &last) != 5) {
    error = path + ": not a validation record (METRIC BEST STEP SINCE "
                   "LAST); remove it to start keep-best and early stopping "
                   "afresh";
    return std::nullopt;
  }
  best.metric = metric;
  best.step = step;
  best.since = since;
  best.last = last;
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

bool storeVocabulary(const std::string &directory,
                     const std::string &serialized, std::string &error) {
  std::string path = vocabularyPath(directory);
  std::error_code ec;
  if (fs::exists(path, ec)) {
    std::optional<std::string> stored =
        support::readFileText(path, kMaxVocabularyBytes, error);
    if (!stored)
      return false;
    if (*stored != serialized) {
      error = path + " is another vocabulary than the training data's; "
                     "this directory belongs to another run (choose another "
                     "--checkpoint-dir)";
      return false;
    }
    return true;
  }
  return support::writeFileAtomically(
      path,
      [&](support::FileWriter &out) {
        return out.write(serialized.data(), serialized.size());
      },
      support::Durability::Durable, error);
}

} // namespace tc::rt
