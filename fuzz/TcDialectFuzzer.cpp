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

#include <memory>
#include <string>

namespace {
std::unique_ptr<mlir::MLIRContext> freshContext() {
  auto context = std::make_unique<mlir::MLIRContext>(
      mlir::MLIRContext::Threading::DISABLED);
  context->loadDialect<tc::TcDialect, tc::plan::PlanDialect,
                       mlir::func::FuncDialect>();
  context->printOpOnDiagnostic(false);
  return context;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // One context for many inputs (making one costs more than parsing), made
  // afresh now and then: the attributes and types it uniques only grow.
  static std::unique_ptr<mlir::MLIRContext> context;
  static int uses = 0;
  if (!context || ++uses == 10000) {
    context = freshContext();
    uses = 0;
  }
  mlir::ScopedDiagnosticHandler silence(
      context.get(), [](mlir::Diagnostic &) { return mlir::success(); });
  // MLIR's lexer expects a NUL after the text, as the buffers of files
  // have: the fuzzer's bytes have none (reading past them was the first
  // "fault" this target found).
  std::string text(reinterpret_cast<const char *>(data), size);
  mlir::ParserConfig config(context.get());
  mlir::parseSourceString<mlir::ModuleOp>(text, config, "fuzz.mlir");
  return 0;
}
