//===- AtomicFile.cpp - replacing a file whole or not at all ---------------===//

#include "support/AtomicFile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

namespace fs = std::filesystem;

namespace tc::support {
namespace {

std::string temporaryPrefix(const std::string &path) {
  return fs::path(path).filename().string() + ".tmp.";
}

} // namespace

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
                         Durability durability, std::string &error) {
  std::string temporary =
      (fs::path(path).parent_path() / temporaryPrefix(path)).string() +
      std::to_string(::getpid());
  // 0666 less the umask, as any other new file of the user's.
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  FileWriter writer(fd);
  errno = 0;
  bool ok =
      fill(writer) && (durability == Durability::Replace || ::fsync(fd) == 0);
  int savedErrno = ok ? 0 : errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    savedErrno = errno;
  }
  if (ok && std::rename(temporary.c_str(), path.c_str()) != 0) {
    ok = false;
    savedErrno = errno;
  }
  if (!ok) {
    // A fill that failed without an errno (its own check) reads as EIO.
    error = "cannot write " + path + ": " +
            std::strerror(savedErrno ? savedErrno : EIO);
    ::unlink(temporary.c_str());
    return false;
  }
  if (durability == Durability::Durable)
    syncDirectoryOf(path);
  return true;
}

bool writeFileAtomically(const std::string &path, const void *data, size_t size,
                         std::string &error, Durability durability) {
  return writeFileAtomically(
      path, [&](FileWriter &out) { return out.write(data, size); }, durability,
      error);
}

void removeStaleTemporaries(const std::string &path) {
  std::error_code ec;
  fs::path parent = fs::path(path).parent_path();
  std::string prefix = temporaryPrefix(path);
  for (const auto &entry :
       fs::directory_iterator(parent.empty() ? fs::path(".") : parent, ec))
    if (entry.path().filename().string().starts_with(prefix))
      fs::remove(entry.path(), ec);
}

} // namespace tc::support
