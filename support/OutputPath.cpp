//===- OutputPath.cpp - checking where a command may write -----------------===//

#include "support/OutputPath.h"
#include "support/FileBytes.h"

#include <filesystem>

namespace fs = std::filesystem;

namespace tc::support {

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

std::optional<OutputKind>
checkOutputPath(const std::string &flag, const std::string &path,
                std::string_view magic,
                const std::vector<ProtectedFile> &protect, std::string &error) {
  for (const ProtectedFile &file : protect)
    if (sameFile(path, file.path)) {
      error = flag + " " + path + " is " + file.what +
              "; give the output its own file (nothing was written)";
      return std::nullopt;
    }
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);
  if (fs::is_directory(status)) {
    error = flag + " " + path + " is a directory; give a file path";
    return std::nullopt;
  }
  bool special = path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0;
  if (special || (fs::exists(status) && !fs::is_regular_file(status)))
    return OutputKind::Stream;
  if (!fs::exists(status) || fs::file_size(path, ec) == 0)
    return OutputKind::New;
  if (!fileStartsWith(path, magic)) {
    error = flag + " " + path +
            " exists and is not a file tc writes there; refusing to "
            "overwrite it (give another path)";
    return std::nullopt;
  }
  return OutputKind::Existing;
}

bool checkReplaceableOutput(const std::string &flag, const std::string &path,
                            std::string_view magic,
                            const std::vector<ProtectedFile> &protect,
                            bool overwrite, const std::string &what,
                            std::string &error) {
  std::optional<OutputKind> kind =
      checkOutputPath(flag, path, magic, protect, error);
  if (!kind)
    return false;
  if (*kind == OutputKind::Stream) {
    error = flag + " " + path + " is not a regular file; give the path of " +
            what + " to write";
    return false;
  }
  if (*kind == OutputKind::Existing && !overwrite) {
    error = path + " already exists; pass --overwrite to replace it, or "
                   "choose another " +
            flag + " (nothing was written)";
    return false;
  }
  return true;
}

} // namespace tc::support
