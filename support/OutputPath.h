//===- OutputPath.h - checking where a command may write -------------------===//
//
// The files tc's commands write (metrics, profiles, token files,
// executables) are named by the user, and a typo must not destroy what the
// user had. Before anything is written, an output path is checked: it must
// not be one of the files the command reads or owns (also before that file
// exists), nor a directory, nor an existing file of another kind; a path
// under /dev or /proc, or a device, FIFO or socket, is a stream (such as
// /dev/stdout), which is appended to and never truncated or replaced.
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_OUTPUTPATH_H
#define TC_SUPPORT_OUTPUTPATH_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tc::support {

/// A file an output must never overwrite: "the executable", "the run's
/// checkpoint".
struct ProtectedFile {
  std::string path;
  std::string what;
};

enum class OutputKind {
  New,      ///< nothing there yet, or an empty regular file
  Existing, ///< a regular file of this kind (it starts with the magic)
  Stream,   ///< a device, FIFO or socket, or a path under /dev or /proc
};

/// What `path`, given as `flag` ("--metrics"), names as an output of files
/// that start with `magic`; none with `error` when it is one of `protect`,
/// a directory, or an existing file of another kind.
std::optional<OutputKind>
checkOutputPath(const std::string &flag, const std::string &path,
                std::string_view magic,
                const std::vector<ProtectedFile> &protect, std::string &error);

/// The check of a file that a command writes whole by replacing it (a
/// token file, an archive, a checkpoint, translations): as
/// checkOutputPath, and also refused when it is a stream (a rename cannot
/// replace a device or a pipe, and must never replace /dev/null) or, unless
/// `overwrite`, an existing file. `what` names the output in the fix ("the
/// token file"). False with `error`.
bool checkReplaceableOutput(const std::string &flag, const std::string &path,
                            std::string_view magic,
                            const std::vector<ProtectedFile> &protect,
                            bool overwrite, const std::string &what,
                            std::string &error);

/// Whether `a` and `b` name one file, also when it does not exist yet.
bool sameFile(const std::string &a, const std::string &b);

} // namespace tc::support

#endif // TC_SUPPORT_OUTPUTPATH_H
