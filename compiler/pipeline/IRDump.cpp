//===- IRDump.cpp - tc-compile --dump-ir: the IR after every pass ---------===//

#include "compiler/pipeline/IRDump.h"

#include "mlir/Pass/Pass.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

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

} // namespace

bool enableIRDump(mlir::PassManager &pm, mlir::ModuleOp module,
                  const std::string &directory, const std::string &name,
                  std::string &error) {
  if (std::error_code ec = llvm::sys::fs::create_directories(directory)) {
    error = "cannot create " + directory + ": " + ec.message();
    return false;
  }
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
