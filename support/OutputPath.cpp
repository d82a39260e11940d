//===- OutputPath.cpp - the one policy for where a command may write -------===//

#include "support/OutputPath.h"
#include "support/AtomicFile.h"
#include "support/FileBytes.h"
#include "support/RunDirectory.h"

#include <algorithm>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace tc::support {
namespace {

/// Text is told from tc's binary files (checkpoints, executables, archives,
/// token files all hold NUL bytes in their headers) by its first bytes.
constexpr size_t kTextSniffBytes = 4096;

std::string refused(const Output &output, const std::string &why) {
  return output.flag + " " + output.path + " " + why;
}

/// The directory an output lands in, as given (for messages) and as it is
/// on disk (symbolic links followed, also one named by the path itself).
struct Place {
  std::string shown, real, name;
};

Place placeOf(const std::string &path) {
  Place place;
  place.shown = fs::path(path).parent_path().string();
  if (place.shown.empty())
    place.shown = ".";
  std::error_code ec;
  fs::path real = fs::weakly_canonical(path, ec);
  if (ec)
    real = fs::path(path);
  place.real = real.parent_path().string();
  place.name = real.filename().string();
  return place;
}

/// /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: what the shell
/// opened, appended to as it is. Any other existing path under /dev or /proc
/// is judged by what it names: /proc/self/cwd/ck/checkpoint.tcck is a run's
/// checkpoint, /dev/shm a directory of files (issue 29's review).
bool namesStandardStream(const std::string &path) {
  for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"})
    if (path.rfind(prefix, 0) == 0)
      return true;
  return path == "/dev/stdout" || path == "/dev/stderr";
}

bool sameDirectory(const std::string &a, const std::string &b) {
  std::error_code ec;
  return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec) && !ec;
}

/// The rule of a run's checkpoint directory (OutputPath.h); false with
/// `error`. `inRun` says whether the output lands in one.
bool checkRunDirectory(const Output &output, const Place &place, bool &inRun,
                       std::string &error) {
  bool own = output.trainsInto && !output.trainsInto->empty() &&
             sameDirectory(place.real, *output.trainsInto);
  inRun = own || isRunDirectory(place.real);
  if (!inRun)
    return true;
  if (std::optional<std::string> role = runFileRole(place.name)) {
    error = refused(output, "is " + *role + " in the checkpoint directory " +
                                place.shown +
                                ", which only its run writes; give the "
                                "output its own file (nothing was written)");
    return false;
  }
  if (output.trainsInto && !own) {
    error = refused(output, "is in the checkpoint directory " + place.shown +
                                " of another run; write a run's outputs "
                                "into its own --checkpoint-dir or elsewhere "
                                "(nothing was written)");
    return false;
  }
  return true;
}

/// Whether directory `outer` is `inner` or one above it, as paths (neither
/// need exist; "ck/" is "ck").
bool encloses(const std::string &outer, const std::string &inner) {
  auto normal = [](const std::string &path) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
    p = p.lexically_normal();
    return p.has_filename() ? p : p.parent_path();
  };
  fs::path a = normal(outer), b = normal(inner);
  return std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first ==
         a.end();
}

/// Whether the directory `output` lands in is there and writable now, not
/// only after the work (a translation's minutes, a compile) that a failed
/// write at its end would lose; false with `error`.
bool checkDirectoryOf(const Output &output, std::string &error) {
  std::string directory = placeOf(writtenPath(output.path)).shown;
  std::error_code ec;
  if (!fs::is_directory(directory, ec)) {
    bool exists = fs::exists(directory, ec);
    error = refused(output, "is in " + directory +
                                (exists ? ", which is not a directory; "
                                        : ", which does not exist; create "
                                          "it (mkdir -p " + directory +
                                              ") or ") +
                                "choose another " + output.flag +
                                " (nothing was written)");
    return false;
  }
  if (::access(directory.c_str(), W_OK | X_OK) != 0) {
    error = refused(output, "is in " + directory +
                                ", where this user cannot create files; "
                                "choose another " + output.flag +
                                " (nothing was written)");
    return false;
  }
  return true;
}

} // namespace

bool sameFile(const std::string &a, const std::string &b) {
  if (a.empty() || b.empty())
    return false;
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec))
    return fs::equivalent(a, b, ec);
  fs::path left = fs::weakly_canonical(a, ec);
  if (ec)
    return false;
  fs::path right = fs::weakly_canonical(b, ec);
  return !ec && left == right;
}

std::optional<OutputKind> checkOutputPath(const Output &output,
                                          std::string &error) {
  const std::string &path = output.path;
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);
  if (ec == std::errc::too_many_symbolic_link_levels) {
    error = refused(output, "is a symbolic link that loops; give another "
                            "path (nothing was written)");
    return std::nullopt;
  }
  // A symbolic link is written through (AtomicFile.h), also one to a file
  // not there yet: the file it names is what the rules judge.
  std::string written = writtenPath(path);
  for (const ProtectedFile &file : output.protect)
    if (sameFile(written, file.path)) {
      error = refused(output, "is " + file.what +
                                  "; give the output its own file (nothing "
                                  "was written)");
      return std::nullopt;
    }
  if (fs::is_directory(status)) {
    error = refused(output, "is a directory; give a file path");
    return std::nullopt;
  }
  // Nothing is ever created under /dev: a name there that does not exist
  // stands for a device (tc-compile -o /dev/null must not become a file).
  if (namesStandardStream(path) ||
      (path.rfind("/dev/", 0) == 0 && !fs::exists(status)))
    return OutputKind::Stream;
  Place place = placeOf(written);
  bool inRun = false;
  if (!checkRunDirectory(output, place, inRun, error))
    return std::nullopt;
  if (!fs::exists(status)) {
    // A new file needs its directory now, not after the work (a --profile
    // in a missing one lost a translation's output): unless the trainer
    // creates it with its checkpoint directory (that one or one above it).
    bool runMakesIt = output.trainsInto && !output.trainsInto->empty() &&
                      !fs::exists(place.shown, ec) &&
                      encloses(place.shown, *output.trainsInto);
    if (!runMakesIt && !checkDirectoryOf(output, error))
      return std::nullopt;
    return OutputKind::New;
  }
  if (!fs::is_regular_file(status))
    return OutputKind::Stream;
  if ((status.permissions() & (fs::perms::owner_exec | fs::perms::group_exec |
                               fs::perms::others_exec)) != fs::perms::none) {
    error = refused(output, "is a program (it may be executed); tc replaces "
                            "none (give another path; nothing was written)");
    return std::nullopt;
  }
  if (output.magic.empty()) {
    // Text: any file of a run's directory could be the run's (its metrics,
    // notes); elsewhere only text is taken for earlier output.
    if (inRun) {
      error =
          refused(output, "exists in the checkpoint directory " +
                              place.shown + ", where " + output.what +
                              " replace no file (it may be the run's); "
                              "give another path (nothing was written)");
      return std::nullopt;
    }
    std::optional<std::string> start = readFilePrefix(path, kTextSniffBytes);
    if (!start || start->find('\0') != std::string::npos) {
      error = refused(output, "exists and is not a text file; " + output.what +
                                  " replace only earlier text (give another "
                                  "path; nothing was written)");
      return std::nullopt;
    }
  }
  if (fs::file_size(path, ec) == 0)
    return OutputKind::Empty;
  if (!fileStartsWith(path, output.magic)) {
    error = refused(output, "exists and is not a file tc writes there; "
                            "refusing to overwrite it (give another path)");
    return std::nullopt;
  }
  return OutputKind::Existing;
}

bool checkReplaceableOutput(const Output &output, bool overwrite,
                            std::string &error) {
  std::optional<OutputKind> kind = checkOutputPath(output, error);
  if (!kind)
    return false;
  if (*kind == OutputKind::Stream) {
    error = refused(output, "is not a regular file; give the path of " +
                                output.what + " to write");
    return false;
  }
  if (*kind != OutputKind::New && !overwrite) {
    error = output.path +
            " already exists; pass --overwrite to replace it, "
            "or choose another " +
            output.flag + " (nothing was written)";
    return false;
  }
  // The file is written in the directory of the file it puts in place (a
  // symbolic link's target's; AtomicFile.h); checkOutputPath checked it
  // for a new file.
  return *kind == OutputKind::New || checkDirectoryOf(output, error);
}

} // namespace tc::support
