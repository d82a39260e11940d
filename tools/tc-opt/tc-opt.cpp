//===- tc-opt.cpp - the mlir-opt of tc ------------------------------------===//
//
// Every tc dialect, pass and pipeline (tc-compile's, by name), plus func and
// the standard MLIR options
// (--mlir-print-ir-after-all, --split-input-file, --verify-diagnostics, ...).
// Its -o follows tc's output rules (support/OutputPath.h): never an input,
// a program or a run's file; an existing file only with --overwrite; written
// whole, after the passes succeeded (mlir-opt truncates it first, and
// removes it when they fail, also a stream's path such as /dev/stdout).
//
//===----------------------------------------------------------------------===//

#include "compiler/pipeline/Pipeline.h"
#include "compiler/transforms/Passes.h"
#include "dialects/plan/PlanDialect.h"
#include "dialects/tc/TcDialect.h"
#include "support/AtomicFile.h"
#include "support/FileBytes.h"
#include "support/OutputPath.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>

static llvm::cl::opt<bool> overwrite("overwrite",
                                     llvm::cl::desc("replace -o when it exists"));

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry
      .insert<tc::TcDialect, tc::plan::PlanDialect, mlir::func::FuncDialect>();
  mlir::registerTransformsPasses();
  tc::registerTcPasses();
  tc::registerTcPipelines();
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "tc optimizer driver\n", registry);
  // A directory or a device (/dev/zero) is refused before MLIR reads it.
  std::string error;
  if (input != "-" &&
      !tc::support::checkInputFile(input, tc::support::kGiB, error)) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  tc::support::Output out{"-o", output, "the IR", "", {}};
  if (input != "-")
    out.protect.push_back({input, "the input"});
  std::optional<tc::support::OutputKind> kind;
  if (output != "-") {
    kind = tc::support::checkOutputPath(out, error);
    if (!kind || (*kind != tc::support::OutputKind::Stream &&
                  !tc::support::checkReplaceableOutput(out, overwrite,
                                                       error))) {
      llvm::errs() << "tc-opt: error: " << error << "\n";
      return 2;
    }
  }
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // Standard output, and the listings that read no input: as mlir-opt.
  if (output == "-" || config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, input, output, registry));
  std::string why;
  std::unique_ptr<llvm::MemoryBuffer> buffer = mlir::openInputFile(input, &why);
  if (!buffer) {
    llvm::errs() << "tc-opt: error: " << why << "\n";
    return EXIT_FAILURE;
  }
  // A stream (/dev/stdout, a FIFO) is appended to, never created (a
  // missing name under /dev); mlir-opt's own output file would remove its
  // path when a pass fails (/dev/stdout, as root).
  if (*kind == tc::support::OutputKind::Stream) {
    int fd = ::open(output.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) {
      llvm::errs() << "tc-opt: error: cannot write " << output << ": "
                   << std::strerror(errno) << "\n";
      return EXIT_FAILURE;
    }
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(os, std::move(buffer), registry, config));
  }
  // A file: put in place whole once the passes succeed.
  std::string text;
  llvm::raw_string_ostream os(text);
  if (mlir::failed(mlir::MlirOptMain(os, std::move(buffer), registry, config)))
    return EXIT_FAILURE; // nothing written
  os.flush();
  if (!tc::support::writeFileAtomically(
          output, text.data(), text.size(), error,
          tc::support::Durability::Replace,
          tc::support::ifPresentFor(overwrite))) {
    llvm::errs() << "tc-opt: error: " << error << "\n";
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
