//===- CachedAttentionTest.cpp - tc.cached_attention on every path --------===//
//
// Issue 32: the incremental decoder's fused attention. Four functions of
// the op (self-attention with a limit per row; the same through a beam's
// parent table, each position in the cache row it names; cross-attention
// with a slot table and a key mask over fewer cache rows; neither), on
// random values, limits (some past the cache's end, one below zero: a row
// that attends to nothing), parent tables, slots and masks:
//  - the interpreter against a naive reference written here (every
//    position scored, the disallowed ones at -inf, softmax over all of
//    them), 1e-5 relative;
//  - the host kernel on the CPU device against the interpreter, and with
//    the CUDA toolkit the CUDA kernel through the SIMT harness
//    (EmulatedGpu.h) against the interpreter: 1e-5 relative (the kernels
//    sum in f32, the interpreter in double), measured on |x| + 0.1: a
//    context is a weighted mean of values in [-2, 2), so an f32 sum's
//    rounding is absolute, up to ~1e-7 per term where the mean cancels to
//    near zero (a floor of 1e-3 held only for the data of three functions).
// (tc-autodiff's refusal: test/Transforms/autodiff-errors.mlir.)
//
//===----------------------------------------------------------------------===//

#include "KernelDevices.h"

#include "compiler/interpreter/Interpreter.h"
#include "compiler/transforms/Passes.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

namespace {

using namespace mlir;

constexpr double kTolerance = 1e-5;

// R = 6 rows, h = 2 heads, dk = 8 (the vectorised dot product), dv = 5;
// functions() makes them of 64 rows too, where the host kernel takes a row
// a task (all of its heads), not a (row, head) (OpKernels.cpp). @self_long:
// 70 positions and dv = 40, more than a warp's 32 lanes (the CUDA kernel's
// lanes take positions and channels 32 apart).
constexpr const char *kFunctions = R"mlir(
func.func @self(%q: tensor<6x1x16xf32>, %k: tensor<6x7x16xf32>,
                %v: tensor<6x7x10xf32>, %limit: tensor<6xi32>)
    -> tensor<6x1x10xf32> {
  %0 = tc.cached_attention %q, %k, %v limit %limit {heads = 2 : i64}
      : (tensor<6x1x16xf32>, tensor<6x7x16xf32>, tensor<6x7x10xf32>,
         tensor<6xi32>) -> tensor<6x1x10xf32>
  return %0 : tensor<6x1x10xf32>
}
func.func @self_long(%q: tensor<6x1x16xf32>, %k: tensor<6x70x16xf32>,
                     %v: tensor<6x70x80xf32>, %limit: tensor<6xi32>)
    -> tensor<6x1x80xf32> {
  %0 = tc.cached_attention %q, %k, %v limit %limit {heads = 2 : i64}
      : (tensor<6x1x16xf32>, tensor<6x70x16xf32>, tensor<6x70x80xf32>,
         tensor<6xi32>) -> tensor<6x1x80xf32>
  return %0 : tensor<6x1x80xf32>
}
func.func @beam(%q: tensor<6x1x16xf32>, %k: tensor<6x7x16xf32>,
                %v: tensor<6x7x10xf32>, %history: tensor<6x7xi32>,
                %limit: tensor<6xi32>) -> tensor<6x1x10xf32> {
  %0 = tc.cached_attention %q, %k, %v history %history limit %limit
      {heads = 2 : i64}
      : (tensor<6x1x16xf32>, tensor<6x7x16xf32>, tensor<6x7x10xf32>,
         tensor<6x7xi32>, tensor<6xi32>) -> tensor<6x1x10xf32>
  return %0 : tensor<6x1x10xf32>
}
func.func @cross(%q: tensor<6x1x16xf32>, %k: tensor<3x5x16xf32>,
                 %v: tensor<3x5x10xf32>, %slot: tensor<6xi32>,
                 %mask: tensor<3x5xi1>) -> tensor<6x1x10xf32> {
  %0 = tc.cached_attention %q, %k, %v slot %slot mask %mask {heads = 2 : i64}
      : (tensor<6x1x16xf32>, tensor<3x5x16xf32>, tensor<3x5x10xf32>,
         tensor<6xi32>, tensor<3x5xi1>) -> tensor<6x1x10xf32>
  return %0 : tensor<6x1x10xf32>
}
func.func @whole(%q: tensor<6x1x6xf32>, %k: tensor<6x4x6xf32>,
                 %v: tensor<6x4x6xf32>) -> tensor<6x1x6xf32> {
  %0 = tc.cached_attention %q, %k, %v {heads = 3 : i64}
      : (tensor<6x1x6xf32>, tensor<6x4x6xf32>, tensor<6x4x6xf32>)
      -> tensor<6x1x6xf32>
  return %0 : tensor<6x1x6xf32>
}
)mlir";

/// Random inputs of `function`: floats in [-2, 2); the limits (the last
/// argument of @self and @beam) in [-1, L + 2); the slots and the parent
/// table's rows in [0, C); mask bits true three times in four.
std::vector<tc::Tensor> inputsOf(func::FuncOp function, std::mt19937 &rng) {
  std::vector<tc::Tensor> inputs;
  int64_t length = 0, cacheRows = 0;
  for (Type type : function.getArgumentTypes()) {
    auto tensor = cast<RankedTensorType>(type);
    tc::Shape shape(tensor.getShape().begin(), tensor.getShape().end());
    Type element = tensor.getElementType();
    if (inputs.size() == 1) {
      cacheRows = shape[0];
      length = shape[1];
    }
    tc::Tensor in(element.isInteger(32)  ? tc::DType::I32
                  : element.isInteger(1) ? tc::DType::I1
                                         : tc::DType::F32,
                  shape);
    for (int64_t i = 0; i < in.size(); ++i) {
      if (element.isF32())
        in.set(i, std::uniform_real_distribution<float>(-2, 2)(rng));
      else if (element.isInteger(1))
        in.setInt(i, rng() % 4 != 0);
      else if (function.getSymName() != "cross" &&
               inputs.size() + 1 == function.getNumArguments())
        in.setInt(i, i == 0 ? -1 : int64_t(rng() % (length + 3)) - 1);
      else
        in.setInt(i, rng() % cacheRows);
    }
    inputs.push_back(std::move(in));
  }
  return inputs;
}

/// The naive reference: row r, head h scores every position, -inf where
/// not allowed, and takes the softmax over all of them (no position
/// allowed: zeros).
std::vector<double> reference(func::FuncOp function,
                              const std::vector<tc::Tensor> &in,
                              int64_t heads) {
  const tc::Tensor &q = in[0], &k = in[1], &v = in[2];
  bool beam = function.getSymName() == "beam",
       self = function.getSymName().starts_with("self") || beam,
       cross = function.getSymName() == "cross";
  const tc::Tensor *limit = self ? &in[beam ? 4 : 3] : nullptr;
  int64_t R = q.shape[0], L = k.shape[1], dk = q.shape[2] / heads,
          dv = v.shape[2] / heads;
  std::vector<double> out(R * heads * dv, 0.0);
  for (int64_t r = 0; r < R; ++r)
    for (int64_t h = 0; h < heads; ++h) {
      auto row = [&](int64_t j) -> int64_t {
        return beam ? in[3].ints[r * L + j] : cross ? in[3].ints[r] : r;
      };
      std::vector<double> score(L);
      for (int64_t j = 0; j < L; ++j) {
        int64_t c = row(j);
        bool allowed =
            (!self || j <= limit->ints[r]) && (!cross || in[4].ints[c * L + j]);
        double dot = 0;
        for (int64_t d = 0; d < dk; ++d)
          dot += q.floats[(r * heads + h) * dk + d] *
                 k.floats[((c * L + j) * heads + h) * dk + d];
        score[j] = allowed ? dot / std::sqrt(double(dk)) : -INFINITY;
      }
      double max = *std::max_element(score.begin(), score.end());
      if (max == -INFINITY)
        continue;
      double sum = 0;
      for (double s : score)
        sum += std::exp(s - max);
      for (int64_t j = 0; j < L; ++j)
        for (int64_t d = 0; d < dv; ++d)
          out[(r * heads + h) * dv + d] +=
              std::exp(score[j] - max) / sum *
              v.floats[((row(j) * L + j) * heads + h) * dv + d];
    }
  return out;
}

/// |got - want| <= kTolerance (|want| + 0.1) for every element.
void expectClose(const std::vector<double> &got,
                 const std::vector<double> &want, const std::string &what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_LE(std::abs(got[i] - want[i]),
              kTolerance * (std::abs(want[i]) + 0.1))
        << what << "[" << i << "]: " << got[i] << ", expected " << want[i];
}

/// kFunctions with `rows` rows (and as many cache rows where they had 6).
OwningOpRef<ModuleOp> functions(MLIRContext &context, int64_t rows = 6) {
  context.loadDialect<tc::TcDialect, func::FuncDialect>();
  std::string text = kFunctions;
  for (size_t at = text.find("<6x"); at != std::string::npos;
       at = text.find("<6x", at + 1))
    text.replace(at + 1, 1, std::to_string(rows));
  return parseSourceString<ModuleOp>(text, &context);
}

int64_t headsOf(func::FuncOp function) {
  int64_t heads = 0;
  function.walk([&](tc::CachedAttentionOp op) { heads = op.getHeads(); });
  return heads;
}

TEST(CachedAttention, TheInterpreterEqualsANaiveReference) {
  MLIRContext context;
  OwningOpRef<ModuleOp> module = functions(context);
  ASSERT_TRUE(module);
  std::mt19937 rng(32);
  for (func::FuncOp function : module->getOps<func::FuncOp>()) {
    std::vector<tc::Tensor> inputs = inputsOf(function, rng);
    FailureOr<std::vector<tc::Tensor>> got = tc::interpret(function, inputs);
    ASSERT_TRUE(succeeded(got)) << function.getSymName().str();
    expectClose((*got)[0].floats,
                reference(function, inputs, headsOf(function)),
                function.getSymName().str());
  }
}

/// The bytes of `tensor` as the device holds it (f32, i32 or one byte per
/// i1).
std::vector<uint8_t> bytesOf(const tc::Tensor &tensor) {
  std::vector<uint8_t> bytes;
  for (int64_t i = 0; i < tensor.size(); ++i) {
    if (tensor.dtype == tc::DType::I1) {
      bytes.push_back(uint8_t(tensor.ints[i]));
      continue;
    }
    uint8_t word[4];
    if (tensor.dtype == tc::DType::F32) {
      float x = float(tensor.floats[i]);
      std::memcpy(word, &x, 4);
    } else {
      int32_t x = int32_t(tensor.ints[i]);
      std::memcpy(word, &x, 4);
    }
    bytes.insert(bytes.end(), word, word + 4);
  }
  return bytes;
}

/// Every function of `module` on `device` equals the interpreter.
void expectDeviceMatches(ModuleOp module, const tc::rt::Executable &executable,
                         tc::rt::Device &device) {
  std::mt19937 rng(33);
  for (func::FuncOp function : module.getOps<func::FuncOp>()) {
    std::string name = function.getSymName().str();
    std::vector<tc::Tensor> inputs = inputsOf(function, rng);
    FailureOr<std::vector<tc::Tensor>> want = tc::interpret(function, inputs);
    ASSERT_TRUE(succeeded(want)) << name;
    const tc::tcx::Function *compiled = executable.function(name);
    ASSERT_TRUE(compiled) << name;
    for (auto [a, in] : llvm::enumerate(inputs)) {
      std::vector<uint8_t> bytes = bytesOf(in);
      ASSERT_TRUE(device.writeInput(*compiled, "arg" + std::to_string(a),
                                    bytes.data(), bytes.size()))
          << name << " arg" << a;
    }
    device.run(*compiled);
    std::vector<float> got((*want)[0].size());
    ASSERT_TRUE(
        device.readOutput(*compiled, "result0", got.data(), got.size() * 4));
    expectClose(std::vector<double>(got.begin(), got.end()), (*want)[0].floats,
                name);
  }
}

/// kFunctions of each of `rowCounts` rows run by `device` (onTheCpuDevice
/// or onTheSimtHarness) equal the interpreter.
template <typename OnADevice>
void expectEachRowCountMatches(std::initializer_list<int64_t> rowCounts,
                               OnADevice device) {
  for (int64_t rows : rowCounts) {
    MLIRContext context;
    OwningOpRef<ModuleOp> module = functions(context, rows);
    ASSERT_TRUE(module) << rows << " rows";
    device(*module, "cached-attention-" + std::to_string(rows),
           [&](const tc::rt::Executable &x, tc::rt::Device &d) {
             expectDeviceMatches(*module, x, d);
           });
  }
}

TEST(CachedAttention, TheHostKernelEqualsTheInterpreter) {
  expectEachRowCountMatches({6, 64}, [](auto... device) {
    tc::test::onTheCpuDevice(device...);
  });
}

#ifdef TC_TEST_CUDA
// 2,050 rows: 4,100 (row, head) tasks, more than the grid's 4,096 blocks,
// so that some blocks' warps take a second task (grid-stride).
TEST(CachedAttention, TheCudaKernelOnTheSimtHarnessEqualsTheInterpreter) {
  expectEachRowCountMatches({6, 2050}, [](auto... device) {
    tc::test::onTheSimtHarness(device...);
  });
}
#endif

} // namespace
