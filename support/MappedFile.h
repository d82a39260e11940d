//===- MappedFile.h - a whole file mapped read-only ------------------------===//
//
// A large input that is read in parts (a token file of millions of pairs)
// is mapped rather than read: the processes that map one file share one
// copy of it in the page cache, and a page is read from the disk only when
// it is first touched. The same checks as a whole-file read (FileBytes.h):
// a regular file only, up to a size limit the caller states. tc replaces
// the files it writes by renaming (AtomicFile.h), so a mapped file is never
// cut short under a reader by tc itself.
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_MAPPEDFILE_H
#define TC_SUPPORT_MAPPEDFILE_H

#include <cstdint>
#include <memory>
#include <string>

namespace tc::support {

class MappedFile {
public:
  /// The regular file at `path` mapped read-only, or null with `error`
  /// saying "<path>: <why>" (as readFileBytes does).
  static std::unique_ptr<MappedFile> open(const std::string &path,
                                          uint64_t maxBytes,
                                          std::string &error);
  ~MappedFile();
  MappedFile(const MappedFile &) = delete;
  MappedFile &operator=(const MappedFile &) = delete;

  const uint8_t *data() const { return data_; }
  uint64_t size() const { return size_; }

private:
  MappedFile(const uint8_t *data, uint64_t size) : data_(data), size_(size) {}
  const uint8_t *data_; ///< null for an empty file
  uint64_t size_;
};

} // namespace tc::support

#endif // TC_SUPPORT_MAPPEDFILE_H
