//===- ExportOptionsTest.cpp - the target flags' defaults and checks -------===//

#include "ModelPipeline.h"
#include "compiler/export/TcxWriter.h"
#include "support/HostCpu.h"

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
