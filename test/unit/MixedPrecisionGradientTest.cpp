//===- MixedPrecisionGradientTest.cpp - bf16 gradients against f32's -------===//
//
// Issue 31, acceptance 1: tiny's loss and parameter gradients in bf16
// (tc-apply-precision: bf16 GEMM operands, f32 results and gradients)
// against the f32 ones, both by the interpreter from the same parameters
// and batch, are within bf16's expected error and not equal.
//
// Expected error: a bf16 operand is its f32 value times (1 + e), |e| <=
// 2^-9 = 0.2%; a GEMM's sum of such products has a relative error of that
// order (less where signs vary), and a gradient passes through a few GEMMs
// per layer. Measured on tiny (d_model 16, 2 + 2 layers): the loss 9.2e-5
// relative from f32's; gradients 0.17%..1.0% in relative L2 norm, except
// those within 1e-4 of the largest gradient's norm (the decoder's
// cross-attention queries), where cancellation takes them to 4.2%. Bounds:
// the loss 1e-2 relative; each gradient's difference 2e-2 of its norm plus
// 1e-6 of the largest's (a gradient with a wrong sign or a missing term
// fails). The loss must differ from f32's by more than 1e-6 relative: bf16
// must really be bf16. The key biases' exact gradient is zero: their bf16
// noise is bounded instead.
//
//===----------------------------------------------------------------------===//

#include "ModelPipeline.h"

#include "compiler/interpreter/Interpreter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>

namespace {

using namespace mlir;

struct Gradients {
  std::vector<tc::Tensor> results; ///< loss, tokens, then one per parameter
  std::vector<std::string> names;  ///< of results' parameters (tc.grad_of)
};

/// The loss and the parameter gradients of tiny's first @forward_*_grad in
/// `precision`, from parameters U(-0.3, 0.3) and a batch with padding, all
/// drawn from seed 7 (the same in every precision).
Gradients tinyGradients(MLIRContext &context,
                        tc::support::Precision precision) {
  OwningOpRef<ModuleOp> module = tc::test::compileModel(
      context, std::string(TC_SOURCE_DIR) + "/models/tiny.toml", false,
      precision);
  EXPECT_TRUE(module);
  if (!module)
    return {};
  func::FuncOp grad;
  for (func::FuncOp f : module->getOps<func::FuncOp>())
    if (f.getSymName().starts_with("forward_") &&
        f.getSymName().ends_with("_grad"))
      grad = f;
  EXPECT_TRUE(grad);
  std::mt19937_64 rng(7);
  std::vector<tc::Tensor> args;
  std::map<std::string, size_t> paramArgs; // name -> index in args
  for (BlockArgument arg : grad.getArguments()) {
    auto type = cast<RankedTensorType>(arg.getType());
    tc::Shape shape(type.getShape().begin(), type.getShape().end());
    auto input = grad.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                   "tc.input");
    if (input && input.getValue().starts_with("bf16.")) { // a weight's copy
      const tc::Tensor &param =
          args[paramArgs.at(input.getValue().drop_front(5).str())];
      tc::Tensor t(tc::DType::BF16, shape);
      for (int64_t i = 0; i < t.size(); ++i)
        t.set(i, param.floats[i]); // rounded
      args.push_back(t);
      continue;
    }
    if (auto name = grad.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                      "tc.param"))
      paramArgs[name.str()] = args.size();
    if (isa<FloatType>(type.getElementType())) { // a parameter
      tc::Tensor t(tc::DType::F32, shape);
      for (int64_t i = 0; i < t.size(); ++i)
        t.set(i, std::uniform_real_distribution<double>(-0.3, 0.3)(rng));
      args.push_back(t);
      continue;
    }
    bool isRng = type.getElementType().isInteger(64);
    tc::Tensor t(isRng ? tc::DType::I64 : tc::DType::I32, shape);
    for (int64_t i = 0; i < t.size(); ++i) {
      bool padding = !isRng && i % shape.back() == shape.back() - 1;
      t.setInt(i, isRng ? (i == 0 ? 1234 : 1)
                  : padding ? 0
                            : int64_t(1 + rng() % 23));
    }
    args.push_back(t);
  }
  FailureOr<std::vector<tc::Tensor>> results = tc::interpret(grad, args);
  EXPECT_TRUE(succeeded(results));
  if (failed(results))
    return {};
  Gradients gradients{*results, {}};
  for (unsigned i = 2; i < grad.getNumResults(); ++i)
    gradients.names.push_back(
        grad.getResultAttrOfType<StringAttr>(i, "tc.grad_of").str());
  return gradients;
}

double norm(const tc::Tensor &t) {
  double sum = 0;
  for (double v : t.floats)
    sum += v * v;
  return std::sqrt(sum);
}

TEST(MixedPrecision, Bf16GradientsAreWithinBf16ErrorOfF32s) {
  MLIRContext f32Context, bf16Context;
  Gradients f32Run = tinyGradients(f32Context, tc::support::Precision::F32);
  Gradients bf16Run =
      tinyGradients(bf16Context, tc::support::Precision::BF16);
  const std::vector<tc::Tensor> &f32 = f32Run.results, &bf16 = bf16Run.results;
  ASSERT_EQ(f32.size(), bf16.size());
  ASSERT_GT(f32.size(), 2u);
  double loss = f32[0].floats[0], bf16Loss = bf16[0].floats[0];
  EXPECT_NEAR(bf16Loss, loss, 1e-2 * std::abs(loss));
  EXPECT_GT(std::abs(bf16Loss - loss), 1e-6 * std::abs(loss))
      << "the bf16 loss equals the f32 loss: no GEMM ran in bf16";
  EXPECT_EQ(bf16[1].ints, f32[1].ints); // the token count
  // Gradients follow the loss and the token count, one per parameter.
  double largest = 0;
  for (size_t i = 2; i < f32.size(); ++i)
    largest = std::max(largest, norm(f32[i]));
  for (size_t i = 2; i < f32.size(); ++i) {
    ASSERT_EQ(bf16[i].dtype, tc::DType::F32) << "gradient " << i;
    tc::Tensor difference = f32[i];
    for (int64_t j = 0; j < difference.size(); ++j)
      difference.floats[j] = bf16[i].floats[j] - f32[i].floats[j];
    const std::string &name = f32Run.names[i - 2];
    if (name.find(".k.bias") != std::string::npos) {
      // Exactly zero (softmax ignores a constant shift of the scores): both
      // are rounding noise, bf16's larger (measured: up to 3e-6 of the
      // largest gradient's norm), bounded against the largest gradient.
      EXPECT_LE(norm(bf16[i]), 1e-4 * largest) << name;
      continue;
    }
    EXPECT_LE(norm(difference), 2e-2 * norm(f32[i]) + 1e-6 * largest) << name;
  }
}

} // namespace
