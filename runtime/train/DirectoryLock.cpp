//===- DirectoryLock.cpp - one training run per checkpoint directory -------===//

#include "runtime/train/DirectoryLock.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/file.h>
#include <unistd.h>

namespace tc::rt {

bool DirectoryLock::acquire(const std::string &directory, std::string &error) {
  path_ = pathIn(directory);
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    int why = errno;
    error = "cannot create the lock file " + path_ + ": " + std::strerror(why) +
            "; the checkpoint directory must be writable";
    return false;
  }
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    int why = errno;
    error = why == EWOULDBLOCK
                ? "another tc-run is training into " + directory +
                      " (it holds " + path_ +
                      "); wait for it or choose another --checkpoint-dir"
                : "cannot lock " + path_ + ": " + std::strerror(why);
    return false;
  }
  return true;
}

std::string DirectoryLock::pathIn(const std::string &directory) {
  return (std::filesystem::path(directory) / "lock").string();
}

DirectoryLock::~DirectoryLock() {
  if (fd_ >= 0)
    ::close(fd_);
}

} // namespace tc::rt
