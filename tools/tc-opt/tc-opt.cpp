//===- tc-opt.cpp - the mlir-opt of tc ------------------------------------===//
//
// Every tc dialect, pass and pipeline (tc-compile's, by name), plus func and
// the standard MLIR options
// (--mlir-print-ir-after-all, --split-input-file, --verify-diagnostics, ...).
//
//===----------------------------------------------------------------------===//

#include "compiler/pipeline/Pipeline.h"
#include "compiler/transforms/Passes.h"
#include "dialects/plan/PlanDialect.h"
#include "dialects/tc/TcDialect.h"
#include "support/FileBytes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

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
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, input, output, registry));
}
