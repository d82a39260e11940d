//===- LogSoftmaxTest.cpp - softmax rows of every kind on every path ------===//
//
// Issue 32: the decoder step's log-softmax over the vocabulary as one row
// op. Rows of 300 (more than a CUDA block's threads, so that the row loops
// stride): random values with -inf entries, large magnitudes (+-3e4, and
// +-1e30 beside small values), all equal, all -inf (NaN, as the chain of
// ops gives), one finite value among -inf, one NaN among finite values and
// one +inf among finite values (both all NaN, as the chain gives: the
// kernels' max skips a NaN and leaves it to the sum).
//  - The interpreter's tc.log_softmax equals, bit for bit, its evaluation
//    of the chain of ops it replaces (reduce_max, sub, exp, reduce_sum, log,
//    sub): the decoder's reference results do not change.
//  - The host kernel on the CPU device and, with the CUDA toolkit, the CUDA
//    kernel through the SIMT harness (EmulatedGpu.h) against the
//    interpreter: infinities and NaNs exactly, other values within
//    2e-6 + 2^-22 |want|. The kernels' exp is tc::rowExp (within 2 f32 ulps
//    of exp on the host, the hardware's expf on CUDA) where the interpreter
//    rounds exp once: the sum of the exponentials differs by a few f32 ulps
//    relative, which its log turns into an absolute error of ~3e-7, and
//    log(sum) < 16 here may round to a neighbouring f32 (an ulp of at most
//    9.5e-7); the final subtraction rounds once in each (half an ulp,
//    2^-24 relative, apart).
// The same rows through the loss and its gradient (tc.cross_entropy and
// tc.cross_entropy_grad, whose CUDA kernels take a row's maximum and sum in
// one pass, TC_ROW_SOFTMAX): the gradient of every row, and the loss of each
// row alone (its token count too) with its target and with the ignored
// target 0, against the interpreter with the same treatment of NaN and
// infinities and 2e-6 + 2^-20 |want| otherwise (the sum of exponentials
// rounded to f32 against a running maximum on CUDA).
// The same rows through the decoder's fused candidates
// (tc.log_softmax_top_k, with the addend -inf at columns 0 and 1): in the
// interpreter the chain it replaces, bit for bit; on each device its values
// within the loss tolerance, its indices exactly.
// Three rows of 3,000 through all three, beyond the host's row caches on
// the stack. (tc-autodiff's refusal: test/Transforms/autodiff-errors.mlir.)
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
#include <string>
#include <tuple>

namespace {

using namespace mlir;

constexpr double kAbsolute = 2e-6, kRelative = 0x1p-22;
constexpr int64_t kRows = 8, kLength = 300;

constexpr const char *kFunctions = R"mlir(
func.func @fused(%x: tensor<8x300xf32>) -> tensor<8x300xf32> {
  %0 = tc.log_softmax %x : tensor<8x300xf32>
  return %0 : tensor<8x300xf32>
}
func.func @chain(%x: tensor<8x300xf32>) -> tensor<8x300xf32> {
  %max = tc.reduce_max %x axes = [1] keep_dims
      : tensor<8x300xf32> -> tensor<8x1xf32>
  %shifted = tc.sub %x, %max
      : tensor<8x300xf32>, tensor<8x1xf32> -> tensor<8x300xf32>
  %exp = tc.exp %shifted : tensor<8x300xf32>
  %sum = tc.reduce_sum %exp axes = [1] keep_dims
      : tensor<8x300xf32> -> tensor<8x1xf32>
  %log = tc.log %sum : tensor<8x1xf32>
  %0 = tc.sub %shifted, %log
      : tensor<8x300xf32>, tensor<8x1xf32> -> tensor<8x300xf32>
  return %0 : tensor<8x300xf32>
}
func.func @loss_grad(%x: tensor<8x300xf32>, %t: tensor<8xi32>, %dl: tensor<f32>)
    -> tensor<8x300xf32> {
  %0 = tc.cross_entropy_grad %x, %t, %dl label_smoothing = 0.1 ignore_index = 0
      : tensor<8x300xf32>, tensor<8xi32>, tensor<f32>
  return %0 : tensor<8x300xf32>
}
func.func @loss_grad_long(%x: tensor<3x3000xf32>, %t: tensor<3xi32>,
                          %dl: tensor<f32>) -> tensor<3x3000xf32> {
  %0 = tc.cross_entropy_grad %x, %t, %dl label_smoothing = 0.1 ignore_index = 0
      : tensor<3x3000xf32>, tensor<3xi32>, tensor<f32>
  return %0 : tensor<3x3000xf32>
}
func.func @loss_long(%x: tensor<3x3000xf32>, %t: tensor<3xi32>)
    -> (tensor<f32>, tensor<i32>) {
  %0:2 = tc.cross_entropy %x, %t label_smoothing = 0.1 ignore_index = 0
      : tensor<3x3000xf32>, tensor<3xi32> -> tensor<f32>, tensor<i32>
  return %0#0, %0#1 : tensor<f32>, tensor<i32>
}
func.func @candidates(%x: tensor<8x300xf32>, %never: tensor<300xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xi32>, tensor<8x1xf32>) {
  %v, %i, %c = tc.log_softmax_top_k %x, %never k = 8 column = 2
      : tensor<8x300xf32>, tensor<300xf32>
      -> tensor<8x8xf32>, tensor<8x8xi32>, tensor<8x1xf32>
  return %v, %i, %c : tensor<8x8xf32>, tensor<8x8xi32>, tensor<8x1xf32>
}
func.func @candidates_chain(%x: tensor<8x300xf32>, %never: tensor<300xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xi32>, tensor<8x1xf32>) {
  %l = tc.log_softmax %x : tensor<8x300xf32>
  %c = tc.add %l, %never : tensor<8x300xf32>, tensor<300xf32> -> tensor<8x300xf32>
  %v, %i = tc.top_k %c k = 8 : tensor<8x300xf32> -> tensor<8x8xf32>, tensor<8x8xi32>
  %e = tc.slice %c offsets = [0, 2] : tensor<8x300xf32> -> tensor<8x1xf32>
  return %v, %i, %e : tensor<8x8xf32>, tensor<8x8xi32>, tensor<8x1xf32>
}
func.func @candidates_long(%x: tensor<3x3000xf32>, %never: tensor<3000xf32>)
    -> (tensor<3x4xf32>, tensor<3x4xi32>, tensor<3x1xf32>) {
  %v, %i, %c = tc.log_softmax_top_k %x, %never k = 4 column = 2999
      : tensor<3x3000xf32>, tensor<3000xf32>
      -> tensor<3x4xf32>, tensor<3x4xi32>, tensor<3x1xf32>
  return %v, %i, %c : tensor<3x4xf32>, tensor<3x4xi32>, tensor<3x1xf32>
}
func.func @loss(%x: tensor<1x300xf32>, %t: tensor<1xi32>)
    -> (tensor<f32>, tensor<i32>) {
  %0:2 = tc.cross_entropy %x, %t label_smoothing = 0.1 ignore_index = 0
      : tensor<1x300xf32>, tensor<1xi32> -> tensor<f32>, tensor<i32>
  return %0#0, %0#1 : tensor<f32>, tensor<i32>
}
)mlir";

/// The rows described at the top of the file.
tc::Tensor rowsOfEveryKind() {
  std::mt19937 rng(32);
  auto uniform = [&](double lo, double hi) {
    return double(std::uniform_real_distribution<float>(lo, hi)(rng));
  };
  tc::Tensor x(tc::DType::F32, {kRows, kLength});
  for (int64_t k = 0; k < kLength; ++k) {
    auto at = [&](int64_t r) { return r * kLength + k; };
    x.set(at(0), k % 7 == 3 ? -INFINITY : uniform(-8, 8));
    x.set(at(1), uniform(-3e4, 3e4));
    x.set(at(2), k == 10 ? 1e30 : k == 11 ? -1e30 : uniform(-1, 1));
    x.set(at(3), 7.25);
    x.set(at(4), -INFINITY);
    x.set(at(5), k == 150 ? 2.5 : -INFINITY);
    x.set(at(6), k == 20 ? NAN : uniform(-4, 4));
    x.set(at(7), k == 30 ? INFINITY : uniform(-4, 4));
  }
  return x;
}

OwningOpRef<ModuleOp> functions(MLIRContext &context) {
  context.loadDialect<tc::TcDialect, func::FuncDialect>();
  return parseSourceString<ModuleOp>(kFunctions, &context);
}

/// `function`'s result for rowsOfEveryKind() in the interpreter.
std::vector<double> interpreted(ModuleOp module, StringRef function) {
  auto f = module.lookupSymbol<func::FuncOp>(function);
  FailureOr<std::vector<tc::Tensor>> out =
      tc::interpret(f, {rowsOfEveryKind()});
  EXPECT_TRUE(succeeded(out)) << function.str();
  return succeeded(out) ? (*out)[0].floats : std::vector<double>();
}

TEST(LogSoftmax, TheInterpreterEqualsTheChainOfOpsItReplaces) {
  MLIRContext context;
  OwningOpRef<ModuleOp> module = functions(context);
  ASSERT_TRUE(module);
  std::vector<double> fused = interpreted(*module, "fused"),
                      chain = interpreted(*module, "chain");
  ASSERT_EQ(fused.size(), size_t(kRows * kLength));
  ASSERT_EQ(chain.size(), fused.size());
  for (size_t i = 0; i < fused.size(); ++i) {
    if (std::isnan(chain[i]))
      EXPECT_TRUE(std::isnan(fused[i])) << i;
    else
      EXPECT_EQ(fused[i], chain[i]) << i;
  }
  // The cases are what they claim to be.
  EXPECT_NEAR(fused[3 * kLength], -std::log(double(kLength)), 1e-6);
  EXPECT_TRUE(std::isnan(fused[4 * kLength]));
  EXPECT_EQ(fused[5 * kLength + 150], 0.0);
  EXPECT_EQ(fused[5 * kLength], -INFINITY);
  for (int64_t row : {6, 7})
    for (int64_t k = 0; k < kLength; ++k)
      EXPECT_TRUE(std::isnan(fused[row * kLength + k])) << row << "," << k;
}

/// The decoder's addend: -inf for the columns a beam never continues with
/// (its padding and BOS, 0 and 1), else 0.
tc::Tensor neverContinued(int64_t columns) {
  tc::Tensor never(tc::DType::F32, {columns});
  for (int64_t k = 0; k < columns; ++k)
    never.set(k, k < 2 ? -INFINITY : 0.0);
  return never;
}

// tc.log_softmax_top_k is the chain it fuses: the same values, ties broken
// the same way (rows 2-5 tie from the 2nd or the 1st candidate on), the same
// NaN rows (their first k, in order).
TEST(LogSoftmax, TheFusedCandidatesEqualTheChainInTheInterpreter) {
  MLIRContext context;
  OwningOpRef<ModuleOp> module = functions(context);
  ASSERT_TRUE(module);
  std::vector<tc::Tensor> inputs = {rowsOfEveryKind(),
                                    neverContinued(kLength)};
  FailureOr<std::vector<tc::Tensor>> fused = tc::interpret(
      module->lookupSymbol<func::FuncOp>("candidates"), inputs);
  FailureOr<std::vector<tc::Tensor>> chain = tc::interpret(
      module->lookupSymbol<func::FuncOp>("candidates_chain"), inputs);
  ASSERT_TRUE(succeeded(fused) && succeeded(chain));
  for (int r : {0, 2})
    for (int64_t i = 0; i < (*chain)[r].size(); ++i) {
      double want = (*chain)[r].floats[i], got = (*fused)[r].floats[i];
      EXPECT_TRUE(std::isnan(want) ? std::isnan(got) : got == want)
          << "result " << r << "[" << i << "]";
    }
  EXPECT_EQ((*fused)[1].ints, (*chain)[1].ints);
  // Row 3 (all equal): its first eight columns but the never-continued two.
  for (int64_t j = 0; j < 8; ++j)
    EXPECT_EQ((*fused)[1].ints[3 * 8 + j], j + 2) << j;
  // Row 5: its one finite value first.
  EXPECT_EQ((*fused)[1].ints[5 * 8], 150);
}

/// @fused on `device` equals the interpreter within the tolerance above.
void expectDeviceMatches(ModuleOp module, const tc::rt::Executable &executable,
                         tc::rt::Device &device) {
  std::vector<double> want = interpreted(module, "fused");
  const tc::tcx::Function *compiled = executable.function("fused");
  ASSERT_TRUE(compiled);
  tc::Tensor x = rowsOfEveryKind();
  std::vector<float> in(x.floats.begin(), x.floats.end());
  ASSERT_TRUE(device.writeInput(*compiled, "arg0", in.data(), in.size() * 4));
  device.run(*compiled);
  std::vector<float> got(want.size());
  ASSERT_TRUE(
      device.readOutput(*compiled, "result0", got.data(), got.size() * 4));
  for (size_t i = 0; i < want.size(); ++i) {
    if (std::isnan(want[i]) || std::isinf(want[i])) {
      EXPECT_EQ(std::isnan(got[i]), std::isnan(want[i])) << i;
      if (std::isinf(want[i]))
        EXPECT_EQ(got[i], want[i]) << i;
      continue;
    }
    EXPECT_LE(std::abs(got[i] - want[i]),
              kAbsolute + kRelative * std::abs(want[i]))
        << "[" << i << "]: " << got[i] << ", expected " << want[i];
  }
}

constexpr double kLossAbsolute = 2e-6, kLossRelative = 0x1p-20;

/// Row r's target (none at a -inf of row 0): a token of the vocabulary.
constexpr int32_t kTargets[kRows] = {5, 17, 250, 3, 7, 150, 40, 60};

/// Rows `rows` of rowsOfEveryKind() as a tensor.
tc::Tensor logitsOf(const std::vector<int64_t> &rows) {
  tc::Tensor all = rowsOfEveryKind();
  tc::Tensor x(tc::DType::F32, {int64_t(rows.size()), kLength});
  for (size_t r = 0; r < rows.size(); ++r)
    for (int64_t k = 0; k < kLength; ++k)
      x.set(r * kLength + k, all.get(rows[r] * kLength + k));
  return x;
}

/// A value of the device against the interpreter's: NaN and infinities
/// exactly, others within the loss tolerance above.
void expectLossValue(double got, double want, const std::string &what) {
  if (std::isnan(want) || std::isinf(want)) {
    EXPECT_EQ(std::isnan(got), std::isnan(want)) << what << ": " << got;
    if (std::isinf(want))
      EXPECT_EQ(got, want) << what;
    return;
  }
  EXPECT_LE(std::abs(got - want),
            kLossAbsolute + kLossRelative * std::abs(want))
      << what << ": " << got << ", expected " << want;
}

/// `name` of `module` on `device` with `inputs` (f32 or i32), every f32
/// result against the interpreter's (expectLossValue), an i32 one exactly.
void expectRunMatches(ModuleOp module, const tc::rt::Executable &executable,
                      tc::rt::Device &device, const std::string &name,
                      const std::vector<tc::Tensor> &inputs,
                      const std::string &what) {
  FailureOr<std::vector<tc::Tensor>> want =
      tc::interpret(module.lookupSymbol<func::FuncOp>(name), inputs);
  ASSERT_TRUE(succeeded(want)) << what;
  const tc::tcx::Function *compiled = executable.function(name);
  ASSERT_TRUE(compiled) << what;
  for (size_t a = 0; a < inputs.size(); ++a) {
    const tc::Tensor &in = inputs[a];
    std::vector<uint8_t> bytes(in.size() * 4);
    for (int64_t i = 0; i < in.size(); ++i)
      if (in.dtype == tc::DType::I32)
        reinterpret_cast<int32_t *>(bytes.data())[i] = int32_t(in.ints[i]);
      else
        reinterpret_cast<float *>(bytes.data())[i] = float(in.floats[i]);
    ASSERT_TRUE(device.writeInput(*compiled, "arg" + std::to_string(a),
                                  bytes.data(), bytes.size()))
        << what << " arg" << a;
  }
  device.run(*compiled);
  for (size_t r = 0; r < want->size(); ++r) {
    const tc::Tensor &result = (*want)[r];
    std::vector<uint8_t> got(result.size() * 4);
    ASSERT_TRUE(device.readOutput(*compiled, "result" + std::to_string(r),
                                  got.data(), got.size()));
    for (int64_t i = 0; i < result.size(); ++i) {
      std::string where = what + " result" + std::to_string(r) + "[" +
                          std::to_string(i) + "]";
      if (result.dtype == tc::DType::I32)
        EXPECT_EQ(reinterpret_cast<const int32_t *>(got.data())[i],
                  result.ints[i])
            << where;
      else
        expectLossValue(reinterpret_cast<const float *>(got.data())[i],
                        result.floats[i], where);
    }
  }
}

/// @loss_grad over all rows, and @loss of each row alone (a NaN or
/// infinite row would hide the others in a sum over rows), with its target
/// and with the ignored target 0 (no loss, no token), on `device`.
void expectLossMatches(ModuleOp module, const tc::rt::Executable &executable,
                       tc::rt::Device &device) {
  tc::Tensor targets(tc::DType::I32, {kRows}), scale(tc::DType::F32, {});
  for (int64_t r = 0; r < kRows; ++r)
    targets.setInt(r, kTargets[r]);
  scale.set(0, 0.5);
  expectRunMatches(module, executable, device, "loss_grad",
                   {logitsOf({0, 1, 2, 3, 4, 5, 6, 7}), targets, scale},
                   "loss_grad");
  // Rows of 3,000, longer than the host's row caches on the stack (2,048):
  // their thread-local buffers, and vector lanes with a tail.
  std::mt19937 rng(7);
  tc::Tensor longRows(tc::DType::F32, {3, 3000});
  tc::Tensor longTargets(tc::DType::I32, {3});
  for (int64_t i = 0; i < longRows.size(); ++i)
    longRows.set(i, std::uniform_real_distribution<float>(-6, 6)(rng));
  for (int64_t r = 0; r < 3; ++r)
    longTargets.setInt(r, int32_t(1 + 1234 * r));
  expectRunMatches(module, executable, device, "loss_grad_long",
                   {longRows, longTargets, scale}, "loss_grad_long");
  expectRunMatches(module, executable, device, "loss_long",
                   {longRows, longTargets}, "loss_long");
  // The fused candidates: values within the loss tolerance, indices exactly
  // (the rows' top values lie far apart, or tie exactly in both).
  expectRunMatches(module, executable, device, "candidates",
                   {rowsOfEveryKind(), neverContinued(kLength)}, "candidates");
  expectRunMatches(module, executable, device, "candidates_long",
                   {longRows, neverContinued(3000)}, "candidates_long");
  for (int64_t r = 0; r < kRows; ++r)
    for (int32_t target : {kTargets[r], 0}) {
      tc::Tensor t(tc::DType::I32, {1});
      t.setInt(0, target);
      expectRunMatches(module, executable, device, "loss", {logitsOf({r}), t},
                       "loss of row " + std::to_string(r) + ", target " +
                           std::to_string(target));
    }
}

TEST(LogSoftmax, TheHostKernelEqualsTheInterpreter) {
  MLIRContext context;
  OwningOpRef<ModuleOp> module = functions(context);
  ASSERT_TRUE(module);
  tc::test::onTheCpuDevice(
      *module, "log-softmax", [&](const tc::rt::Executable &x, tc::rt::Device &d) {
        expectDeviceMatches(*module, x, d);
        expectLossMatches(*module, x, d);
      });
}

#ifdef TC_TEST_CUDA
TEST(LogSoftmax, TheCudaKernelOnTheSimtHarnessEqualsTheInterpreter) {
  MLIRContext context;
  OwningOpRef<ModuleOp> module = functions(context);
  ASSERT_TRUE(module);
  tc::test::onTheSimtHarness(
      *module, "log-softmax", [&](const tc::rt::Executable &x, tc::rt::Device &d) {
        expectDeviceMatches(*module, x, d);
        expectLossMatches(*module, x, d);
      });
}
#endif

} // namespace
