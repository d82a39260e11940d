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
#include "runtime/cuda/CublasGemm.h"

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
      if (t.dtype == tc::DType::I64) {
        std::vector<int64_t> values(t.ints.begin(), t.ints.end());
        ASSERT_TRUE(device->writeInput(*function, name, values.data(),
                                       values.size() * 8))
            << name;
      } else {
        std::vector<int32_t> values(t.ints.begin(), t.ints.end());
        ASSERT_TRUE(device->writeInput(*function, name, values.data(),
                                       values.size() * 4))
            << name;
      }
      args.push_back(t);
    }
    FailureOr<std::vector<tc::Tensor>> want = tc::interpret(step, args);
    ASSERT_TRUE(succeeded(want));
    device->run(*function);

    // Results: parameters', moments', then loss, tokens, learning rate.
    size_t n = state.size();
    double loss = (*want)[n].floats[0];
    float gotLoss = 0, gotRate = 0;
    int32_t gotTokens = 0;
    ASSERT_TRUE(device->readOutput(*function, "loss", &gotLoss, 4));
    ASSERT_TRUE(device->readOutput(*function, "tokens", &gotTokens, 4));
    ASSERT_TRUE(device->readOutput(*function, "learning_rate", &gotRate, 4));
    EXPECT_NEAR(gotLoss, loss, 1e-5 * std::abs(loss)) << "step " << s;
    EXPECT_EQ(gotTokens, (*want)[n + 1].ints[0]) << "step " << s;
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

namespace {

/// The interpreter's tensor of `type` from raw host values.
template <typename T>
tc::Tensor tensorOf(RankedTensorType type, const T *values) {
  bool floats = isa<FloatType>(type.getElementType());
  tc::Tensor t(floats ? tc::DType::F32 : tc::DType::I32,
               tc::Shape(type.getShape().begin(), type.getShape().end()));
  for (int64_t i = 0; i < t.size(); ++i) {
    if (floats)
      t.set(i, double(values[i]));
    else
      t.setInt(i, int64_t(values[i]));
  }
  return t;
}

// The inference functions tc-run eval decodes with: @encode and @decode of
// the tiny model on the CPU device equal the interpreter (memory and logits
// within 1e-5 relative + 1e-5 absolute: f32 kernels and OpenBLAS against
// per-op rounding of double results).
TEST(Executable, TinyEncoderAndDecoderEqualTheInterpreter) {
  std::unique_ptr<Compiled> compiled = compileTiny();
  ASSERT_TRUE(compiled);
  std::string error;
  std::unique_ptr<tc::rt::CpuDevice> device =
      tc::rt::CpuDevice::create(*compiled->executable, error);
  ASSERT_TRUE(device) << error;
  const tc::tcx::Executable &x = compiled->executable->root();
  std::mt19937_64 rng(3);
  std::vector<float> params(x.param_bytes() / 4);
  for (float &p : params)
    p = std::uniform_real_distribution<float>(-0.3f, 0.3f)(rng);
  device->write(tc::tcx::Space::Params, 0, params.data(), x.param_bytes());

  for (const char *name : {"encode_2x6", "decode_2x6x5"}) {
    func::FuncOp function;
    for (func::FuncOp f : compiled->graph->getOps<func::FuncOp>())
      if (f.getSymName() == name)
        function = f;
    ASSERT_TRUE(function) << name;
    const tc::tcx::Function *compiledFunction = compiled->executable->function(name);
    ASSERT_TRUE(compiledFunction) << name;
    std::vector<tc::Tensor> args;
    for (BlockArgument arg : function.getArguments()) {
      auto type = cast<RankedTensorType>(arg.getType());
      if (auto param = function.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                            "tc.param")) {
        int64_t offset = 0;
        for (const auto *p : *x.parameters())
          if (p->name()->str() == param.str())
            offset = p->buffer()->offset() / 4;
        args.push_back(tensorOf(type, params.data() + offset));
        continue;
      }
      std::string input =
          function.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "tc.input").str();
      if (isa<FloatType>(type.getElementType())) { // the encoder's memory
        std::vector<float> values(type.getNumElements());
        for (float &v : values)
          v = std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng);
        ASSERT_TRUE(device->writeInput(*compiledFunction, input, values.data(),
                                       values.size() * 4));
        args.push_back(tensorOf(type, values.data()));
      } else { // token ids, some padding
        std::vector<int32_t> ids(type.getNumElements());
        for (size_t i = 0; i < ids.size(); ++i)
          ids[i] = i % type.getShape().back() == 4 ? 0 : int32_t(1 + rng() % 23);
        ASSERT_TRUE(device->writeInput(*compiledFunction, input, ids.data(),
                                       ids.size() * 4));
        args.push_back(tensorOf(type, ids.data()));
      }
    }
    FailureOr<std::vector<tc::Tensor>> want = tc::interpret(function, args);
    ASSERT_TRUE(succeeded(want)) << name;
    device->run(*compiledFunction);
    std::string output = std::string(name).starts_with("encode") ? "memory" : "logits";
    std::vector<float> got((*want)[0].size());
    ASSERT_TRUE(device->readOutput(*compiledFunction, output, got.data(),
                                   got.size() * 4));
    double worst = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      double expected = (*want)[0].floats[i];
      worst = std::max(worst, std::abs(got[i] - expected) /
                                  (1e-5 + 1e-5 * std::abs(expected)));
    }
    EXPECT_LE(worst, 1.0) << name << ": worst error in units of the tolerance";
  }
}

} // namespace

namespace {

/// A CublasGemm evaluated on host memory, column-major, as cuBLAS defines
/// the call.
void evaluateColumnMajor(const tc::rt::CublasGemm &call, const float *a, const float *b,
                         float *c) {
  for (int64_t batch = 0; batch < call.batchCount; ++batch) {
    const float *A = a + call.offsetsA[batch];
    const float *B = b + call.offsetsB[batch];
    float *C = c + call.offsetsC[batch];
    for (int64_t col = 0; col < call.n; ++col)
      for (int64_t row = 0; row < call.m; ++row) {
        double sum = 0;
        for (int64_t p = 0; p < call.k; ++p) {
          // op(A)[row, p] and op(B)[p, col], column-major storage.
          float x = call.transposeA ? A[p + row * call.lda] : A[row + p * call.lda];
          float y = call.transposeB ? B[col + p * call.ldb] : B[p + col * call.ldb];
          sum += double(x) * y;
        }
        float &out = C[row + col * call.ldc];
        out = float(call.alpha * sum + (call.beta == 0 ? 0.0 : call.beta * out));
      }
  }
}


// Issue 8, the CUDA device's GEMMs checked without a GPU: every GEMM of the
// tiny executable's functions (attention's strided head-split GEMMs
// included), mapped to its column-major cuBLAS call (runtime/cuda/
// CublasGemm.h) and evaluated as cuBLAS defines that call, equals the plan's
// row-major GEMM evaluated directly (within 1e-5 relative + 1e-6 absolute:
// double sums in both, f32 stores).
TEST(Executable, EveryGemmAsACublasCallEqualsThePlanGemm) {
  std::unique_ptr<Compiled> compiled = compileTiny();
  ASSERT_TRUE(compiled);
  const tc::tcx::Executable &x = compiled->executable->root();
  std::mt19937_64 rng(9);
  int checked = 0, pointerArrays = 0;
  for (const tc::tcx::Function *function : *x.functions()) {
    tc::rt::SpaceSizes sizes = compiled->executable->spaceSizes(*function);
    for (const tc::tcx::StepEntry *entry : *function->steps()) {
      const tc::tcx::Gemm *g = entry->step_as_Gemm();
      if (!g)
        continue;
      auto random = [&](const tc::tcx::Buffer *b) {
        std::vector<float> space(sizes[b->space()] / 4 + 1);
        for (float &v : space)
          v = std::uniform_real_distribution<float>(-1, 1)(rng);
        return space;
      };
      std::vector<float> lhs = random(g->lhs()), rhs = random(g->rhs());
      std::vector<float> want(sizes[g->out()->space()] / 4 + 1, 0.0f), got = want;
      const float *a = lhs.data() + g->lhs()->offset() / 4;
      const float *b = rhs.data() + g->rhs()->offset() / 4;
      float *c = want.data() + g->out()->offset() / 4;
      // The plan's semantics, directly.
      size_t rank = g->batch()->size();
      int64_t count = 1;
      for (size_t d = 0; d < rank; ++d)
        count *= g->batch()->Get(d);
      for (int64_t batch = 0; batch < count; ++batch) {
        int64_t rest = batch, oa = 0, ob = 0, oc = 0; // row-major batch index
        for (size_t d = rank; d-- > 0;) {
          int64_t index = rest % g->batch()->Get(d);
          rest /= g->batch()->Get(d);
          oa += index * g->lhs_batch_strides()->Get(d);
          ob += index * g->rhs_batch_strides()->Get(d);
          oc += index * g->out_batch_strides()->Get(d);
        }
        const float *A = a + oa, *B = b + ob;
        float *C = c + oc;
        for (int64_t i = 0; i < g->m(); ++i)
          for (int64_t j = 0; j < g->n(); ++j) {
            double sum = 0;
            for (int64_t p = 0; p < g->k(); ++p)
              sum += double(g->transpose_lhs() ? A[p * g->lda() + i]
                                               : A[i * g->lda() + p]) *
                     (g->transpose_rhs() ? B[j * g->ldb() + p]
                                         : B[p * g->ldb() + j]);
            C[i * g->ldc() + j] = float(sum);
          }
      }
      tc::rt::CublasGemm call = tc::rt::cublasGemmOf(*g);
      EXPECT_EQ(call.batchCount, count);
      evaluateColumnMajor(call, b, a, got.data() + g->out()->offset() / 4);
      for (size_t i = 0; i < want.size(); ++i)
        ASSERT_NEAR(got[i], want[i], 1e-6 + 1e-5 * std::abs(want[i]))
            << function->name()->str() << " element " << i;
      ++checked;
      pointerArrays += !call.strided;
    }
  }
  EXPECT_GT(checked, 100);
  std::printf("%d GEMMs checked, %d need pointer arrays\n", checked, pointerArrays);
}

} // namespace
