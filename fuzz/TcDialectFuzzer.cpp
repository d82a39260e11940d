//===- TcDialectFuzzer.cpp - tc dialect text: MLIR's parser, tc's verifiers -===//
//
// Text as tc-opt and tc-interpret read it: parsed by MLIR with the tc, plan
// and func dialects loaded, every op verified (tc's verifiers check shapes,
// axes and attributes). Diagnostics are dropped: only crashes matter here.

#include "dialects/plan/PlanDialect.h"
#include "dialects/tc/TcDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static mlir::MLIRContext *context = [] {
    auto *created = new mlir::MLIRContext(mlir::MLIRContext::Threading::DISABLED);
    created->loadDialect<tc::TcDialect, tc::plan::PlanDialect,
                         mlir::func::FuncDialect>();
    created->printOpOnDiagnostic(false);
    return created;
  }();
  mlir::ScopedDiagnosticHandler silence(
      context, [](mlir::Diagnostic &) { return mlir::success(); });
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  mlir::ParserConfig config(context);
  mlir::parseSourceString<mlir::ModuleOp>(text, config, "fuzz.mlir");
  return 0;
}
