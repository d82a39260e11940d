//===- TopKTest.cpp - tc.top_k's kernels on rows of many blocks -------------===//
//
// The decoder step's top-k over the vocabulary skips, once k elements are
// kept, each block of 64 of a row none of whose elements is larger than the
// k-th best (OpKernels.cpp). Rows of 1,000 (16 blocks, the last one short)
// where that matters: values from five levels, the top one every 97th
// element (ties within and across blocks, and at the cut), uniform values, an increasing row (every element
// enters), a decreasing one (every block after the first is skipped), and
// -inf everywhere but one finite value late in the row. (No NaN: the
// interpreter's sort has no order for it.) The host
// kernel on the CPU device and, with the CUDA toolkit, the CUDA kernel on
// the SIMT harness equal the interpreter (the oracle; itself tested against
// numpy in test/Interpreter/ops/top-k.mlir) exactly: values and indices.
//
//===----------------------------------------------------------------------===//

#include "KernelDevices.h"

#include "compiler/interpreter/Interpreter.h"
#include "dialects/tc/TcDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace {

using namespace mlir;

constexpr int64_t kRows = 5, kLength = 1000, kK = 8;

constexpr const char *kFunction = R"mlir(
func.func @top(%x: tensor<5x1000xf32>) -> (tensor<5x8xf32>, tensor<5x8xi32>) {
  %values, %indices = tc.top_k %x k = 8
      : tensor<5x1000xf32> -> tensor<5x8xf32>, tensor<5x8xi32>
  return %values, %indices : tensor<5x8xf32>, tensor<5x8xi32>
}
)mlir";

/// The rows described at the top of the file.
tc::Tensor rowsOfEveryKind() {
  std::mt19937 rng(34);
  tc::Tensor x(tc::DType::F32, {kRows, kLength});
  for (int64_t k = 0; k < kLength; ++k) {
    auto at = [&](int64_t r) { return r * kLength + k; };
    x.set(at(0), k % 97 == 5 ? 2.0 : double(rng() % 4) - 2.0);
    x.set(at(1), double(std::uniform_real_distribution<float>(-8, 8)(rng)));
    x.set(at(2), double(k) * 0.25);
    x.set(at(3), -double(k) * 0.25);
    x.set(at(4), k == 900 ? 3.0 : -INFINITY);
  }
  return x;
}

void expectDeviceMatches(ModuleOp module, const tc::rt::Executable &executable,
                         tc::rt::Device &device) {
  auto top = module.lookupSymbol<func::FuncOp>("top");
  FailureOr<std::vector<tc::Tensor>> want =
      tc::interpret(top, {rowsOfEveryKind()});
  ASSERT_TRUE(succeeded(want));
  const tc::tcx::Function *compiled = executable.function("top");
  ASSERT_TRUE(compiled);
  tc::Tensor x = rowsOfEveryKind();
  std::vector<float> in(x.floats.begin(), x.floats.end());
  ASSERT_TRUE(device.writeInput(*compiled, "arg0", in.data(), in.size() * 4));
  device.run(*compiled);
  std::vector<float> values(kRows * kK);
  std::vector<int32_t> indices(kRows * kK);
  ASSERT_TRUE(device.readOutput(*compiled, "result0", values.data(),
                                values.size() * 4));
  ASSERT_TRUE(device.readOutput(*compiled, "result1", indices.data(),
                                indices.size() * 4));
  for (int64_t i = 0; i < kRows * kK; ++i) {
    EXPECT_EQ(double(values[i]), (*want)[0].floats[i]) << "value " << i;
    EXPECT_EQ(int64_t(indices[i]), (*want)[1].ints[i]) << "index " << i;
  }
  // The cases are what they claim to be.
  EXPECT_EQ(indices[0 * kK + kK - 1] > 64, true); // ties reach past a block
  EXPECT_EQ(indices[2 * kK], kLength - 1);         // increasing
  EXPECT_EQ(indices[3 * kK + kK - 1], kK - 1);     // decreasing
  EXPECT_EQ(indices[4 * kK], 900);
  EXPECT_EQ(values[4 * kK + 1], -INFINITY);
}

OwningOpRef<ModuleOp> function(MLIRContext &context) {
  context.loadDialect<tc::TcDialect, func::FuncDialect>();
  return parseSourceString<ModuleOp>(kFunction, &context);
}

TEST(TopK, TheHostKernelEqualsTheInterpreter) {
  MLIRContext context;
  OwningOpRef<ModuleOp> module = function(context);
  ASSERT_TRUE(module);
  tc::test::onTheCpuDevice(
      *module, "top-k", [&](const tc::rt::Executable &x, tc::rt::Device &d) {
        expectDeviceMatches(*module, x, d);
      });
}

#ifdef TC_TEST_CUDA
TEST(TopK, TheCudaKernelOnTheSimtHarnessEqualsTheInterpreter) {
  MLIRContext context;
  OwningOpRef<ModuleOp> module = function(context);
  ASSERT_TRUE(module);
  tc::test::onTheSimtHarness(
      *module, "top-k", [&](const tc::rt::Executable &x, tc::rt::Device &d) {
        expectDeviceMatches(*module, x, d);
      });
}
#endif

} // namespace
