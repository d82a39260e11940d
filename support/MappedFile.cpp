//===- MappedFile.cpp - a whole file mapped read-only ----------------------===//

#include "support/MappedFile.h"
#include "support/FileBytes.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tc::support {

std::unique_ptr<MappedFile> MappedFile::open(const std::string &path,
                                             uint64_t maxBytes,
                                             std::string &error) {
  // The type first, so that a device or a FIFO is never opened.
  if (!checkInputFile(path, maxBytes, error))
    return nullptr;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    int why = errno;
    error = path + ": cannot open: " + std::strerror(why);
    return nullptr;
  }
  struct stat info;
  bool regular = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
  if (!regular || uint64_t(info.st_size) > maxBytes) {
    ::close(fd);
    error = path + (regular ? ": grew past the size limit while it was opened"
                            : ": is not a regular file; give the path of a "
                              "file");
    return nullptr;
  }
  uint64_t size = uint64_t(info.st_size);
  void *data = nullptr;
  if (size > 0) {
    data = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
    if (data == MAP_FAILED) {
      int why = errno;
      ::close(fd);
      error = path + ": cannot map: " + std::strerror(why);
      return nullptr;
    }
  }
  ::close(fd); // the mapping keeps the file
  return std::unique_ptr<MappedFile>(
      new MappedFile(static_cast<const uint8_t *>(data), size));
}

MappedFile::~MappedFile() {
  if (data_)
    ::munmap(const_cast<uint8_t *>(data_), size_);
}

} // namespace tc::support
