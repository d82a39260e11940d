//===- DirectoryLock.h - one training run per checkpoint directory ---------===//

#ifndef TC_RUNTIME_TRAIN_DIRECTORYLOCK_H
#define TC_RUNTIME_TRAIN_DIRECTORYLOCK_H

#include <string>

namespace tc::rt {

/// An exclusive lock (flock) on a checkpoint directory while it lives: two
/// runs never train into one directory at once. The directory itself is
/// locked, so that no file renamed over `directory`/lock can let a second
/// run in; `directory`/lock marks the directory as a run's and is locked
/// too (as tc-runs before the directory lock did).
class DirectoryLock {
public:
  DirectoryLock() = default;
  DirectoryLock(const DirectoryLock &) = delete;
  DirectoryLock &operator=(const DirectoryLock &) = delete;
  ~DirectoryLock();

  /// False with `error` naming the directory and the fix when another
  /// process holds it.
  bool acquire(const std::string &directory, std::string &error);
  /// The lock file of `directory`.
  static std::string pathIn(const std::string &directory);

private:
  int directoryFd_ = -1;
  int fileFd_ = -1;
};

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_DIRECTORYLOCK_H
