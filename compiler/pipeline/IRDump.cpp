//===- IRDump.cpp - tc-compile --dump-ir: the IR after every pass ---------===//

#include "compiler/pipeline/IRDump.h"

#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace tc {
namespace {

/// Prints the whole module after every pass into the next numbered file.
class NumberedFiles : public mlir::PassManager::IRPrinterConfig {
public:
  explicit NumberedFiles(std::string directory)
      : IRPrinterConfig(/*printModuleScope=*/true),
        directory(std::move(directory)) {}

  void printAfterIfEnabled(mlir::Pass *pass, mlir::Operation *,
                           PrintCallbackFn print) override {
    std::error_code ec;
    llvm::raw_fd_ostream os(path(next++, pass->getArgument().str()), ec);
    if (!ec)
      print(os);
  }

  std::string path(int index, const std::string &name) const {
    llvm::SmallString<256> p(directory);
    llvm::sys::path::append(
        p, llvm::formatv("{0:02}-{1}.mlir", index, name).str());
    return p.str().str();
  }

  std::string directory;
  int next = 1;
};

/// Whether `name` is a file --dump-ir writes: "NN-NAME.mlir", NN two
/// digits or more.
bool isDumpName(llvm::StringRef name) {
  size_t digits = name.find_first_not_of("0123456789");
  return digits >= 2 && digits != llvm::StringRef::npos &&
         name.substr(digits).starts_with("-") && name.ends_with(".mlir");
}

/// Removes an earlier dump's files from `directory`, so that it holds this
/// compile's; false with `error` when a name the dump writes is not a
/// plain file there (a link, which would be written through; a FIFO,
/// which would hang the compile; a program), which is the user's and
/// stays. Files of other names (the executable, a .gitignore) are left.
bool clearEarlierDump(const std::string &directory, std::string &error) {
  std::error_code ec;
  std::vector<std::string> earlier;
  for (llvm::sys::fs::directory_iterator entry(directory, ec,
                                              /*follow_symlinks=*/false),
       end;
       entry != end && !ec; entry.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(entry->path());
    if (!isDumpName(name))
      continue;
    llvm::ErrorOr<llvm::sys::fs::basic_file_status> status = entry->status();
    if (!status || status->type() != llvm::sys::fs::file_type::regular_file ||
        (status->permissions() & llvm::sys::fs::all_exe) != 0) {
      error = directory + " holds " + name.str() +
              ", which is not an earlier dump's plain file; move it away or "
              "give another directory (nothing was written)";
      return false;
    }
    earlier.push_back(entry->path());
  }
  if (ec) {
    error = "cannot read " + directory + ": " + ec.message();
    return false;
  }
  for (const std::string &path : earlier)
    if (std::error_code removed = llvm::sys::fs::remove(path)) {
      error = "cannot remove the earlier dump " + path + ": " +
              removed.message();
      return false;
    }
  return true;
}

} // namespace

bool enableIRDump(mlir::PassManager &pm, mlir::ModuleOp module,
                  const std::string &directory, const std::string &name,
                  std::string &error) {
  if (std::error_code ec = llvm::sys::fs::create_directories(directory)) {
    error = "cannot create " + directory + ": " + ec.message();
    return false;
  }
  if (!clearEarlierDump(directory, error))
    return false;
  auto config = std::make_unique<NumberedFiles>(directory);
  std::error_code ec;
  llvm::raw_fd_ostream os(config->path(0, name), ec);
  if (ec) {
    error = "cannot write into " + directory + ": " + ec.message();
    return false;
  }
  module.print(os);
  // Passes over functions would print once per function: one file per pass
  // needs them to run one after another on one thread.
  module.getContext()->disableMultithreading();
  pm.enableIRPrinting(std::move(config));
  return true;
}

} // namespace tc
