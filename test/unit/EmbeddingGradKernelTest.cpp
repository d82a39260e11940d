//===- EmbeddingGradKernelTest.cpp - tc.embedding_grad's kernels -----------===//
//
// tc.embedding_grad's host kernel on the CPU device and, with the CUDA
// toolkit, its CUDA kernel on the SIMT harness, against sums made here: each
// table row the f32 sum, from zero and in token order, of the rows of dy
// whose token has its id (ids outside the table and the padding_id add
// nothing); and
// tc.embedding_grad_add's, the same sums from its base's values, in place
// (the function's input buffer is its result's). Bit for bit:
// both kernels promise that order (the interpreter sums in f64, so it is
// checked within 1e-5 relative as well). The ids are made to hit what the
// CUDA kernel does by steps: several chunks of blockDim tokens, a block
// owning many rows whose tokens interleave, runs of one id longer than a
// batch of loads (padding's), and rows wider than one pass of its columns.
//
//===----------------------------------------------------------------------===//

#include "KernelDevices.h"

#include "compiler/interpreter/Interpreter.h"
#include "dialects/tc/TcDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>

namespace {

using namespace mlir;

struct Case {
  const char *name;
  int64_t tokens, vocab, dim;
  int32_t paddingId = -1; ///< the ops' padding_id, none where negative
};

// switching: 600 x 1 elements are three blocks of the grid, each owning ~67
// of the 200 rows, and three chunks of tokens. padding: 1,000 tokens with
// runs of id 0 up to 60 long. skipped: the same with padding_id 0, whose
// tokens add nothing. wide: 1,100 columns, two passes of 4 slots of 256
// threads, over two chunks of tokens.
constexpr Case kCases[] = {{"switching", 600, 200, 1},
                           {"padding", 1000, 40, 8},
                           {"skipped", 1000, 40, 8, 0},
                           {"wide", 300, 4, 1100}};

std::string moduleText() {
  std::string text;
  for (const Case &c : kCases) {
    std::string ids = "tensor<" + std::to_string(c.tokens) + "xi32>";
    std::string dy = "tensor<" + std::to_string(c.tokens) + "x" +
                     std::to_string(c.dim) + "xf32>";
    std::string table = "tensor<" + std::to_string(c.vocab) + "x" +
                        std::to_string(c.dim) + "xf32>";
    std::string padding =
        c.paddingId < 0
            ? ""
            : " {padding_id = " + std::to_string(c.paddingId) + " : i64}";
    text += "func.func @" + std::string(c.name) + "(%ids: " + ids +
            ", %dy: " + dy + ") -> " + table + " {\n  %g = tc.embedding_grad " +
            "%ids, %dy" + padding + " : " + ids + ", " + dy + " -> " + table +
            "\n  return %g : " + table + "\n}\n";
    // The base is state: an input updated in place, the output of its name.
    text += "func.func @" + std::string(c.name) + "_add(%base: " + table +
            " {tc.input = \"table\"}, %ids: " + ids + ", %dy: " + dy +
            ") -> (" + table + " {tc.output = \"table\"})" +
            " {\n  %g = tc.embedding_grad_add %base, %ids, %dy" + padding +
            " : " + table +
            ", " + ids + ", " + dy + "\n  return %g : " + table + "\n}\n";
  }
  return text;
}

/// Runs of padding (id 0), random ids, a few outside the table.
std::vector<int32_t> idsOf(const Case &c, std::mt19937 &rng) {
  std::vector<int32_t> ids;
  while (int64_t(ids.size()) < c.tokens) {
    switch (rng() % 4) {
    case 0: // a run of padding
      for (int64_t n = rng() % 60 + 1; n > 0; --n)
        ids.push_back(0);
      break;
    case 1: // outside the table
      ids.push_back(rng() % 2 ? -1 - int32_t(rng() % 5)
                              : int32_t(c.vocab + rng() % 5));
      break;
    default:
      ids.push_back(int32_t(rng() % c.vocab));
    }
  }
  ids.resize(c.tokens);
  return ids;
}

OwningOpRef<ModuleOp> parsed(MLIRContext &context) {
  context.loadDialect<tc::TcDialect, func::FuncDialect>();
  return parseSourceString<ModuleOp>(moduleText(), &context);
}

/// Every case on `device`, from zero and (`_add`) from a base of random
/// values: bit for bit the f32 sums in token order, and within 1e-5
/// (relative, of the largest magnitude summed) of the interpreter's f64
/// sums.
void expectSums(ModuleOp module, const tc::rt::Executable &executable,
                tc::rt::Device &device) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> values(-4.0f, 4.0f);
  for (const Case &c : kCases)
    for (bool onto : {false, true}) {
      std::string name = std::string(c.name) + (onto ? "_add" : "");
      std::vector<int32_t> ids = idsOf(c, rng);
      std::vector<float> dy(c.tokens * c.dim);
      for (float &v : dy)
        v = values(rng);
      std::vector<float> base(c.vocab * c.dim, 0.0f);
      if (onto)
        for (float &v : base)
          v = values(rng);
      std::vector<float> want = base;
      for (int64_t t = 0; t < c.tokens; ++t)
        if (ids[t] >= 0 && ids[t] < c.vocab && ids[t] != c.paddingId)
          for (int64_t d = 0; d < c.dim; ++d)
            want[ids[t] * c.dim + d] += dy[t * c.dim + d];

      const tc::tcx::Function *compiled = executable.function(name);
      ASSERT_TRUE(compiled) << name;
      int argument = onto; // arg0 is the table
      auto arg = [&] { return "arg" + std::to_string(argument++); };
      if (onto)
        ASSERT_TRUE(device.writeInput(*compiled, "table", base));
      ASSERT_TRUE(device.writeInput(*compiled, arg(), ids));
      ASSERT_TRUE(device.writeInput(*compiled, arg(), dy));
      device.run(*compiled);
      std::vector<float> got(want.size());
      ASSERT_TRUE(device.readOutput(*compiled, onto ? "table" : "result0",
                                    got.data(), int64_t(got.size()) * 4));
      int mismatches = 0;
      for (size_t i = 0; i < got.size() && mismatches < 8; ++i)
        if (std::bit_cast<uint32_t>(got[i]) !=
            std::bit_cast<uint32_t>(want[i])) {
          ++mismatches;
          ADD_FAILURE() << "@" << name << " [" << i / c.dim << ", "
                        << i % c.dim << "]: " << got[i] << ", want " << want[i];
        }

      std::vector<tc::Tensor> inputs;
      if (onto) {
        tc::Tensor baseTensor(tc::DType::F32, {c.vocab, c.dim});
        for (size_t i = 0; i < base.size(); ++i)
          baseTensor.set(int64_t(i), base[i]);
        inputs.push_back(baseTensor);
      }
      tc::Tensor idTensor(tc::DType::I32, {c.tokens});
      for (int64_t t = 0; t < c.tokens; ++t)
        idTensor.setInt(t, ids[t]);
      tc::Tensor dyTensor(tc::DType::F32, {c.tokens, c.dim});
      for (size_t i = 0; i < dy.size(); ++i)
        dyTensor.set(int64_t(i), dy[i]);
      inputs.push_back(idTensor);
      inputs.push_back(dyTensor);
      auto function = module.lookupSymbol<func::FuncOp>(name);
      FailureOr<std::vector<tc::Tensor>> reference =
          tc::interpret(function, inputs);
      ASSERT_TRUE(succeeded(reference)) << name;
      for (size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], (*reference)[0].floats[i], 1e-5 * 4.0 * c.tokens)
            << "@" << name << " element " << i;
    }
}

TEST(EmbeddingGrad, TheHostKernelSumsInTokenOrder) {
  MLIRContext context;
  OwningOpRef<ModuleOp> module = parsed(context);
  ASSERT_TRUE(module);
  tc::test::onTheCpuDevice(*module, "embedding-grad",
                           [&](const tc::rt::Executable &x, tc::rt::Device &d) {
                             expectSums(*module, x, d);
                           });
}

#ifdef TC_TEST_CUDA
TEST(EmbeddingGrad, TheCudaKernelOnTheSimtHarnessSumsInTokenOrder) {
  MLIRContext context;
  OwningOpRef<ModuleOp> module = parsed(context);
  ASSERT_TRUE(module);
  tc::test::onTheSimtHarness(*module, "embedding-grad",
                             [&](const tc::rt::Executable &x, tc::rt::Device &d) {
                               expectSums(*module, x, d);
                             });
}
#endif

} // namespace
