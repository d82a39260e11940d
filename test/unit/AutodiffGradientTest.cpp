//===- AutodiffGradientTest.cpp - tc-autodiff vs finite differences -------===//
//
// For every differentiable op, a float64 function
//   loss = sum(op(params...) * probe)
// (the fixed random probe makes every output element matter) is
// differentiated by tc-autodiff; the interpreter evaluates @f_grad, and every
// gradient element is compared with a central finite difference of @f:
//   |autodiff - fd| <= tol * max(1, |fd|)
// with h = 1e-6 and tol = 1e-6 (float64: the truncation error is ~h^2 and
// the rounding error ~1e-16 / h = 1e-10), unless a case states otherwise.
//
//===----------------------------------------------------------------------===//

#include "compiler/interpreter/Interpreter.h"
#include "compiler/transforms/Passes.h"
#include "dialects/tc/TcDialect.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <random>

namespace {

using namespace mlir;

struct GradCase {
  std::string name;
  std::vector<std::string> paramTypes; ///< e.g. "tensor<2x3xf64>"
  std::string body;                    ///< defines %y from %p0, %p1, ...
  std::string yType;
  bool positive = false; ///< parameters drawn from [0.5, 1.5], not [-1, 1]
  double h = 1e-6;
  double tol = 1e-6;
};

std::ostream &operator<<(std::ostream &os, const GradCase &c) {
  return os << c.name;
}

/// "tensor<2x3xf64>" -> {2, 3}
tc::Shape shapeOf(const std::string &type) {
  tc::Shape shape;
  std::string dims = type.substr(
      7, type.rfind('x') == std::string::npos ? 0 : type.rfind('x') - 7 + 1);
  size_t at = 0;
  while (at < dims.size()) {
    size_t x = dims.find('x', at);
    shape.push_back(std::stoll(dims.substr(at, x - at)));
    at = x + 1;
  }
  return shape;
}

std::string moduleFor(const GradCase &c) {
  std::string args, axes;
  for (size_t i = 0; i < c.paramTypes.size(); ++i)
    args += "%p" + std::to_string(i) + ": " + c.paramTypes[i] +
            " {tc.param = \"p" + std::to_string(i) + "\"}, ";
  tc::Shape yShape = shapeOf(c.yType);
  for (size_t d = 0; d < yShape.size(); ++d)
    axes += (d ? ", " : "") + std::to_string(d);
  std::string reduce = yShape.empty()
                           ? "  %l = tc.mul %y, %probe : tensor<f64>, "
                             "tensor<f64> -> tensor<f64>\n"
                           : "  %w = tc.mul %y, %probe : " + c.yType + ", " +
                                 c.yType + " -> " + c.yType +
                                 "\n  %l = tc.reduce_sum %w axes = [" + axes +
                                 "] : " + c.yType + " -> tensor<f64>\n";
  return "func.func @f(" + args + "%probe: " + c.yType +
         ") -> tensor<f64> {\n" + c.body + "\n" + reduce +
         "  return %l : tensor<f64>\n}\n";
}

class AutodiffGradient : public testing::TestWithParam<GradCase> {};

TEST_P(AutodiffGradient, MatchesFiniteDifferences) {
  const GradCase &c = GetParam();
  MLIRContext context;
  context.loadDialect<tc::TcDialect, func::FuncDialect>();
  std::string source = moduleFor(c);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(module) << source;
  PassManager pm(&context);
  pm.addPass(tc::createTcAutodiff());
  ASSERT_TRUE(succeeded(pm.run(*module))) << source;
  auto f = module->lookupSymbol<func::FuncOp>("f");
  auto grad = module->lookupSymbol<func::FuncOp>("f_grad");
  ASSERT_TRUE(grad);

  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), positive(0.5, 1.5);
  std::vector<tc::Tensor> args;
  for (const std::string &type : c.paramTypes) {
    tc::Tensor t(tc::DType::F64, shapeOf(type));
    for (double &x : t.floats)
      x = c.positive ? positive(rng) : unit(rng);
    args.push_back(t);
  }
  tc::Tensor probe(tc::DType::F64, shapeOf(c.yType));
  for (double &x : probe.floats)
    x = unit(rng);
  args.push_back(probe);

  FailureOr<std::vector<tc::Tensor>> results = tc::interpret(grad, args);
  ASSERT_TRUE(succeeded(results));
  auto lossAt = [&](std::vector<tc::Tensor> at) {
    return (*tc::interpret(f, at))[0].floats[0];
  };
  EXPECT_EQ((*results)[0].floats[0], lossAt(args)); // the same loss

  for (size_t p = 0; p < c.paramTypes.size(); ++p) {
    const tc::Tensor &g = (*results)[1 + p];
    ASSERT_EQ(g.shape, args[p].shape) << "gradient of p" << p;
    for (int64_t i = 0; i < args[p].size(); ++i) {
      std::vector<tc::Tensor> plus = args, minus = args;
      plus[p].floats[i] += c.h;
      minus[p].floats[i] -= c.h;
      double fd = (lossAt(plus) - lossAt(minus)) / (2 * c.h);
      EXPECT_NEAR(g.floats[i], fd, c.tol * std::max(1.0, std::abs(fd)))
          << "d loss / d p" << p << "[" << i << "]\n"
          << source;
    }
  }
}

const char *kIds =
    "  %ids = tc.constant dense<[[1, 0, 3], [3, 3, 4]]> : tensor<2x3xi32>\n";

std::vector<GradCase> cases() {
  std::string t23 = "tensor<2x3xf64>", t3 = "tensor<3xf64>",
              t234 = "tensor<2x3x4xf64>";
  auto binary = [&](std::string op, std::string a, std::string b, std::string y,
                    bool positive = false) {
    return GradCase{
        op + "_" + std::to_string(a.size()) + "_" + std::to_string(b.size()),
        {a, b},
        "  %y = tc." + op + " %p0, %p1 : " + a + ", " + b + " -> " + y,
        y,
        positive};
  };
  auto unary = [&](std::string op, bool positive = false) {
    return GradCase{
        op, {t23}, "  %y = tc." + op + " %p0 : " + t23, t23, positive};
  };
  auto reduce = [&](std::string op, std::string axes, bool keep,
                    std::string y) {
    std::string name = op + "_axes";
    for (char ch : axes)
      if (isdigit(ch))
        name += ch;
    return GradCase{name + (keep ? "_keep" : ""),
                    {t234},
                    "  %y = tc." + op + " %p0 axes = [" + axes + "]" +
                        (keep ? " keep_dims" : "") + " : " + t234 + " -> " + y,
                    y};
  };
  auto matmul = [&](std::string name, std::string a, std::string b,
                    std::string attrs, std::string y) {
    return GradCase{"matmul_" + name,
                    {a, b},
                    "  %y = tc.matmul %p0, %p1 " + attrs + " : " + a + ", " +
                        b + " -> " + y,
                    y};
  };
  std::vector<GradCase> all = {
      binary("add", t23, t3, t23),
      binary("add", "tensor<2x1xf64>", "tensor<1x3xf64>", t23),
      binary("sub", t23, "tensor<2x1xf64>", t23),
      binary("mul", t23, "tensor<f64>", t23),
      binary("mul", t3, t23, t23),
      binary("div", t23, t3, t23, /*positive=*/true),
      binary("max", t23, t3, t23),
      binary("min", t23, t23, t23),
      unary("neg"),
      unary("exp"),
      unary("log", true),
      unary("sqrt", true),
      unary("rsqrt", true),
      unary("tanh"),
      unary("relu"),
      {"select",
       {t23, t3},
       "  %c = tc.constant dense<[[true, false, true], [false, false, true]]> "
       ": tensor<2x3xi1>\n"
       "  %y = tc.select %c, %p0, %p1 : tensor<2x3xi1>, tensor<2x3xf64>, "
       "tensor<3xf64> -> tensor<2x3xf64>",
       t23},
      // Through f32 and back: h is large against f32 rounding (~1e-7).
      {"convert",
       {t23},
       "  %h = tc.convert %p0 : tensor<2x3xf64> -> tensor<2x3xf32>\n"
       "  %y = tc.convert %h : tensor<2x3xf32> -> tensor<2x3xf64>",
       t23,
       false,
       1e-2,
       1e-4},
      reduce("reduce_sum", "0", false, "tensor<3x4xf64>"),
      reduce("reduce_sum", "1", true, "tensor<2x1x4xf64>"),
      reduce("reduce_sum", "2", false, "tensor<2x3xf64>"),
      reduce("reduce_sum", "0, 2", false, "tensor<3xf64>"),
      reduce("reduce_mean", "0", true, "tensor<1x3x4xf64>"),
      reduce("reduce_mean", "1", false, "tensor<2x4xf64>"),
      reduce("reduce_mean", "2", false, "tensor<2x3xf64>"),
      reduce("reduce_mean", "0, 1, 2", false, "tensor<f64>"),
      reduce("reduce_max", "0", false, "tensor<3x4xf64>"),
      reduce("reduce_max", "1", true, "tensor<2x1x4xf64>"),
      reduce("reduce_max", "2", false, "tensor<2x3xf64>"),
      matmul("plain", "tensor<2x3xf64>", "tensor<3x4xf64>", "",
             "tensor<2x4xf64>"),
      matmul("transpose_lhs", "tensor<3x2xf64>", "tensor<3x4xf64>",
             "{transpose_lhs}", "tensor<2x4xf64>"),
      matmul("transpose_rhs", "tensor<2x3xf64>", "tensor<4x3xf64>",
             "{transpose_rhs}", "tensor<2x4xf64>"),
      matmul("transpose_both", "tensor<3x2xf64>", "tensor<4x3xf64>",
             "{transpose_lhs, transpose_rhs}", "tensor<2x4xf64>"),
      matmul("batched", "tensor<2x3x4xf64>", "tensor<2x4x5xf64>", "",
             "tensor<2x3x5xf64>"),
      matmul("linear_layer", "tensor<2x3x4xf64>", "tensor<5x4xf64>",
             "{transpose_rhs}", "tensor<2x3x5xf64>"),
      matmul("linear_no_transpose", "tensor<2x3x4xf64>", "tensor<4x5xf64>", "",
             "tensor<2x3x5xf64>"),
      matmul("lhs_batch_broadcast", "tensor<1x3x4xf64>", "tensor<2x4x5xf64>",
             "", "tensor<2x3x5xf64>"),
      matmul("batched_transpose_lhs", "tensor<2x4x3xf64>", "tensor<4x5xf64>",
             "{transpose_lhs}", "tensor<2x3x5xf64>"),
      {"softmax_axis0",
       {t234},
       "  %y = tc.softmax %p0 axis = 0 : " + t234,
       t234},
      {"softmax_axis1",
       {t234},
       "  %y = tc.softmax %p0 axis = 1 : " + t234,
       t234},
      {"softmax_axis2",
       {t234},
       "  %y = tc.softmax %p0 axis = 2 : " + t234,
       t234},
      {"layer_norm",
       {"tensor<2x3x5xf64>", "tensor<5xf64>", "tensor<5xf64>"},
       "  %y = tc.layer_norm %p0, %p1, %p2 epsilon = 1.0e-05 : "
       "tensor<2x3x5xf64>, tensor<5xf64>, tensor<5xf64>",
       "tensor<2x3x5xf64>"},
      {"embedding",
       {"tensor<5x4xf64>"},
       std::string(kIds) + "  %y = tc.embedding %p0, %ids : tensor<5x4xf64>, "
                           "tensor<2x3xi32> -> tensor<2x3x4xf64>",
       "tensor<2x3x4xf64>"},
      {"dropout",
       {t234},
       "  %rng = tc.constant dense<[5, 9]> : tensor<2xi64>\n"
       "  %y = tc.dropout %p0, %rng rate = 3.0e-01 key = 4 : " +
           t234 + ", tensor<2xi64>",
       t234},
      {"cross_entropy",
       {"tensor<2x3x5xf64>"},
       std::string(kIds) +
           "  %y, %n = tc.cross_entropy %p0, %ids label_smoothing = 1.0e-01 "
           "ignore_index = 3 "
           ": tensor<2x3x5xf64>, tensor<2x3xi32> -> tensor<f64>, tensor<i32>",
       "tensor<f64>"},
      // The fused ops built by the fusion passes, through their own rules.
      {"linear_relu",
       {"tensor<2x3x4xf64>", "tensor<5x4xf64>", "tensor<5xf64>"},
       "  %y = tc.linear %p0, %p1, %p2 {relu} : tensor<2x3x4xf64>, "
       "tensor<5x4xf64>, tensor<5xf64> -> tensor<2x3x5xf64>",
       "tensor<2x3x5xf64>"},
      {"residual_layer_norm",
       {"tensor<2x3x5xf64>", "tensor<2x3x5xf64>", "tensor<5xf64>",
        "tensor<5xf64>"},
       "  %rng = tc.constant dense<[5, 9]> : tensor<2xi64>\n"
       "  %y, %m, %r = tc.residual_layer_norm %p0, %p1, %p2, %p3, %rng rate = "
       "2.0e-01 "
       "key = 4 epsilon = 1.0e-05 : tensor<2x3x5xf64>, tensor<5xf64>, "
       "tensor<2xi64> "
       "-> tensor<2x3x1xf64>",
       "tensor<2x3x5xf64>"},
      {"masked_softmax",
       {"tensor<2x2x3x4xf64>"},
       "  %rng = tc.constant dense<[5, 9]> : tensor<2xi64>\n"
       "  %mask = tc.constant dense<[[true, true, false, true]]> : "
       "tensor<1x4xi1>\n"
       "  %y, %p = tc.masked_softmax %p0, %mask, %rng scale = 5.0e-01 fill = "
       "-1.0e+09 "
       "rate = 2.0e-01 key = 4 : tensor<2x2x3x4xf64>, tensor<1x4xi1>, "
       "tensor<2xi64>",
       "tensor<2x2x3x4xf64>"},
      {"embed_learned_positions",
       {"tensor<5x4xf64>", "tensor<3x4xf64>"},
       std::string(kIds) +
           "  %rng = tc.constant dense<[5, 9]> : tensor<2xi64>\n"
           "  %y = tc.embed %p0, %ids, %p1, %rng scale = 2.0e+00 rate = "
           "2.0e-01 key = 4 "
           ": tensor<5x4xf64>, tensor<2x3xi32>, tensor<3x4xf64>, tensor<2xi64> "
           "-> tensor<2x3x4xf64>",
       "tensor<2x3x4xf64>"},
      {"reshape",
       {t234},
       "  %y = tc.reshape %p0 : " + t234 + " -> tensor<6x4xf64>",
       "tensor<6x4xf64>"},
      {"transpose",
       {t234},
       "  %y = tc.transpose %p0 permutation = [2, 0, 1] : " + t234 +
           " -> tensor<4x2x3xf64>",
       "tensor<4x2x3xf64>"},
      {"broadcast_to",
       {"tensor<3x1xf64>"},
       "  %y = tc.broadcast_to %p0 : tensor<3x1xf64> -> " + t234,
       t234},
      {"slice",
       {t234},
       "  %y = tc.slice %p0 offsets = [1, 1, 1] : " + t234 +
           " -> tensor<1x2x2xf64>",
       "tensor<1x2x2xf64>"},
      {"concat",
       {t23, "tensor<2x2xf64>"},
       "  %y = tc.concat %p0, %p1 axis = 1 : tensor<2x3xf64>, tensor<2x2xf64> "
       "-> tensor<2x5xf64>",
       "tensor<2x5xf64>"},
  };
  return all;
}

// The backward of dropout applies exactly the forward's mask: the gradient of
// sum(dropout(x) * w) is w / (1 - rate) where the forward kept x, else 0. A
// backward that drew a new mask (another key or step) would fail this.
TEST(AutodiffDropout, BackwardUsesTheForwardMask) {
  MLIRContext context;
  context.loadDialect<tc::TcDialect, func::FuncDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    func.func @forward(%x: tensor<64xf64>, %rng: tensor<2xi64>) -> tensor<64xf64> {
      %y = tc.dropout %x, %rng rate = 5.0e-01 key = 3 : tensor<64xf64>, tensor<2xi64>
      return %y : tensor<64xf64>
    }
    func.func @loss(%x: tensor<64xf64> {tc.param = "x"}, %w: tensor<64xf64>,
                    %rng: tensor<2xi64>) -> tensor<f64> {
      %y = tc.dropout %x, %rng rate = 5.0e-01 key = 3 : tensor<64xf64>, tensor<2xi64>
      %m = tc.mul %y, %w : tensor<64xf64>, tensor<64xf64> -> tensor<64xf64>
      %l = tc.reduce_sum %m axes = [0] : tensor<64xf64> -> tensor<f64>
      return %l : tensor<f64>
    })mlir",
                                                             &context);
  ASSERT_TRUE(module);
  PassManager pm(&context);
  pm.addPass(tc::createTcAutodiff());
  ASSERT_TRUE(succeeded(pm.run(*module)));

  tc::Tensor ones(tc::DType::F64, {64}), w(tc::DType::F64, {64});
  for (int i = 0; i < 64; ++i) {
    ones.floats[i] = 1.0;
    w.floats[i] = 0.25 * (i + 1);
  }
  auto rngAt = [](int64_t step) {
    tc::Tensor rng(tc::DType::I64, {2});
    rng.ints = {11, step};
    return rng;
  };
  auto forward = module->lookupSymbol<func::FuncOp>("forward");
  auto grad = module->lookupSymbol<func::FuncOp>("loss_grad");
  tc::Tensor mask = (*tc::interpret(forward, {ones, rngAt(5)}))[0];
  tc::Tensor otherStep = (*tc::interpret(forward, {ones, rngAt(6)}))[0];
  tc::Tensor dx = (*tc::interpret(grad, {ones, w, rngAt(5)}))[1];
  int kept = 0;
  for (int i = 0; i < 64; ++i) {
    kept += mask.floats[i] != 0.0;
    EXPECT_EQ(dx.floats[i], mask.floats[i] != 0.0 ? w.floats[i] * 2.0 : 0.0)
        << "element " << i;
  }
  EXPECT_GT(kept, 16);
  EXPECT_LT(kept, 48);
  EXPECT_NE(mask.floats, otherStep.floats)
      << "the mask must depend on the step";
}

INSTANTIATE_TEST_SUITE_P(EveryDifferentiableOp, AutodiffGradient,
                         testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<GradCase> &info) {
                           return info.param.name;
                         });

} // namespace
