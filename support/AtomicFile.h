//===- AtomicFile.h - replacing a file whole or not at all -----------------===//
//
// Every file tc writes that a user or another process may read (executables,
// checkpoints, token files, metrics, cached kernels) is written to a
// temporary beside it, "<path>.tmp.<pid>", and renamed over it: a reader sees
// the old file or the new one, never a part, and a failed write leaves the
// old file as it was. The pid keeps two processes' temporaries apart.
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_ATOMICFILE_H
#define TC_SUPPORT_ATOMICFILE_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace tc::support {

enum class Durability {
  /// Atomic for readers and when the writing process dies.
  Replace,
  /// Also survives a power loss: the file and its directory are synced
  /// before the write counts as done (checkpoints).
  Durable,
};

/// Appends to the temporary file.
class FileWriter {
public:
  explicit FileWriter(int fd) : fd_(fd) {}
  /// False when the bytes could not all be written (errno says why).
  bool write(const void *data, size_t size);
  /// Writes over bytes written before, at `offset` from the file's start
  /// (a header whose counts are known at the end), and appends on after
  /// what was appended last.
  bool writeAt(uint64_t offset, const void *data, size_t size);

private:
  int fd_;
  uint64_t appended_ = 0; ///< where write() goes on
};

/// Syncs the directory holding `path`, which makes a rename or a link in it
/// durable.
void syncDirectoryOf(const std::string &path);

/// Writes `path` with what `fill` writes; false with `error` ("cannot write
/// PATH: why") when `fill` or the file system fails.
bool writeFileAtomically(const std::string &path,
                         const std::function<bool(FileWriter &)> &fill,
                         Durability durability, std::string &error);

/// Writes `path` with `size` bytes at `data`.
bool writeFileAtomically(const std::string &path, const void *data, size_t size,
                         std::string &error,
                         Durability durability = Durability::Replace);

/// Removes the temporaries of `path` that writers killed mid-write left
/// behind. Only for a file no other process writes at the same time (a
/// checkpoint in its locked directory): it would remove their temporaries.
void removeStaleTemporaries(const std::string &path);

} // namespace tc::support

#endif // TC_SUPPORT_ATOMICFILE_H
