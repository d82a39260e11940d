//===- DirectoryLock.cpp - one training run per checkpoint directory -------===//

#include "runtime/train/DirectoryLock.h"

#include <fcntl.h>
#include <filesystem>
#include <sys/file.h>
#include <unistd.h>

namespace tc::rt {

bool DirectoryLock::acquire(const std::string &directory, std::string &error) {
  std::string path = (std::filesystem::path(directory) / "lock").string();
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT, 0644);
  if (fd_ < 0 || ::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    error = "another tc-run is training into " + directory + " (it holds " +
            path + "); wait for it or choose another --checkpoint-dir";
    return false;
  }
  return true;
}

DirectoryLock::~DirectoryLock() {
  if (fd_ >= 0)
    ::close(fd_);
}

} // namespace tc::rt
