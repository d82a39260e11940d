//===- KernelBytesTest.cpp - each CUDA kernel moves the bytes the model says -===//
//
// Issue 33, acceptance 2: a proxy for a profile that needs no GPU. The GPU
// step model (compiler/analysis/GpuStepModel.h) times a generated kernel by
// its bytes: each operand and result once, at its own size (KernelCount.h's
// trafficBytes), which are the buffers the plan gives its launch. Here a
// model's CUDA training step runs on the emulated GPU with kernels compiled
// to count what they load and store in the spaces (test/simt/Simt.h), and
// every launch's count is held to kMostOverModel times its launch's bytes.
// Each block's bytes count once however often it touches them, so a
// kernel whose every block reads the same buffer (tc.embedding_grad's 4096
// blocks each reading every id: 2.9x on small) fails here rather than only
// in an ncu profile. Reading less than the model is allowed: tc.embed reads
// only the table rows of its ids, the model counts the whole table.
//
// Bytes are not time: a kernel within the bound can still be slow for
// other reasons, which only a GPU shows. The embedding gradient's first
// CUDA kernel (a thread per column, each adding every token's element in
// turn) moved 1.1x its bytes here and took 78x their time on an H100:
// serial adds, not traffic.
//
//===----------------------------------------------------------------------===//

#include "EmulatedGpu.h"
#include "TinyExecutable.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <random>

namespace {

using namespace tc;

/// How far above its launch's bytes a kernel's loads and stores may go.
constexpr double kMostOverModel = 2.0;

int64_t bytesOf(const tcx::Buffer &buffer) {
  int64_t count = 1;
  for (int64_t extent : *buffer.shape())
    count *= extent;
  return count * tcx::sizeOf(buffer.dtype());
}

struct KernelBytes {
  std::string kernel, op;
  int64_t model = 0;    ///< the launch's buffers, each once
  uint64_t counted = 0; ///< loads and stores in the spaces
  double ratio() const { return double(counted) / double(model); }
};

/// Every kernel launch of the training step of `model` (a description's
/// path) run once on the emulated GPU, with token ids below `vocabulary`.
std::vector<KernelBytes>
trainStepBytes(const std::string &model, int32_t vocabulary,
               support::Precision precision, const std::string &name) {
  std::unique_ptr<test::Compiled> compiled = test::compileExecutable(
      model, {"sm_80"}, int64_t(25) << 20, precision);
  EXPECT_TRUE(compiled);
  if (!compiled)
    return {};
  const tcx::Executable &x = compiled->executable->root();
  test::EmulatedGpu gpu(
      *compiled->executable,
      test::compileSimt(x, testing::TempDir() + "/tc-kernel-bytes-" + name,
                        /*countBytes=*/true));
  const tcx::Function *step = nullptr;
  for (const tcx::Function *f : *x.functions())
    if (f->role() == tcx::FunctionRole::TrainStep && !step)
      step = f;
  EXPECT_TRUE(step);
  if (!step)
    return {};

  std::mt19937_64 rng(7);
  std::vector<float> params(x.param_bytes() / 4);
  for (float &p : params)
    p = std::uniform_real_distribution<float>(-0.1f, 0.1f)(rng);
  std::memcpy(gpu.space(tcx::Space::Params), params.data(), x.param_bytes());
  for (const tcx::Binding *b : *step->inputs()) {
    std::vector<uint8_t> bytes = test::randomInput(*b, rng, 1, vocabulary);
    std::memcpy(gpu.binding(*step, b->name()->str(), false), bytes.data(),
                bytes.size());
  }
  // What a kernel loads and stores depends on the token ids and the
  // shapes, never on the values GEMMs compute: they are skipped (their
  // naive loops took most of small's time).
  gpu.runGemms = false;
  gpu.run(*step);

  std::vector<KernelBytes> out;
  size_t launch = 0;
  for (const tcx::StepEntry *entry : *step->steps()) {
    const tcx::Launch *l = entry->step_as_Launch();
    if (!l)
      continue;
    EXPECT_LT(launch, gpu.launchBytes.size());
    if (launch >= gpu.launchBytes.size())
      break;
    const test::EmulatedGpu::LaunchBytes &counted = gpu.launchBytes[launch++];
    EXPECT_EQ(counted.kernel, l->kernel());
    KernelBytes k;
    k.kernel = x.kernels()->Get(l->kernel())->name()->str();
    k.op = x.kernels()->Get(l->kernel())->op()->str();
    for (const tcx::Buffer *b : *l->inputs())
      k.model += bytesOf(*b);
    for (const tcx::Buffer *b : *l->outputs())
      k.model += bytesOf(*b);
    k.counted = counted.read + counted.written;
    out.push_back(k);
  }
  EXPECT_EQ(launch, gpu.launchBytes.size());
  return out;
}

/// Every launch within kMostOverModel of its bytes; the three furthest
/// above printed, for docs/cuda.md.
void expectNearTheModel(const std::vector<KernelBytes> &launches) {
  ASSERT_FALSE(launches.empty());
  uint64_t counted = 0;
  int64_t model = 0;
  for (const KernelBytes &k : launches) {
    EXPECT_GT(k.counted, 0u) << k.kernel << " (" << k.op << ") uncounted";
    EXPECT_LE(k.ratio(), kMostOverModel)
        << k.kernel << " (" << k.op << ") moved " << k.counted
        << " bytes, its launch's buffers are " << k.model;
    counted += k.counted;
    model += k.model;
  }
  // The count itself: were the hooks not called, it would be near zero.
  EXPECT_GE(double(counted), 0.5 * double(model)) << "the harness counts";
  std::vector<KernelBytes> worst = launches;
  std::sort(worst.begin(), worst.end(),
            [](const KernelBytes &a, const KernelBytes &b) {
              return a.ratio() > b.ratio();
            });
  std::cout << launches.size() << " launches, " << counted
            << " bytes counted, " << model << " in the model ("
            << double(counted) / double(model) << "x); furthest above:\n";
  for (size_t i = 0; i < std::min<size_t>(3, worst.size()); ++i)
    std::cout << "  " << worst[i].kernel << " " << worst[i].op << " "
              << worst[i].ratio() << "x (" << worst[i].counted << " of "
              << worst[i].model << ")\n";
}

const std::string kTiny = std::string(TC_SOURCE_DIR) + "/models/tiny.toml";
const std::string kSmall =
    std::string(TC_SOURCE_DIR) + "/bench/models/small.toml";

TEST(KernelBytes, TinyTrainingStepKernelsMoveAboutTheirBuffers) {
  expectNearTheModel(
      trainStepBytes(kTiny, 24, support::Precision::F32, "tiny"));
}

TEST(KernelBytes, TinyBf16TrainingStepKernelsMoveAboutTheirBuffers) {
  expectNearTheModel(
      trainStepBytes(kTiny, 24, support::Precision::BF16, "tiny-bf16"));
}

// About 40 s on a Zen 3 core, most of it the counting hooks (test/simt/Simt.h).
TEST(KernelBytes, SmallTrainingStepKernelsMoveAboutTheirBuffers) {
  expectNearTheModel(
      trainStepBytes(kSmall, 8000, support::Precision::F32, "small"));
}

} // namespace
