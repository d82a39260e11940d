//===- DirectoryLock.cpp - one training run per checkpoint directory -------===//

#include "runtime/train/DirectoryLock.h"
#include "support/RunDirectory.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tc::rt {
namespace {

/// Whether `fd` and `path` name one inode: a lock taken on a file or
/// directory that was replaced between open and flock holds nothing.
bool stillNamed(int fd, const std::string &path) {
  struct stat held, named;
  return ::fstat(fd, &held) == 0 && ::stat(path.c_str(), &named) == 0 &&
         held.st_dev == named.st_dev && held.st_ino == named.st_ino;
}

/// Opens `path` with `flags` and locks it, again while the name is moved
/// to another inode meanwhile; the descriptor, -1 with errno when it cannot
/// be opened, or -2 when another process holds the lock.
int openLocked(const std::string &path, int flags) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    int fd = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
    if (fd < 0)
      return -1;
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      int why = errno;
      ::close(fd);
      errno = why;
      return why == EWOULDBLOCK ? -2 : -1;
    }
    if (stillNamed(fd, path))
      return fd;
    ::close(fd);
  }
  errno = EAGAIN;
  return -1;
}

} // namespace

bool DirectoryLock::acquire(const std::string &directory, std::string &error) {
  std::string lockFile = pathIn(directory);
  std::string busy = "another tc-run is training into " + directory +
                     " (it holds " + lockFile +
                     "); wait for it or choose another --checkpoint-dir";
  directoryFd_ = openLocked(directory, O_RDONLY | O_DIRECTORY);
  if (directoryFd_ == -2) {
    error = busy;
    return false;
  }
  // A file system that cannot lock a directory (NFS emulates flock with
  // byte-range locks, which need a file open for writing) leaves the lock
  // file alone to keep a second run out, as before the directory lock.
  if (directoryFd_ < 0 && errno != EBADF && errno != ENOLCK &&
      errno != EOPNOTSUPP && errno != EINVAL) {
    error = "cannot lock the checkpoint directory " + directory + ": " +
            std::strerror(errno);
    return false;
  }
  fileFd_ = openLocked(lockFile, O_RDWR | O_CREAT | O_NONBLOCK);
  if (fileFd_ == -2) {
    error = busy;
    return false;
  }
  if (fileFd_ < 0) {
    error = "cannot create the lock file " + lockFile + ": " +
            std::strerror(errno) +
            "; the checkpoint directory must be writable";
    return false;
  }
  return true;
}

std::string DirectoryLock::pathIn(const std::string &directory) {
  return support::runFilePath(directory, support::kLockName);
}

DirectoryLock::~DirectoryLock() {
  for (int fd : {fileFd_, directoryFd_})
    if (fd >= 0)
      ::close(fd);
}

} // namespace tc::rt
