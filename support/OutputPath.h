//===- OutputPath.h - the one policy for where a command may write ---------===//
//
// The files tc's commands write (translations, checkpoints, archives, token
// files, executables, metrics, profiles) are named by the user, and a typo
// or a careless --overwrite must not destroy what the user had. Every
// output path of every command is checked here, before anything is
// written, against one rule:
//
//  - never a file the command reads or owns (also before it exists), a
//    directory, or a program (a file with an execute bit);
//  - never a file of a run's checkpoint directory (RunDirectory.h: its
//    checkpoints, lock, validation record, vocabulary and their temporaries,
//    also names not there yet), --overwrite or not: only the run's trainer
//    writes them. A trainer's own outputs stay out of other runs'
//    directories;
//  - an existing file, an empty one too, only when it is of the output's
//    own kind (it starts with the kind's magic) and, for a file replaced
//    whole, with --overwrite. Text (translations) has no magic: it replaces
//    only text (no NUL byte), and no file of a run's directory, whose
//    metrics and notes any text could be;
//  - /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N, a device, FIFO
//    or socket is a stream, appended to and never truncated or replaced;
//    so is a name under /dev that does not exist (nothing is created
//    there); any other path under /dev or /proc is judged by the file it
//    names.
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_OUTPUTPATH_H
#define TC_SUPPORT_OUTPUTPATH_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tc::support {

/// A file an output must never overwrite: "the executable", "the input".
struct ProtectedFile {
  std::string path;
  std::string what;
};

/// An output a command is about to write.
struct Output {
  std::string flag; ///< "-o", "--metrics"
  std::string path;
  std::string what; ///< "the token file", for messages
  /// How a file of this kind starts; empty: text.
  std::string_view magic;
  /// The files the command reads or owns.
  std::vector<ProtectedFile> protect;
  /// Set for a trainer's outputs (metrics, profile): the checkpoint
  /// directory it trains into ("" for none), whose run files are protected
  /// before they exist; the outputs may be in no other run's directory.
  std::optional<std::string> trainsInto;
};

enum class OutputKind {
  New,      ///< nothing there yet
  Empty,    ///< an existing empty regular file
  Existing, ///< a regular file of this kind (it starts with the magic)
  Stream,   ///< a device, FIFO or socket, or a standard stream by name
};

/// What `output.path` names; none with `error` (naming the flag, the path
/// and the fix) when the policy above refuses it. For outputs written in
/// place (metrics, a profile).
std::optional<OutputKind> checkOutputPath(const Output &output,
                                          std::string &error);

/// The check of a file that a command writes whole by replacing it (a
/// token file, an archive, a checkpoint, translations, an executable): as
/// checkOutputPath, and also refused when it is a stream (a rename cannot
/// replace a device or a pipe, and must never replace /dev/null), unless
/// `overwrite` an existing file (an empty one too), and when its directory
/// does not exist or this user cannot create files there (checked before
/// the work, which a failed write at its end would lose). False with
/// `error`.
bool checkReplaceableOutput(const Output &output, bool overwrite,
                            std::string &error);

/// Whether `a` and `b` name one file, also when it does not exist yet.
bool sameFile(const std::string &a, const std::string &b);

} // namespace tc::support

#endif // TC_SUPPORT_OUTPUTPATH_H
