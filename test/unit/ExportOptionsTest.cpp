//===- ExportOptionsTest.cpp - the target flags' defaults and checks -------===//

#include "ModelPipeline.h"
#include "compiler/export/CudaCompiler.h"
#include "compiler/export/TcxWriter.h"
#include "dialects/tc/TcDialect.h"
#include "support/HostCpu.h"

#include "mlir/IR/Builders.h"

#include <gtest/gtest.h>

using namespace tc;

namespace {

TEST(ExportOptions, DefaultsAreThisMachineAndSm80Sm90) {
  ExportOptions options;
  std::string error;
  ASSERT_TRUE(setTarget(options, Target::Host, "native", {}, error)) << error;
  EXPECT_EQ(options.hostCpu, support::hostCpuLevel());
  EXPECT_TRUE(options.cudaArchitectures.empty());
  ASSERT_TRUE(setTarget(options, Target::Cuda, "x86-64", {}, error)) << error;
  EXPECT_EQ(options.cudaArchitectures, (std::vector<unsigned>{80, 90}));
  ASSERT_TRUE(
      setTarget(options, Target::Cuda, "native", {"sm_90", "sm_120"}, error))
      << error;
  EXPECT_EQ(options.cudaArchitectures, (std::vector<unsigned>{90, 120}));
}

TEST(ExportOptions, BadSpellingsAreRefusedWithTheFlag) {
  ExportOptions options;
  std::string error;
  for (const char *arch : {"sm_", "sm_9", "sm_00", "sm_080", "compute_90",
                           "sm_90a", "90", "sm_+90"}) {
    error.clear();
    EXPECT_FALSE(setTarget(options, Target::Cuda, "native", {arch}, error))
        << arch;
    EXPECT_EQ(error, "--arch=" + std::string(arch) +
                         ": expected a real architecture such as sm_80 or "
                         "sm_90");
  }
  EXPECT_FALSE(setTarget(options, Target::Host, "x86-64-v9", {}, error));
  EXPECT_EQ(error, "--cpu=x86-64-v9: expected native, x86-64, x86-64-v2, "
                   "x86-64-v3 or x86-64-v4");
}

// An architecture the CUDA compiler cannot build for is refused when the
// flags are read, naming those it can (NVRTC's own error came after the
// compile, with the kernels' source).
TEST(ExportOptions, ArchitecturesTheCudaCompilerLacksAreRefused) {
  std::vector<unsigned> known = cudaCompilerArchitectures();
  if (known.empty())
    GTEST_SKIP() << "built without the CUDA toolkit (NVRTC)";
  EXPECT_TRUE(llvm::is_contained(known, 90u));
  ExportOptions options;
  std::string error;
  EXPECT_FALSE(
      setTarget(options, Target::Cuda, "native", {"sm_90", "sm_999"}, error));
  EXPECT_TRUE(llvm::StringRef(error).starts_with(
      "--arch=sm_999: the CUDA compiler (NVRTC) builds for sm_"))
      << error;
  EXPECT_TRUE(llvm::StringRef(error).contains("sm_90")) << error;
}

// What each target runs (issue 31): TF32 is CUDA's; bf16 and TF32 need the
// tensor cores of sm_80 and newer.
TEST(ExportOptions, PrecisionsNeedTheirTarget) {
  ExportOptions host, cuda, turing;
  std::string error, fix;
  ASSERT_TRUE(setTarget(host, Target::Host, "x86-64", {}, error)) << error;
  ASSERT_TRUE(setTarget(cuda, Target::Cuda, "native", {}, error)) << error;
  ASSERT_TRUE(
      setTarget(turing, Target::Cuda, "native", {"sm_90", "sm_75"}, error))
      << error;
  for (const support::PrecisionInfo &row : support::kPrecisions) {
    EXPECT_TRUE(checkPrecision(cuda, row.precision, error, fix)) << error;
    EXPECT_EQ(checkPrecision(host, row.precision, error, fix), !row.cudaOnly);
  }
  EXPECT_FALSE(checkPrecision(host, support::Precision::TF32, error, fix));
  EXPECT_EQ(error, "precision tf32 runs on CUDA only (TF32 tensor cores; no "
                   "CPU computes in TF32)");
  EXPECT_EQ(fix, "use --precision=bf16 or --precision=f32 for the CPU, or "
                 "--target=cuda");
  EXPECT_TRUE(checkPrecision(turing, support::Precision::F32, error, fix));
  EXPECT_FALSE(checkPrecision(turing, support::Precision::BF16, error, fix));
  EXPECT_EQ(error, "precision bf16 needs bf16 tensor cores, which sm_75 does "
                   "not have (sm_80 and newer do)");
  EXPECT_EQ(fix, "use --arch=sm_80 or newer, or --precision=f32");
  EXPECT_FALSE(checkPrecision(turing, support::Precision::TF32, error, fix));
}

// The writer checks the module's precision against the target too (a .mlir
// file may carry one), and refuses a name that is not a precision.
TEST(ExportOptions, TheWriterRefusesAPrecisionItsTargetLacks) {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> planModule = test::compileModel(
      context, std::string(TC_SOURCE_DIR) + "/models/tiny.toml", /*plan=*/true);
  ASSERT_TRUE(planModule);
  std::string error;
  ExportOptions host{"tiny", "test"};
  ASSERT_TRUE(setTarget(host, Target::Host, "x86-64", {}, error)) << error;
  mlir::Builder b(&context);
  (*planModule)->setAttr(kPrecisionAttrName, b.getStringAttr("tf32"));
  EXPECT_FALSE(writeExecutable(*planModule, host, error));
  EXPECT_EQ(error, "precision tf32 runs on CUDA only (TF32 tensor cores; no "
                   "CPU computes in TF32); use --precision=bf16 or "
                   "--precision=f32 for the CPU, or --target=cuda");
  (*planModule)->setAttr(kPrecisionAttrName, b.getStringAttr("fp16"));
  EXPECT_FALSE(writeExecutable(*planModule, host, error));
  EXPECT_EQ(error, "the module's tc.precision is not a precision; expected "
                   "f32, bf16 or tf32");
}

// The writer refuses options setTarget did not fill instead of guessing.
TEST(ExportOptions, TheWriterNeedsAResolvedTarget) {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> planModule = test::compileModel(
      context, std::string(TC_SOURCE_DIR) + "/models/tiny.toml", /*plan=*/true);
  ASSERT_TRUE(planModule);
  std::string error;
  ExportOptions cuda{"tiny", "test"};
  cuda.target = Target::Cuda;
  EXPECT_FALSE(writeExecutable(*planModule, cuda, error));
  EXPECT_EQ(error,
            "the CUDA target needs at least one architecture (setTarget)");
  ExportOptions host{"tiny", "test"};
  EXPECT_FALSE(writeExecutable(*planModule, host, error));
  EXPECT_EQ(error, "the host target needs an x86-64 level, not '' (setTarget)");
}

} // namespace
