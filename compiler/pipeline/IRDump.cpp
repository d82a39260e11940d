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

/// Whether `name` is a file --dump-ir writes: "NN-NAME.mlir".
bool isDumpName(llvm::StringRef name) {
  return name.size() > 8 && llvm::isDigit(name[0]) && llvm::isDigit(name[1]) &&
         name[2] == '-' && name.ends_with(".mlir");
}

/// Removes an earlier dump from `directory`, so that it holds this
/// compile's files only; false with `error` when it holds anything else
/// (a link, a FIFO, a program, a file of another name), which is the
/// user's and stays.
bool clearEarlierDump(const std::string &directory, std::string &error) {
  std::error_code ec;
  std::vector<std::string> earlier;
  for (llvm::sys::fs::directory_iterator entry(directory, ec,
                                              /*follow_symlinks=*/false),
       end;
       entry != end && !ec; entry.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(entry->path());
    llvm::ErrorOr<llvm::sys::fs::basic_file_status> status = entry->status();
    bool dump = status && isDumpName(name) &&
                status->type() == llvm::sys::fs::file_type::regular_file &&
                (status->permissions() & llvm::sys::fs::all_exe) == 0;
    if (!dump) {
      error = directory + " holds " + name.str() +
              ", which is not an earlier dump (a plain file NN-NAME.mlir); "
              "give a new or empty directory (nothing was written)";
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
