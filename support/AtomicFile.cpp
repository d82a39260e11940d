//===- AtomicFile.cpp - replacing a file whole or not at all ---------------===//

#include "support/AtomicFile.h"
#include "support/ChildProcess.h"

#include <atomic>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <cstdio>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace tc::support {
namespace {

std::string temporaryPrefix(const std::string &path) {
  return fs::path(path).filename().string() + ".tmp.";
}

std::string directoryOf(const std::string &path) {
  std::string directory = fs::path(path).parent_path().string();
  return directory.empty() ? "." : directory;
}

/// "<path>.new.<pid>": where the result goes when it cannot be put at
/// `path` without replacing a file there.
std::string keptName(const std::string &path) {
  return path + ".new." + std::to_string(::getpid());
}

/// A name for `target`'s temporary, "<name>.tmp.<pid>.<n>" in its
/// directory: n counts this process's temporaries, so one write's is never
/// another's (a stale one of a dead process with this pid may have it:
/// creating it then fails with EEXIST, and the next name is tried).
std::string nextTemporaryName(const std::string &target) {
  static std::atomic<uint64_t> count{0};
  return (fs::path(directoryOf(target)) / temporaryPrefix(target)).string() +
         std::to_string(::getpid()) + "." + std::to_string(count++);
}

/// Tries `create` (false with errno) on fresh temporary names until one is
/// free; `name` is the one created (empty when none was).
template <typename Create>
bool createTemporaryName(const std::string &target, std::string &name,
                         Create create) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    std::string fresh = nextTemporaryName(target);
    if (create(fresh)) {
      name = fresh;
      return true;
    }
    if (errno != EEXIST)
      break;
  }
  return false;
}

/// The file being written, open for writing: without a name (O_TMPFILE)
/// until it is complete, or named.
struct Temporary {
  int fd = -1;
  std::string name; ///< empty for an O_TMPFILE not yet linked
};

/// setNamedTemporariesForTesting's setting.
std::atomic<bool> namedTemporariesOnly{false};

/// Opens the temporary for `target` in its directory; false with errno.
bool openTemporary(const std::string &target, Temporary &temporary) {
  // Linking an O_TMPFILE goes through /proc/self/fd.
  static const bool procFdReachable = ::access("/proc/self/fd", X_OK) == 0;
  // 0666 less the umask, as any other new file of the user's.
  if (procFdReachable && !namedTemporariesOnly) {
    temporary.fd = ::open(directoryOf(target).c_str(),
                          O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    if (temporary.fd >= 0)
      return true;
    // EISDIR: a kernel without O_TMPFILE; EOPNOTSUPP: a file system.
    if (errno != EISDIR && errno != EOPNOTSUPP && errno != EINVAL)
      return false;
  }
  return createTemporaryName(target, temporary.name, [&](const std::string &n) {
    temporary.fd =
        ::open(n.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    return temporary.fd >= 0;
  });
}

/// Names the complete O_TMPFILE, which is then placed as a named one is: a
/// name is left behind a killed process for microseconds, not for the
/// whole write.
bool linkTemporary(Temporary &temporary, const std::string &target) {
  std::string handle = "/proc/self/fd/" + std::to_string(temporary.fd);
  return createTemporaryName(target, temporary.name, [&](const std::string &n) {
    return ::linkat(AT_FDCWD, handle.c_str(), AT_FDCWD, n.c_str(),
                    AT_SYMLINK_FOLLOW) == 0;
  });
}

/// Renames `from` to `to` unless `to` exists (EEXIST).
bool renameIfFree(const std::string &from, const std::string &to) {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(),
                  RENAME_NOREPLACE) == 0)
    return true;
  if (errno != EINVAL && errno != ENOSYS)
    return false;
  // A file system without RENAME_NOREPLACE: a link fails as well when the
  // name is taken.
  if (::link(from.c_str(), to.c_str()) == 0) {
    ::unlink(from.c_str());
    return true;
  }
  if (errno == EEXIST)
    return false;
  // Nor hard links (some FUSE and 9p mounts): look, then rename. Only a
  // file created in the instant between the two is replaced.
  struct stat there;
  if (::lstat(to.c_str(), &there) == 0) {
    errno = EEXIST;
    return false;
  }
  return std::rename(from.c_str(), to.c_str()) == 0;
}

/// Puts the complete, named temporary at `target` as `ifPresent` says;
/// false with errno, or with `error` where it says more.
bool placeTemporary(Temporary &temporary, const std::string &path,
                    const std::string &target, IfPresent ifPresent,
                    std::string &error) {
  if (ifPresent == IfPresent::Replace)
    return std::rename(temporary.name.c_str(), target.c_str()) == 0;
  if (renameIfFree(temporary.name, target))
    return true;
  int why = errno;
  // The result of the work is kept either way.
  std::string kept = keptName(target);
  bool moved = std::rename(temporary.name.c_str(), kept.c_str()) == 0;
  if (moved)
    temporary.name.clear(); // the caller removes no file now
  error = "cannot write " + path +
          (why == EEXIST ? ": a file appeared there while tc worked, and was "
                           "left as it was"
                         : std::string(": ") + std::strerror(why)) +
          (moved ? "; what tc wrote is in " + kept +
                       (why == EEXIST ? " (move it there if that file is not "
                                        "needed)"
                                      : "")
                 : " (nothing was written)");
  errno = why;
  return false;
}

/// A replaced file keeps its permissions (a new one has 0666 less the
/// umask); set before the data is synced, so that they are durable too.
void keepPermissionsOf(const std::string &target, int fd) {
  struct stat old;
  if (::stat(target.c_str(), &old) == 0 && S_ISREG(old.st_mode))
    ::fchmod(fd, old.st_mode & 0777);
}

} // namespace

std::string writtenPath(const std::string &path) {
  fs::path at = path;
  std::error_code ec;
  // 40: Linux's limit on links followed in one path (ELOOP beyond).
  for (int hops = 0; hops < 40 && fs::is_symlink(at, ec); ++hops) {
    fs::path to = fs::read_symlink(at, ec);
    if (ec)
      break;
    at = to.is_absolute() ? to : at.parent_path() / to;
  }
  return at.string();
}

void syncDirectoryOf(const std::string &path) {
  std::string directory = fs::path(path).parent_path().string();
  int fd = ::open(directory.empty() ? "." : directory.c_str(), O_RDONLY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

bool FileWriter::writeAt(uint64_t offset, const void *data, size_t size) {
  const char *p = static_cast<const char *>(data);
  while (size > 0) {
    ssize_t n = ::pwrite(fd_, p, size, off_t(offset));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      if (n == 0)
        errno = EIO; // nothing written, and no error said why
      return false;
    }
    p += n;
    offset += uint64_t(n);
    size -= size_t(n);
  }
  return true;
}

bool FileWriter::write(const void *data, size_t size) {
  if (!writeAt(appended_, data, size))
    return false;
  appended_ += size;
  return true;
}

bool writeFileAtomically(const std::string &path,
                         const std::function<bool(FileWriter &)> &fill,
                         Durability durability, std::string &error,
                         IfPresent ifPresent) {
  std::string target = writtenPath(path);
  Temporary temporary;
  if (!openTemporary(target, temporary)) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  keepPermissionsOf(target, temporary.fd);
  FileWriter writer(temporary.fd);
  errno = 0;
  bool ok =
      fill(writer) &&
      (durability == Durability::Replace || ::fsync(temporary.fd) == 0) &&
      (!temporary.name.empty() || linkTemporary(temporary, target));
  int savedErrno = ok ? 0 : errno;
  if (::close(temporary.fd) != 0 && ok) {
    ok = false;
    savedErrno = errno;
  }
  error.clear();
  if (ok && !placeTemporary(temporary, path, target, ifPresent, error)) {
    ok = false;
    savedErrno = errno;
  }
  if (!ok) {
    // A fill that failed without an errno (its own check) reads as EIO.
    if (error.empty())
      error = "cannot write " + path + ": " +
              std::strerror(savedErrno ? savedErrno : EIO);
    if (!temporary.name.empty())
      ::unlink(temporary.name.c_str());
    return false;
  }
  if (durability == Durability::Durable)
    syncDirectoryOf(target);
  return true;
}

bool writeFileAtomically(const std::string &path, const void *data, size_t size,
                         std::string &error, Durability durability,
                         IfPresent ifPresent) {
  return writeFileAtomically(
      path, [&](FileWriter &out) { return out.write(data, size); }, durability,
      error, ifPresent);
}

bool linkFileAtomically(const std::string &target, const std::string &link,
                        std::string &error) {
  std::string temporary;
  bool ok = createTemporaryName(link, temporary,
                                [&](const std::string &name) {
                                  return ::link(target.c_str(),
                                                name.c_str()) == 0;
                                }) &&
            std::rename(temporary.c_str(), link.c_str()) == 0;
  int why = errno;
  // Where `link` already named the same file, rename does nothing and
  // leaves the temporary; where it failed, the temporary is removed too.
  if (!temporary.empty())
    ::unlink(temporary.c_str());
  if (!ok) {
    error = "cannot link " + link + " to " + target + ": " +
            std::strerror(why);
    return false;
  }
  syncDirectoryOf(link);
  return true;
}

void setNamedTemporariesForTesting(bool named) {
  namedTemporariesOnly = named;
}

void removeStaleTemporaries(const std::string &path) {
  std::error_code ec;
  std::string target = writtenPath(path); // where they are made
  fs::path parent = fs::path(target).parent_path();
  std::string prefix = temporaryPrefix(target);
  for (const auto &entry :
       fs::directory_iterator(parent.empty() ? fs::path(".") : parent, ec)) {
    std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix))
      continue;
    // "<name>.tmp.<pid>[.<n>]": a process still running may be writing it.
    pid_t pid = 0;
    std::string_view after = std::string_view(name).substr(prefix.size());
    std::from_chars(after.data(), after.data() + after.size(), pid);
    if (pid == ::getpid() || !processRunning(pid))
      fs::remove(entry.path(), ec);
  }
}

} // namespace tc::support
