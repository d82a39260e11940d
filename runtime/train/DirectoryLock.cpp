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
  path_ = (std::filesystem::path(directory) / "lock").string();
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    error = "cannot create the lock file " + path_ + ": " +
            std::strerror(errno) +
            "; the checkpoint directory must be writable";
    return false;
  }
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    error = errno == EWOULDBLOCK
                ? "another tc-run is training into " + directory +
                      " (it holds " + path_ +
                      "); wait for it or choose another --checkpoint-dir"
                : "cannot lock " + path_ + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

DirectoryLock::~DirectoryLock() {
  if (fd_ >= 0)
    ::close(fd_);
}

} // namespace tc::rt
