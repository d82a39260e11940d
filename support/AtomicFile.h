//===- AtomicFile.h - replacing a file whole or not at all -----------------===//
//
// Every file tc writes that a user or another process may read (executables,
// checkpoints, token files, metrics, cached kernels) is written to a
// temporary in its directory and put in place whole: a reader sees the old
// file or the new one, never a part, and a failed write leaves the old file
// as it was. The temporary has no name (O_TMPFILE) until it is complete, so
// a process killed while writing leaves nothing behind; on a file system
// without O_TMPFILE it is "<path>.tmp.<pid>.<n>" (the pid and a count keep
// two writes' temporaries apart). A symbolic link is written through, as the shell's >
// does: the file it names is replaced and the link stays. A replaced file
// keeps its permissions; a new one gets 0666 less the umask.
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

/// What becomes of a file found at the path when the new one is put there.
enum class IfPresent {
  /// It is replaced: the command may (--overwrite, or a file it owns).
  Replace,
  /// It is kept and the write fails: the command found no file there when
  /// it checked the path (checkReplaceableOutput), so one that appeared
  /// while it worked is someone else's. What was written is kept too, in
  /// "<path>.new.<pid>", which the error names.
  Keep,
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

/// The file a write of `path` puts in place: `path`, or the file its
/// symbolic links name (also one that does not exist yet).
std::string writtenPath(const std::string &path);

/// Writes `path` with what `fill` writes; false with `error` ("cannot write
/// PATH: why") when `fill` or the file system fails.
bool writeFileAtomically(const std::string &path,
                         const std::function<bool(FileWriter &)> &fill,
                         Durability durability, std::string &error,
                         IfPresent ifPresent = IfPresent::Replace);

/// Writes `path` with `size` bytes at `data`.
bool writeFileAtomically(const std::string &path, const void *data, size_t size,
                         std::string &error,
                         Durability durability = Durability::Replace,
                         IfPresent ifPresent = IfPresent::Replace);

/// Makes `link` a hard link of the file `target` names now, replacing what
/// was at `link` (the name itself: a symbolic link there is replaced, not
/// written through) in one rename, through a temporary named as a write's
/// ("<link>.tmp.<pid>.<n>"), and syncs the directory; false with `error`
/// ("cannot link LINK to TARGET: why"). A run's best.tcck and numbered
/// checkpoints: another name for its latest, not a copy.
bool linkFileAtomically(const std::string &target, const std::string &link,
                        std::string &error);

/// IfPresent::Keep for a command that checked its output without
/// --overwrite, Replace with it.
inline IfPresent ifPresentFor(bool overwrite) {
  return overwrite ? IfPresent::Replace : IfPresent::Keep;
}

/// Removes the named temporaries of `path` that writers killed mid-write
/// left behind (on a file system without O_TMPFILE): those whose pid (in
/// their name) is this process's or no running process's. Another running
/// process's may be a write in progress (an average into the same -o), and
/// stays.
void removeStaleTemporaries(const std::string &path);

/// For tests: every temporary is named from the start, as on a file system
/// without O_TMPFILE (true), or has no name until it is whole where the
/// file system allows (false, the default).
void setNamedTemporariesForTesting(bool named);

} // namespace tc::support

#endif // TC_SUPPORT_ATOMICFILE_H
