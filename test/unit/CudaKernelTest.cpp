//===- CudaKernelTest.cpp - generated CUDA compiles under NVRTC ------------===//
//
// Issue 8's first acceptance point, for the kernels that have a CUDA
// skeleton so far: every one of models/tiny.toml, transformer_base and
// transformer_big compiles with NVRTC for sm_80 and sm_90 (one translation
// unit per architecture, as tc-compile builds it), and ptxas reports no
// register spills. How many kernels still lack a skeleton is printed.
// Built only when the CUDA toolkit is there (no GPU needed).
//
//===----------------------------------------------------------------------===//

#include "compiler/codegen/CudaKernel.h"
#include "compiler/codegen/Nvrtc.h"
#include "compiler/frontend/ModelDescription.h"
#include "compiler/frontend/TransformerBuilder.h"
#include "compiler/pipeline/Pipeline.h"

#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

namespace {

using namespace mlir;

class CudaKernels : public testing::TestWithParam<const char *> {};

TEST_P(CudaKernels, CompileWithNvrtcForSm80AndSm90WithoutSpills) {
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  std::optional<tc::ModelDescription> model = tc::readModelDescription(
      std::string(TC_SOURCE_DIR) + "/models/" + GetParam(), errorStream);
  ASSERT_TRUE(model) << errors;
  MLIRContext context;
  OwningOpRef<ModuleOp> module = tc::buildTransformer(context, *model);
  PassManager pm(&context);
  std::string error;
  tc::addTrainingPipeline(pm, *model, *tc::parseFusions("all", error));
  tc::addPlanPipeline(pm);
  ASSERT_TRUE(succeeded(pm.run(*module)));

  std::vector<std::pair<std::string, std::string>> missing;
  std::vector<tc::codegen::NamedKernelSource> kernels =
      tc::codegen::emitCudaKernels(*module, missing);
  ASSERT_FALSE(kernels.empty());
  std::string source = tc::codegen::cudaKernelPrelude();
  for (const tc::codegen::NamedKernelSource &kernel : kernels)
    source += "\n" + kernel.source;
  std::printf("%s: %zu kernels with a CUDA skeleton, %zu without yet\n",
              GetParam(), kernels.size(), missing.size());
  for (const char *arch : {"sm_80", "sm_90"}) {
    std::optional<tc::codegen::CudaBinary> binary =
        tc::codegen::compileCuda(source, arch, error);
    ASSERT_TRUE(binary) << error;
    EXPECT_FALSE(binary->cubin.empty()) << arch;
    EXPECT_EQ(binary->spillBytes, 0) << arch << ":\n" << binary->log;
  }
}

INSTANTIATE_TEST_SUITE_P(Models, CudaKernels,
                         testing::Values("tiny.toml", "transformer_base.toml",
                                         "transformer_big.toml"),
                         [](const auto &info) {
                           std::string name = info.param;
                           return name.substr(0, name.find('.'));
                         });

// A compile error shows NVRTC's log and the source with line numbers.
TEST(Nvrtc, ACompileErrorShowsTheLogAndTheNumberedSource) {
  std::string error;
  EXPECT_FALSE(tc::codegen::compileCuda(
      "extern \"C\" __global__ void k(void **b) {\n  undefined_name();\n}\n",
      "sm_90", error));
  EXPECT_NE(error.find("NVRTC failed for sm_90"), std::string::npos) << error;
  EXPECT_NE(error.find("undefined_name"), std::string::npos) << error;
  EXPECT_NE(error.find("2\t  undefined_name();"), std::string::npos) << error;
}

} // namespace
