//===- ModelPipeline.h - a model description compiled, for tests -----------===//
//
// The test suites' one way from a .toml to a module: the description built
// into a Transformer and run through the training pipeline with all fusions
// (and the plan pipeline, for tests of the lowered kernels); and from a
// kernel test's hand-written functions to the kernels they fuse into.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TEST_UNIT_MODELPIPELINE_H
#define TC_TEST_UNIT_MODELPIPELINE_H

#include "compiler/frontend/ModelDescription.h"
#include "compiler/frontend/TransformerBuilder.h"
#include "compiler/pipeline/Pipeline.h"
#include "compiler/transforms/Passes.h"
#include "dialects/tc/TcDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <string>

namespace tc::test {

/// The description at `path` built and run through the training pipeline
/// (the `fusions`, tc-compile --fusion's spelling; in `precision` when
/// given, else the description's), and the plan pipeline too when `plan`;
/// null, with a test failure saying why, when that fails.
inline mlir::OwningOpRef<mlir::ModuleOp>
compileModel(mlir::MLIRContext &context, const std::string &path,
             bool plan = false,
             std::optional<support::Precision> precision = std::nullopt,
             const std::string &fusions = "all") {
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  std::optional<ModelDescription> model =
      readModelDescription(path, errorStream);
  EXPECT_TRUE(model) << errors;
  if (!model)
    return nullptr;
  if (precision)
    model->training.precision = *precision;
  mlir::OwningOpRef<mlir::ModuleOp> module = buildTransformer(context, *model);
  mlir::PassManager pm(&context);
  std::string error;
  std::optional<std::set<std::string>> chosen = parseFusions(fusions, error);
  EXPECT_TRUE(chosen) << error;
  if (!chosen)
    return nullptr;
  addTrainingPipeline(pm, *model, *chosen);
  if (plan)
    addPlanPipeline(pm);
  bool compiled = mlir::succeeded(pm.run(*module));
  EXPECT_TRUE(compiled) << path;
  return compiled ? std::move(module) : nullptr;
}

/// The functions of test/Codegen/Inputs/`file` after the fusions that make
/// their kernels: tc-fuse-elementwise, tc-fuse-convert and tc-fuse-loss-grad;
/// null when it does not parse or a pass fails.
inline mlir::OwningOpRef<mlir::ModuleOp>
fusedFunctions(mlir::MLIRContext &context, const std::string &file) {
  context.loadDialect<TcDialect, mlir::func::FuncDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(
          TC_SOURCE_DIR "/test/Codegen/Inputs/" + file, &context);
  if (!module)
    return nullptr;
  mlir::PassManager pm(&context);
  pm.addPass(createTcFuseElementwise());
  pm.addPass(createTcFuseConvert());
  pm.addPass(createTcFuseLossGrad());
  if (mlir::failed(pm.run(*module)))
    return nullptr;
  return module;
}

} // namespace tc::test

#endif // TC_TEST_UNIT_MODELPIPELINE_H
