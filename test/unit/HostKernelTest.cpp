//===- HostKernelTest.cpp - generated kernels == the interpreter ------------===//
//
// Every op of a tiny model's training step (all fusions, every dropout on;
// and with no fusion, the frontend's softmax and LayerNorm as they are)
// and of one of its incremental decoder steps (tc.top_k's and
// tc.log_softmax_top_k's inputs drawn from five values, so that equal values
// meet, the latter's addend 0 or -inf; the cache update's origins and
// positions random rows and positions of its cache, run in place) that
// becomes a generated kernel —
// fused groups, row-wise ops, Adam, embedding, copies, masks, cache update,
// top-k, the fused candidates, single elementwise ops and reductions — is emitted as C++,
// compiled by the system compiler into a shared object, run on random
// inputs and compared with the interpreter evaluating the same group (the
// oracle; tc.top_k's own is tested against numpy in
// test/Interpreter/ops/top-k.mlir). Tolerance: f32 results within
// 1e-5 relative + 1e-6 absolute (the kernel rounds after each f32 op, the
// interpreter once per op in double: a few ulps apart); exact for integers
// and booleans.
//
// The same for every CUDA kernel (issue 8, acceptance 2): their source
// compiled as host C++ with the SIMT harness (test/simt/Simt.h), launched
// on small grids (two blocks of 64 threads, so that grid-stride loops wrap
// and rows of 5, 6, 16 and 24 elements leave threads of a block idle),
// twice, the second time with the blocks in reverse order (the cache
// update aside: IncrementalDecoderTest covers it).
//
//===----------------------------------------------------------------------===//

#include "ModelPipeline.h"

#include "compiler/analysis/BufferAssignment.h"
#include "compiler/analysis/KernelCount.h"
#include "compiler/codegen/CudaKernel.h"
#include "compiler/codegen/KernelDispatch.h"
#include "compiler/codegen/Preludes.h"
#include "compiler/interpreter/Interpreter.h"

#include "mlir/IR/Builders.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <random>

namespace {

using namespace mlir;

const char *kModel = R"toml(
[model]
encoder_layers = 1
decoder_layers = 1
d_model = 16
d_ff = 32
heads = 4
dropout = 0.1
attention_dropout = 0.1
relu_dropout = 0.1
vocab_size = 24
max_length = 16
[training]
buckets = [{ batch = 2, source_length = 6, target_length = 5 }]
gradient_clip = 1.0
)toml";

/// A function that runs a clone of `op` on its own arguments.
func::FuncOp wrap(ModuleOp module, Operation *op, StringRef name) {
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto function = func::FuncOp::create(
      b, op->getLoc(), name,
      b.getFunctionType(op->getOperandTypes(), op->getResultTypes()));
  Block *entry = function.addEntryBlock();
  b.setInsertionPointToStart(entry);
  // One argument per operand position, even when a value is passed twice.
  Operation *clone = b.clone(*op);
  clone->setOperands(entry->getArguments());
  func::ReturnOp::create(b, op->getLoc(), clone->getResults());
  return function;
}

enum class Target { Host, CudaSimt };

/// A model (empty: the inline one, every dropout on) and the fusions its
/// step is compiled with: "none" leaves the frontend's tc.softmax and
/// tc.layer_norm and their gradients, which have row kernels of their own.
struct StepCase {
  std::string name, modelPath, fusions;
};

class GeneratedKernels
    : public testing::TestWithParam<std::tuple<StepCase, Target>> {};

TEST_P(GeneratedKernels, EveryKernelOfTheStepMatchesTheInterpreter) {
  auto [stepCase, target] = GetParam();
  const std::string &modelPath = stepCase.modelPath;
  bool cuda = target == Target::CudaSimt;
  // One directory per case and target: a loaded library is never replaced.
  std::string dir = testing::TempDir() + "/tc-" + (cuda ? "cuda" : "host") +
                    "-kernels-" + stepCase.name;
  std::filesystem::create_directories(dir);
  std::string description = modelPath;
  if (description.empty()) { // the inline model, every dropout on
    description = dir + "/model.toml";
    std::ofstream(description) << kModel;
  }
  MLIRContext context;
  OwningOpRef<ModuleOp> module = tc::test::compileModel(
      context, description, /*plan=*/false, std::nullopt, stepCase.fusions);
  ASSERT_TRUE(module);
  std::string error;
  // The training step and an incremental decoder step (its cache update
  // and top-k).
  func::FuncOp step, decodeStep;
  for (func::FuncOp f : module->getOps<func::FuncOp>()) {
    if (f.getSymName().starts_with("train_step"))
      step = f;
    if (!decodeStep && f.getSymName().starts_with("decode_step"))
      decodeStep = f;
  }
  ASSERT_TRUE(step && decodeStep);

  // Emit every group; wrap each for the interpreter.
  OwningOpRef<ModuleOp> wrappers = ModuleOp::create(UnknownLoc::get(&context));
  std::string source = cuda ? "#include \"" TC_SOURCE_DIR
                              "/test/simt/Simt.h\"\n" +
                                  tc::codegen::kernelPrelude(tc::Target::Cuda)
                            : tc::codegen::kernelPrelude(tc::Target::Host);
  std::vector<std::pair<std::string, Operation *>> kernels;
  int skipped = 0;
  // Every op that becomes a generated kernel (not a GEMM, view or constant).
  tc::BufferAssignment assignment(step), decoderAssignment(decodeStep);
  for (Operation &op : llvm::concat<Operation>(step.getBody().front(),
                                               decodeStep.getBody().front())) {
    bool decoder = op.getParentOp() == decodeStep.getOperation();
    if ((decoder ? decoderAssignment : assignment).stepOf(&op) !=
        tc::StepKind::Kernel)
      continue;
    // The cache update, the beam's parent table and the embedding gradient
    // added onto its base write their input in place: on the host the
    // result buffer is the input's (below); the CUDA kernel, launched twice,
    // would update it twice (IncrementalDecoderTest and
    // EmbeddingGradKernelTest cover them).
    if (cuda && op.hasTrait<tc::OpTrait::UpdatesInPlace>()) {
      ++skipped;
      continue;
    }
    std::string name = "k" + std::to_string(kernels.size() + skipped);
    FailureOr<std::string> text = tc::codegen::emitKernel(
        &op, name, cuda ? tc::Target::Cuda : tc::Target::Host, error);
    if (failed(text)) {
      ADD_FAILURE() << name << " (" << op.getName().getStringRef().str()
                    << ") not emitted: " << error;
      ++skipped;
      continue;
    }
    source += *text;
    kernels.push_back({name, &op});
  }
  ASSERT_EQ(int64_t(kernels.size() + skipped),
            tc::countKernels(step).generated +
                tc::countKernels(decodeStep).generated)
      << "every generated kernel of the steps";
  std::ofstream(dir + "/kernels.cpp") << source;
  std::string command =
      "c++ -std=c++20 -O2 -fPIC -shared -fopenmp -pthread -o " + dir +
      "/kernels.so " + dir + "/kernels.cpp -lboost_context 2> " + dir +
      "/compile.log"; // Boost.Context: the SIMT harness's fibers
  ASSERT_EQ(std::system(command.c_str()), 0)
      << "the generated kernels do not compile; see " << dir << "/compile.log";
  void *library = dlopen((dir + "/kernels.so").c_str(), RTLD_NOW);
  ASSERT_TRUE(library) << dlerror();

  // Whether `v` is one of `op`'s Adam second moments.
  auto secondMoment = [](Operation *op, Value v) {
    auto adam = dyn_cast<tc::AdamOp>(op);
    return adam && llvm::is_contained(adam.getSecondMoments(), v);
  };
  std::mt19937_64 rng(11);
  for (auto [name, fused] : kernels) {
    // Targets stay inside the vocabulary of 24.
    bool ids = isa<tc::CrossEntropyOp, tc::CrossEntropyGradOp,
                   tc::CrossEntropyWithGradOp, tc::EmbedOp,
                   tc::EmbeddingGradOp, tc::EmbeddingGradAddOp>(fused);
    // Random inputs; the RNG state is (seed, step).
    std::vector<tc::Tensor> inputs;
    std::vector<std::vector<char>> storage;
    bool inPlace = fused->hasTrait<tc::OpTrait::UpdatesInPlace>();
    // The rows and positions of an in-place update's state (its first
    // operand): a cache [R, T, C] or the parent table [R, T].
    ArrayRef<int64_t> state =
        inPlace
            ? cast<RankedTensorType>(fused->getOperand(0).getType()).getShape()
            : ArrayRef<int64_t>();
    for (auto [k, input] : llvm::enumerate(fused->getOperands())) {
      // A value passed twice (tc.mul %g, %g: the unfused step's squares)
      // is one buffer of the kernel's: the same values at both positions.
      auto first = llvm::find(fused->getOperands(), input);
      if (unsigned earlier = first - fused->operand_begin(); earlier < k) {
        inputs.push_back(inputs[earlier]);
        continue;
      }
      auto type = cast<RankedTensorType>(input.getType());
      tc::Tensor t(*tc::dtypeOf(type.getElementType()),
                   tc::Shape(type.getShape().begin(), type.getShape().end()));
      for (int64_t i = 0; i < t.size(); ++i) {
        // An update's origins (the parent table's operand 1) and positions
        // (its last operand): rows and positions of the state (the
        // interpreter refuses others), each row its own, so that a row
        // reads an origin that writes before, at or after the prefix read.
        if (isa<tc::CacheUpdateOp, tc::BeamHistoryOp>(fused) &&
            k + 1 == fused->getNumOperands())
          t.setInt(i, int64_t(rng() % state[1]));
        else if (isa<tc::BeamHistoryOp>(fused) && k == 1)
          t.setInt(i, int64_t(rng() % state[0]));
        // The fused candidates' addend: 0 or -inf, the decoder's (another
        // value would make distinct sums that round alike in one of the
        // kernel and the interpreter, whose exponentials differ).
        else if (isa<tc::LogSoftmaxTopKOp>(fused) && k == 1)
          t.set(i, rng() % 4 ? 0.0 : -INFINITY);
        else if (tc::isFloat(t.dtype) &&
                 isa<tc::TopKOp, tc::LogSoftmaxTopKOp>(fused))
          t.set(i, double(rng() % 5)); // ties, across the cut at k too
        // Adam's second moments positive: a negative one could cancel v'
        // to ~0 and make the update too ill-conditioned to compare f32 with
        // the interpreter's doubles (a step never has one).
        else if (tc::isFloat(t.dtype))
          t.set(i, std::uniform_real_distribution<double>(0.1, 2.0)(rng) *
                       (rng() % 2 || secondMoment(fused, input) ? 1 : -1));
        else if (ids && t.dtype == tc::DType::I32)
          t.setInt(i, int64_t(rng() % 24)); // 0, the padding, is ignored
        else
          t.setInt(i, t.dtype == tc::DType::I64 ? int64_t(rng() % 1000)
                                                : int64_t(rng() % 2));
      }
      inputs.push_back(t);
    }
    func::FuncOp wrapper = wrap(*wrappers, fused, name);
    FailureOr<std::vector<tc::Tensor>> want = tc::interpret(wrapper, inputs);
    ASSERT_TRUE(succeeded(want)) << name;

    // The same inputs in the kernel's layout: f32, f64, i1 (bool), i32, i64.
    std::vector<void *> buffers;
    auto pack = [&](const tc::Tensor &t) {
      size_t bytes = t.dtype == tc::DType::F64 || t.dtype == tc::DType::I64 ? 8
                     : t.dtype == tc::DType::I1                             ? 1
                                                                            : 4;
      storage.emplace_back(t.size() * bytes);
      char *p = storage.back().data();
      for (int64_t i = 0; i < t.size(); ++i) {
        switch (t.dtype) {
        case tc::DType::F32:
          reinterpret_cast<float *>(p)[i] = t.floats[i];
          break;
        case tc::DType::F64:
          reinterpret_cast<double *>(p)[i] = t.floats[i];
          break;
        case tc::DType::I1:
          reinterpret_cast<bool *>(p)[i] = t.ints[i];
          break;
        case tc::DType::I32:
          reinterpret_cast<int32_t *>(p)[i] = t.ints[i];
          break;
        case tc::DType::I64:
          reinterpret_cast<int64_t *>(p)[i] = t.ints[i];
          break;
        default:
          ADD_FAILURE() << "unexpected element type";
        }
      }
      buffers.push_back(p);
    };
    for (const tc::Tensor &t : inputs)
      pack(t);
    for (const tc::Tensor &t : *want)
      pack(tc::Tensor(t.dtype, t.shape));
    if (inPlace) // the result is the state input's buffer
      buffers[inputs.size()] = buffers[0];
    auto kernel =
        reinterpret_cast<void (*)(void **)>(dlsym(library, name.c_str()));
    ASSERT_TRUE(kernel) << name;
    if (cuda) {
      using Launch = void (*)(void (*)(void **), unsigned, unsigned, void **);
      auto launch = reinterpret_cast<Launch>(dlsym(library, "simt_launch"));
      ASSERT_TRUE(launch);
      // Twice, the results of the first overwritten with NaNs (and the
      // harness runs the second's blocks in reverse order): a kernel that
      // counts its blocks across the grid (TC_ORDERED_ROW_SUM) must leave the
      // count ready for its next launch.
      launch(kernel, 2, 64, buffers.data());
      for (size_t r = inputs.size(); r < storage.size(); ++r)
        std::fill(storage[r].begin(), storage[r].end(), char(0xff));
      launch(kernel, 2, 64, buffers.data());
    } else {
      kernel(buffers.data());
    }

    std::string what =
        name + " (" + fused->getName().getStringRef().str() + ")";
    for (size_t r = 0; r < want->size(); ++r) {
      const tc::Tensor &expected = (*want)[r];
      const char *got = static_cast<const char *>(buffers[inputs.size() + r]);
      for (int64_t i = 0; i < expected.size(); ++i) {
        double value;
        switch (expected.dtype) {
        case tc::DType::F32:
          value = reinterpret_cast<const float *>(got)[i];
          break;
        case tc::DType::F64:
          value = reinterpret_cast<const double *>(got)[i];
          break;
        case tc::DType::I1:
          value = reinterpret_cast<const bool *>(got)[i];
          break;
        case tc::DType::I32:
          value = reinterpret_cast<const int32_t *>(got)[i];
          break;
        default:
          value = reinterpret_cast<const int64_t *>(got)[i];
          break;
        }
        double e = expected.get(i);
        if (std::isnan(e)) {
          EXPECT_TRUE(std::isnan(value))
              << what << " result " << r << "[" << i << "]";
          continue;
        }
        if (std::isinf(e)) { // the candidates' -inf addend; no tolerance
          EXPECT_EQ(value, e) << what << " result " << r << "[" << i << "]";
          continue;
        }
        EXPECT_NEAR(value, e, 1e-6 + 1e-5 * std::abs(e))
            << what << " result " << r << "[" << i << "]";
      }
    }
  }
  std::cout << "all " << kernels.size() << (cuda ? " CUDA" : " host")
            << " kernels of the step match the interpreter\n";
  // No dlclose: the library brought OpenMP's thread pool into the process,
  // whose threads must not outlive its code.
}

INSTANTIATE_TEST_SUITE_P(
    Models, GeneratedKernels,
    testing::Combine(
        testing::Values(
            StepCase{"AllDropoutsOn", "", "all"},
            StepCase{"ModelsTiny", TC_SOURCE_DIR "/models/tiny.toml", "all"},
            StepCase{"AllDropoutsOnUnfused", "", "none"}),
        testing::Values(Target::Host, Target::CudaSimt)),
    [](const auto &info) {
      return std::get<0>(info.param).name +
             (std::get<1>(info.param) == Target::Host ? "Host" : "CudaSimt");
    });

} // namespace
