//===- DirectoryLock.h - one training run per checkpoint directory ---------===//

#ifndef TC_RUNTIME_TRAIN_DIRECTORYLOCK_H
#define TC_RUNTIME_TRAIN_DIRECTORYLOCK_H

#include <string>

namespace tc::rt {

/// An exclusive lock (flock) on `directory`/lock while it lives: two runs
/// never train into one directory at once.
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
  std::string path_;
  int fd_ = -1;
};

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_DIRECTORYLOCK_H
