//===- ContractTest.cpp - function names of the compiler-runtime contract --===//

#include "runtime/format/Contract.h"

#include <gtest/gtest.h>

using namespace tc::contract;

namespace {

TEST(Contract, FunctionNamesRoundTrip) {
  BucketShape shape{32, 12, 13};
  EXPECT_EQ(functionName(FunctionRole::TrainStep, shape),
            "train_step_32x12x13");
  EXPECT_EQ(functionName(FunctionRole::Forward, shape), "forward_32x12x13");
  EXPECT_EQ(functionName(FunctionRole::Decode, shape), "decode_32x12x13");
  EXPECT_EQ(functionName(FunctionRole::Encode, shape), "encode_32x12");
  for (FunctionRole role : {FunctionRole::Forward, FunctionRole::TrainStep,
                            FunctionRole::Encode, FunctionRole::Decode}) {
    std::optional<NamedFunction> parsed =
        parseFunctionName(functionName(role, shape));
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->role, role);
    BucketShape expected = shape;
    if (role == FunctionRole::Encode)
      expected.targetLength = 0;
    EXPECT_EQ(parsed->shape, expected);
  }
}

TEST(Contract, OtherNamesAreNotBucketFunctions) {
  for (const char *name :
       {"train_step", "train_step_2", "train_step_2x3", "train_step_2x3x4x5",
        "train_step_0x3x4", "train_step_2x3x4_grad", "encode_2x3x4",
        "decode_2x-3x4", "forward_2x3x", "my_train_step_2x3x4",
        "train_step_02x3x4", "encode_2x+3", ""})
    EXPECT_FALSE(parseFunctionName(name)) << name;
}

TEST(Contract, CudaArchitectureNames) {
  EXPECT_EQ(cudaArchitectureName(90, false), "sm_90");
  EXPECT_EQ(cudaArchitectureName(80, true), "compute_80");
}

} // namespace
