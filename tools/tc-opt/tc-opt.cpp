//===- tc-opt.cpp - the mlir-opt of tc ------------------------------------===//
//
// Every tc dialect, pass and pipeline (tc-compile's, by name), plus func and
// the standard MLIR options
// (--mlir-print-ir-after-all, --split-input-file, --verify-diagnostics, ...).
// Its -o follows tc's output rules (support/OutputPath.h): never an input,
// a program or a run's file; an existing file only with --overwrite; written
// whole, after the passes succeeded (mlir-opt truncates it first, and
// removes it when they fail).
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
#include "mlir/Transforms/Passes.h"

#include <sys/mman.h>
#include <unistd.h>

static llvm::cl::opt<bool> overwrite("overwrite",
                                     llvm::cl::desc("replace -o when it exists"));

/// The bytes written to the memory file `fd`.
static std::string contentsOf(int fd) {
  std::string bytes;
  char block[1 << 16];
  ::lseek(fd, 0, SEEK_SET);
  for (ssize_t got; (got = ::read(fd, block, sizeof block)) > 0;)
    bytes.append(block, size_t(got));
  return bytes;
}

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
  if (output == "-" || *kind == tc::support::OutputKind::Stream)
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, input, output, registry));
  // A file: the passes write into memory, which is put in place whole once
  // they succeed.
  int memory = ::memfd_create("tc-opt-output", MFD_CLOEXEC);
  if (memory < 0) {
    llvm::errs() << "tc-opt: error: cannot make the output's buffer: "
                 << std::strerror(errno) << "\n";
    return EXIT_FAILURE;
  }
  std::string through = "/proc/self/fd/" + std::to_string(memory);
  if (mlir::failed(mlir::MlirOptMain(argc, argv, input, through, registry)))
    return EXIT_FAILURE; // nothing written
  std::string bytes = contentsOf(memory);
  ::close(memory);
  if (!tc::support::writeFileAtomically(
          output, bytes.data(), bytes.size(), error,
          tc::support::Durability::Replace,
          tc::support::ifPresentFor(overwrite))) {
    llvm::errs() << "tc-opt: error: " << error << "\n";
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
