//===- CudaProgramTest.cpp - the CUDA device's host side, without a GPU ----===//
//
// Issue 8, acceptance 3. The CUDA device (runtime/cuda/CudaDevice.cpp) only
// walks a CudaProgram (runtime/cuda/CudaProgram.h); here the same program is
// walked on an emulated GPU whose "device memory" is host memory
// (EmulatedGpu.h: kernels through the SIMT harness, GEMMs as cuBLAS defines
// the call, copies as cudaMemcpy2D defines its rectangles). The tiny model's
// CUDA executable then trains two steps, encodes and decodes; every output
// and every byte of the parameters, gradients and moments is compared with
// the CPU device running the host executable of the same model.
//
// Tolerance: 1e-5 relative + 2e-5 absolute (block reductions in another
// order, double-accumulated GEMMs against OpenBLAS's f32 ones). The
// attention key biases, whose exact gradient is zero (see ExecutableTest),
// are held to the sum of the learning rates.
//
//===----------------------------------------------------------------------===//

#include "EmulatedGpu.h"
#include "TinyExecutable.h"

#include "runtime/cpu/CpuDevice.h"
#include "runtime/cuda/CudaProgram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

namespace {

using namespace tc;

using test::compileSimt;
using test::EmulatedGpu;
using test::randomInput;

void expectClose(const float *got, const float *want, int64_t count,
                 double bound, const std::string &what) {
  double worst = 0;
  int64_t at = 0;
  for (int64_t i = 0; i < count; ++i) {
    double error =
        std::abs(double(got[i]) - want[i]) - 1e-5 * std::abs(want[i]);
    if (!(error <= worst)) {
      worst = std::isnan(error) ? INFINITY : error;
      at = i;
    }
  }
  EXPECT_LE(worst, bound) << what << " element " << at << ": " << got[at]
                          << " vs " << want[at];
}

TEST(CudaProgram, TinyModelOnAnEmulatedGpuEqualsTheCpuDevice) {
  std::unique_ptr<test::Compiled> host = test::compileTiny();
  std::unique_ptr<test::Compiled> cuda = test::compileTiny({"sm_80"});
  ASSERT_TRUE(host && cuda);
  const tcx::Executable &hx = host->executable->root(),
                        &cx = cuda->executable->root();
  ASSERT_EQ(hx.functions()->size(), cx.functions()->size());
  ASSERT_EQ(hx.param_bytes(), cx.param_bytes());
  std::string error;
  std::unique_ptr<rt::CpuDevice> cpu =
      rt::CpuDevice::create(*host->executable, error);
  ASSERT_TRUE(cpu) << error;
  EmulatedGpu gpu(*cuda->executable,
                  compileSimt(cx, testing::TempDir() + "/tc-emulated-gpu"));

  // The same random parameters on both.
  std::mt19937_64 rng(3);
  std::vector<float> params(hx.param_bytes() / 4);
  for (float &p : params)
    p = std::uniform_real_distribution<float>(-0.3f, 0.3f)(rng);
  cpu->write(tcx::Space::Params, 0, params.data(), hx.param_bytes());
  std::memcpy(gpu.space(tcx::Space::Params), params.data(), hx.param_bytes());

  double learningRates = 0;
  // By role: "decode" also starts decode_start's and decode_step's names,
  // whose rows random inputs do not fill validly (positions past the cache).
  auto runBoth = [&](tcx::FunctionRole role, int step) {
    const tcx::Function *hf = nullptr, *cf = nullptr;
    for (size_t i = 0; i < hx.functions()->size(); ++i)
      if (hx.functions()->Get(i)->role() == role) {
        hf = hx.functions()->Get(i);
        cf = cx.functions()->Get(i);
      }
    ASSERT_TRUE(hf && cf) << tcx::EnumNameFunctionRole(role);
    ASSERT_EQ(hf->name()->str(), cf->name()->str());
    ASSERT_EQ(hf->steps()->size(), cf->steps()->size()) << "the same plan";
    for (const tcx::Binding *b : *hf->inputs()) {
      std::vector<uint8_t> bytes = randomInput(*b, rng, step);
      ASSERT_TRUE(
          cpu->writeInput(*hf, b->name()->str(), bytes.data(), bytes.size()));
      std::memcpy(gpu.binding(*cf, b->name()->str(), false), bytes.data(),
                  bytes.size());
    }
    cpu->run(*hf);
    gpu.run(*cf);
    for (const tcx::Binding *b : *hf->outputs()) {
      int64_t bytes = rt::bindingBytes(*hf, b->name()->str(), true);
      std::vector<uint8_t> want(bytes);
      ASSERT_TRUE(cpu->readOutput(*hf, b->name()->str(), want.data(), bytes));
      const uint8_t *got = gpu.binding(*cf, b->name()->str(), true);
      std::string what = hf->name()->str() + " output " + b->name()->str();
      if (b->buffer()->dtype() == tcx::DType::F32)
        expectClose(reinterpret_cast<const float *>(got),
                    reinterpret_cast<const float *>(want.data()), bytes / 4,
                    2e-5, what);
      else
        EXPECT_EQ(std::memcmp(got, want.data(), bytes), 0) << what;
      if (b->name()->str() == "learning_rate")
        learningRates += *reinterpret_cast<const float *>(want.data());
    }
  };
  runBoth(tcx::FunctionRole::TrainStep, 1);
  runBoth(tcx::FunctionRole::TrainStep, 2);
  runBoth(tcx::FunctionRole::Encode, 0);
  runBoth(tcx::FunctionRole::Decode, 0);

  int compared = 0;
  for (const tcx::Parameter *p : *hx.parameters()) {
    int64_t offset = p->buffer()->offset(), count = 1;
    for (int64_t extent : *p->buffer()->shape())
      count *= extent;
    bool keyBias = p->name()->str().find(".k.bias") != std::string::npos;
    for (tcx::Space space : {tcx::Space::Params, tcx::Space::Grads,
                             tcx::Space::AdamM, tcx::Space::AdamV}) {
      if (keyBias && space != tcx::Space::Params)
        continue; // rounding noise, normalised by Adam
      std::vector<float> want(count);
      cpu->read(space, offset, want.data(), count * 4);
      expectClose(reinterpret_cast<const float *>(gpu.space(space) + offset),
                  want.data(), count, keyBias ? learningRates : 2e-5,
                  p->name()->str() + " in space " + tcx::EnumNameSpace(space));
      ++compared;
    }
  }
  EXPECT_GT(compared, 200);
}

/// A strided view for copyRectangles, built in `fbb`.
const tcx::Buffer *view(flatbuffers::FlatBufferBuilder &fbb, int64_t offset,
                        std::vector<int64_t> shape,
                        std::vector<int64_t> strides) {
  auto buffer = tcx::CreateBufferDirect(fbb, tcx::Space::Arena, offset,
                                        tcx::DType::F32, &shape, &strides);
  return flatbuffers::GetTemporaryPointer(fbb, buffer);
}

// Copies as rectangles move exactly the elements of the views: contiguous,
// transposed, rows with padding, a broadcast (stride 0) source, rank 0.
TEST(CudaProgram, CopyRectanglesMoveEveryElementOfTheViews) {
  struct Case {
    std::vector<int64_t> shape, from, to;
    size_t rectangles; // how many cudaMemcpy2D calls
  };
  std::vector<Case> cases = {
      {{4, 6}, {6, 1}, {6, 1}, 1}, // one block of bytes
      {{4, 6}, {1, 4}, {6, 1}, 4}, // a transpose: elements down rows
      {{3, 4, 5},
       {40, 10, 1},
       {20, 5, 1},
       3},                                   // padded rows: a rectangle per [i]
      {{2, 3, 4}, {0, 4, 1}, {12, 4, 1}, 2}, // broadcast over the first dim
      {{5}, {0}, {1}, 5},                    // one value repeated: one by one
      {{}, {}, {}, 1},
  };
  for (const Case &c : cases) {
    flatbuffers::FlatBufferBuilder fbb;
    // Views into a 4096-float space, the target after the source.
    const tcx::Buffer *from = view(fbb, 0, c.shape, c.from);
    const tcx::Buffer *to = view(fbb, 2048 * 4, c.shape, c.to);
    std::vector<float> memory(4096);
    for (size_t i = 0; i < 2048; ++i)
      memory[i] = float(i + 1);
    std::vector<float> want = memory;
    int64_t count = 1;
    for (int64_t extent : c.shape)
      count *= extent;
    for (int64_t flat = 0; flat < count; ++flat) {
      int64_t rest = flat, s = 0, t = 0;
      for (size_t d = c.shape.size(); d-- > 0;) {
        s += rest % c.shape[d] * c.from[d];
        t += rest % c.shape[d] * c.to[d];
        rest /= c.shape[d];
      }
      want[2048 + t] = memory[s];
    }
    rt::SpaceAddresses spaces;
    spaces.base[int(tcx::Space::Arena)] =
        reinterpret_cast<uint64_t>(memory.data());
    std::vector<rt::CopyRectangle> rectangles =
        rt::copyRectangles(*from, *to, spaces);
    EXPECT_EQ(rectangles.size(), c.rectangles)
        << "shape rank " << c.shape.size();
    for (const rt::CopyRectangle &r : rectangles) {
      EXPECT_GE(r.sourcePitch, r.width);
      EXPECT_GE(r.targetPitch, r.width);
      for (int64_t row = 0; row < r.height; ++row)
        std::memmove(
            reinterpret_cast<uint8_t *>(r.target) + row * r.targetPitch,
            reinterpret_cast<const uint8_t *>(r.source) + row * r.sourcePitch,
            r.width);
    }
    EXPECT_EQ(memory, want) << "shape rank " << c.shape.size();
  }
}

// Launch geometry no GPU accepts is refused when the program is built.
// The sums over ranks of the tiny model's training step, cut into buckets
// of at least 10 KiB: on a GPU each becomes an ncclAllReduce of the bucket's
// device address and element count (integer for the token count), in the
// plan's order, and the one wait follows them all; the buckets cover every
// gradient once.
TEST(CudaProgram, SumsOverRanksKeepThePlanOrderAndCoverTheGradients) {
  std::unique_ptr<test::Compiled> compiled = test::compileExecutable(
      std::string(TC_SOURCE_DIR) + "/models/tiny.toml", {}, 10 << 10);
  ASSERT_TRUE(compiled);
  const tcx::Executable &x = compiled->executable->root();
  const tcx::Function *step = nullptr;
  for (const tcx::Function *f : *x.functions())
    if (f->role() == tcx::FunctionRole::TrainStep)
      step = f;
  ASSERT_TRUE(step);
  rt::SpaceAddresses spaces;
  for (size_t s = 0; s < spaces.base.size(); ++s)
    spaces.base[s] = uint64_t(s + 1) << 40;
  std::string error;
  rt::CudaProgram program = rt::buildCudaProgram(*step, spaces, error);
  ASSERT_EQ(program.steps.size(), step->steps()->size()) << error;
  std::vector<std::pair<int64_t, int64_t>> buckets; ///< grads bytes
  int64_t waits = 0, sumsAfterWait = 0;
  for (size_t i = 0; i < program.steps.size(); ++i) {
    const tcx::StepEntry *entry = step->steps()->Get(i);
    if (entry->step_type() == tcx::Step::Wait) {
      EXPECT_TRUE(std::holds_alternative<rt::WaitLaunch>(program.steps[i]));
      ++waits;
      continue;
    }
    if (entry->step_type() != tcx::Step::AllReduce)
      continue;
    sumsAfterWait += waits;
    const tcx::Buffer &buffer = *entry->step_as_AllReduce()->buffer();
    const auto *sum = std::get_if<rt::AllReduceLaunch>(&program.steps[i]);
    ASSERT_TRUE(sum) << "step " << i;
    EXPECT_EQ(sum->buffer, spaces.of(buffer));
    EXPECT_EQ(sum->integer, buffer.dtype() == tcx::DType::I32);
    if (buffer.space() == tcx::Space::Grads)
      buckets.push_back({buffer.offset(), sum->count * 4});
  }
  // Started as their last gradients are written (the backward goes from
  // the last parameters to the first), they tile the grads space.
  std::sort(buckets.begin(), buckets.end());
  int64_t covered = 0;
  for (auto [offset, bytes] : buckets) {
    EXPECT_EQ(offset, covered) << "a gap or an overlap between buckets";
    covered = offset + bytes;
  }
  EXPECT_EQ(covered, x.param_bytes());
  EXPECT_GT(buckets.size(), 2u);
  EXPECT_EQ(waits, 1);
  EXPECT_EQ(sumsAfterWait, 0) << "a sum started after the wait";
}

TEST(CudaProgram, RefusesLaunchesNoGpuAccepts) {
  // Too many blocks along y and threads; a block that is not whole warps
  // (tc's reductions go by warps); a block with a y extent.
  struct Case {
    std::vector<int64_t> grid, block;
    std::string want;
  };
  for (const Case &c : std::vector<Case>{
           {{1, 70000, 1}, {2048, 1, 1}, "a grid of 1x70000x1 blocks of 2048x1x1"},
           {{4, 1, 1}, {48, 1, 1}, "a grid of 4x1x1 blocks of 48x1x1"},
           {{4, 1, 1}, {32, 2, 1}, "a grid of 4x1x1 blocks of 32x2x1"}}) {
    flatbuffers::FlatBufferBuilder fbb;
    auto launch =
        tcx::CreateLaunchDirect(fbb, 0, nullptr, nullptr, &c.grid, &c.block);
    auto entry = tcx::CreateStepEntry(fbb, tcx::Step::Launch, launch.Union());
    std::vector<flatbuffers::Offset<tcx::StepEntry>> steps = {entry};
    auto function =
        tcx::CreateFunctionDirect(fbb, "f", 0, nullptr, nullptr, &steps);
    std::string error;
    rt::CudaProgram program =
        rt::buildCudaProgram(*flatbuffers::GetTemporaryPointer(fbb, function),
                             rt::SpaceAddresses{}, error);
    EXPECT_TRUE(program.steps.empty()) << c.want;
    EXPECT_NE(error.find("f step 0: no GPU launches " + c.want + " threads"),
              std::string::npos)
        << error;
  }
}

} // namespace
