//===- RunDirectory.cpp - the names a training run owns in its directory ---===//

#include "support/RunDirectory.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace fs = std::filesystem;

namespace tc::support {
namespace {

constexpr std::string_view kNumberedPrefix = "checkpoint-";
constexpr std::string_view kCheckpointSuffix = ".tcck";
constexpr std::string_view kTemporaryInfix = ".tmp.";

/// The names of a run's files other than the numbered checkpoints.
struct FixedName {
  std::string_view name, role;
};
constexpr FixedName kFixedNames[] = {
    {kLatestCheckpointName, "the run's latest checkpoint"},
    {kBestCheckpointName, "the run's best checkpoint"},
    {kVocabularyName, "the run's vocabulary"},
    {kValidationRecordName, "the run's validation record"},
    {kLockName, "the run's lock"},
};

std::optional<std::string> ownRole(std::string_view name) {
  for (const FixedName &fixed : kFixedNames)
    if (name == fixed.name)
      return std::string(fixed.role);
  if (stepOfNumberedName(name))
    return std::string("one of the run's numbered checkpoints");
  return std::nullopt;
}

} // namespace

std::string runFilePath(const std::string &directory, std::string_view name) {
  return (fs::path(directory) / name).string();
}

std::string numberedCheckpointName(int64_t step) {
  char name[64];
  std::snprintf(name, sizeof name, "checkpoint-%08lld.tcck", (long long)step);
  return name;
}

std::optional<int64_t> stepOfNumberedName(std::string_view name) {
  if (name.size() <= kNumberedPrefix.size() + kCheckpointSuffix.size() ||
      !name.starts_with(kNumberedPrefix) || !name.ends_with(kCheckpointSuffix))
    return std::nullopt;
  std::string_view digits =
      name.substr(kNumberedPrefix.size(), name.size() - kNumberedPrefix.size() -
                                              kCheckpointSuffix.size());
  if (digits.size() > 12 ||
      !std::all_of(digits.begin(), digits.end(),
                   [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  // Only the name training writes: checkpoint-6.tcck or a copy with more
  // zeros is another file of the same step, which --last would count
  // twice and --keep-last would delete (the review of 2026-11-28).
  int64_t step = std::stoll(std::string(digits));
  if (name != numberedCheckpointName(step))
    return std::nullopt;
  return step;
}

std::optional<std::string> runFileRole(std::string_view name) {
  if (std::optional<std::string> role = ownRole(name))
    return role;
  // A write in progress (AtomicFile.h), which the run's next write of that
  // file removes as stale.
  size_t temporary = name.find(kTemporaryInfix);
  if (temporary != std::string_view::npos && ownRole(name.substr(0, temporary)))
    return std::string("a temporary file of the run");
  return std::nullopt;
}

bool isRunDirectory(const std::string &directory) {
  std::error_code ec;
  for (const fs::directory_entry &entry :
       fs::directory_iterator(directory.empty() ? "." : directory, ec))
    if (ownRole(entry.path().filename().string()))
      return true;
  return false;
}

} // namespace tc::support
