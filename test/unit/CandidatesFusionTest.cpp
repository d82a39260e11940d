//===- CandidatesFusionTest.cpp - where a GEMM may take its candidates ----===//
//
// runtime/cpu/CandidatesFusion.h on hand-built plans: a weight GEMM
// writing logits and the tc.log_softmax_top_k launch after it fuse only
// when nothing else reads the logits before they are overwritten, no
// output holds them, and the kernel records its attributes.
//
//===----------------------------------------------------------------------===//

#include "runtime/cpu/CandidatesFusion.h"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

namespace {

namespace fb = flatbuffers;
using namespace tc;

/// Builds an executable of one function: step 0 a GEMM (A Arena+16384
/// [4, 8], B a parameter [16, 8], C Arena+0 [4, 1, 16]), step 1 the
/// candidates launch reading C as [4, 16], then the steps `more` adds.
struct Plan {
  fb::FlatBufferBuilder fbb;
  std::vector<uint8_t> bytes;

  fb::Offset<tcx::Buffer> buffer(tcx::Space space, int64_t offset,
                                 std::vector<int64_t> shape,
                                 tcx::DType dtype = tcx::DType::F32) {
    std::vector<int64_t> strides(shape.size(), 1);
    for (size_t d = shape.size(); d-- > 1;)
      strides[d - 1] = strides[d] * shape[d];
    return tcx::CreateBufferDirect(fbb, space, offset, dtype, &shape, &strides);
  }
  fb::Offset<tcx::StepEntry>
  launch(uint32_t kernel, std::vector<fb::Offset<tcx::Buffer>> inputs,
         std::vector<fb::Offset<tcx::Buffer>> outputs) {
    auto l = tcx::CreateLaunchDirect(fbb, kernel, &inputs, &outputs);
    return tcx::CreateStepEntry(fbb, tcx::Step::Launch, l.Union());
  }

  Plan(bool attributes,
       std::function<void(Plan &, std::vector<fb::Offset<tcx::StepEntry>> &)>
           more,
       bool logitsAreAnOutput = false, std::vector<int64_t> kAndColumn = {2, 3},
       int64_t valuesAt = 0) {
    std::vector<int64_t> none;
    std::vector<fb::Offset<tcx::StepEntry>> steps;
    auto gemm = tcx::CreateGemmDirect(
        fbb, buffer(tcx::Space::Arena, 16384, {4, 8}),
        buffer(tcx::Space::Params, 0, {16, 8}),
        buffer(tcx::Space::Arena, 0, {4, 1, 16}), fb::Offset<tcx::Buffer>(), 4,
        16, 8, false, true, 8, 8, 16, &none, &none, &none, &none);
    steps.push_back(tcx::CreateStepEntry(fbb, tcx::Step::Gemm, gemm.Union()));
    steps.push_back(
        launch(0,
               {buffer(tcx::Space::Arena, 0, {4, 16}),
                buffer(tcx::Space::Constants, 0, {16})},
               {valuesAt ? buffer(tcx::Space::Arena, valuesAt, {4, 2})
                         : buffer(tcx::Space::Outputs, 0, {4, 2}),
                buffer(tcx::Space::Outputs, 32, {4, 2}, tcx::DType::I32),
                buffer(tcx::Space::Outputs, 64, {4, 1})}));
    more(*this, steps);
    std::vector<fb::Offset<tcx::Binding>> outputs;
    if (logitsAreAnOutput)
      outputs.push_back(tcx::CreateBindingDirect(
          fbb, "logits", buffer(tcx::Space::Arena, 0, {4, 16})));
    auto function = tcx::CreateFunctionDirect(fbb, "decode_step", 32768,
                                              nullptr, &outputs, &steps);
    std::vector<fb::Offset<tcx::Kernel>> kernels = {
        tcx::CreateKernelDirect(fbb, "k0", "", 2, 3, nullptr,
                                "tc.log_softmax_top_k",
                                attributes ? &kAndColumn : nullptr),
        tcx::CreateKernelDirect(fbb, "k1", "", 1, 1, nullptr, "tc.fused")};
    std::vector<fb::Offset<tcx::Function>> functions = {function};
    auto root = tcx::CreateExecutableDirect(fbb, nullptr, nullptr, nullptr, 0,
                                            nullptr, &functions, &kernels);
    fbb.Finish(root);
    bytes.assign(fbb.GetBufferPointer(),
                 fbb.GetBufferPointer() + fbb.GetSize());
  }

  std::vector<std::optional<rt::CandidatesAfterGemm>> fusions() const {
    const tcx::Executable *x = tcx::GetExecutable(bytes.data());
    return rt::findCandidatesAfterGemms(*x, *x->functions()->Get(0));
  }
};

void nothingMore(Plan &, std::vector<fb::Offset<tcx::StepEntry>> &) {}

TEST(CandidatesFusion, AGemmAndTheLaunchThatAloneReadsItsLogits) {
  auto found = Plan(true, nothingMore).fusions();
  ASSERT_EQ(found.size(), 2u);
  ASSERT_TRUE(found[0].has_value());
  EXPECT_EQ(found[0]->k, 2);
  EXPECT_EQ(found[0]->column, 3);
  EXPECT_FALSE(found[1].has_value());
}

TEST(CandidatesFusion, NotWithoutTheKernelsAttributes) {
  EXPECT_FALSE(Plan(false, nothingMore).fusions()[0].has_value());
}

// k and column must be what the launch's outputs and the logits hold (an
// edited file may say otherwise).
TEST(CandidatesFusion, NotWithAttributesTheBuffersDoNotHold) {
  for (std::vector<int64_t> kAndColumn :
       {std::vector<int64_t>{0, 3}, {3, 3}, {2, 16}, {2, -1}})
    EXPECT_FALSE(
        Plan(true, nothingMore, false, kAndColumn).fusions()[0].has_value())
        << kAndColumn[0] << ", " << kAndColumn[1];
}

// The row blocks run at once: results placed over A (which the unfused
// order had finished reading) would race with another block's reads.
TEST(CandidatesFusion, NotWhenItsResultsLieOverTheGemmsInput) {
  EXPECT_FALSE(
      Plan(true, nothingMore, false, {2, 3}, 16384).fusions()[0].has_value());
}

TEST(CandidatesFusion, NotWhenALaterStepReadsTheLogits) {
  auto readsThem = [](Plan &p, std::vector<fb::Offset<tcx::StepEntry>> &s) {
    s.push_back(p.launch(1, {p.buffer(tcx::Space::Arena, 128, {4})},
                         {p.buffer(tcx::Space::Outputs, 96, {4})}));
  };
  EXPECT_FALSE(Plan(true, readsThem).fusions()[0].has_value());
}

TEST(CandidatesFusion, NotWhenAnOutputHoldsTheLogits) {
  EXPECT_FALSE(Plan(true, nothingMore, true).fusions()[0].has_value());
}

// The arena places a later tensor over the logits: read after it is
// written, it is not theirs. A strided write covers only part of its span,
// so a read after one still counts.
TEST(CandidatesFusion, ReadsOfWhatWasWrittenOverThemDoNotCount) {
  auto overwritten = [](Plan &p, std::vector<fb::Offset<tcx::StepEntry>> &s) {
    s.push_back(p.launch(1, {p.buffer(tcx::Space::Arena, 16384, {4})},
                         {p.buffer(tcx::Space::Arena, 0, {64})}));
    s.push_back(p.launch(1, {p.buffer(tcx::Space::Arena, 0, {64})},
                         {p.buffer(tcx::Space::Outputs, 96, {64})}));
  };
  EXPECT_TRUE(Plan(true, overwritten).fusions()[0].has_value());
  auto stridedWrite = [](Plan &p, std::vector<fb::Offset<tcx::StepEntry>> &s) {
    std::vector<int64_t> shape = {33}, strides = {2}; // spans all 256 bytes
    auto everyOther = tcx::CreateBufferDirect(
        p.fbb, tcx::Space::Arena, 0, tcx::DType::F32, &shape, &strides);
    s.push_back(
        p.launch(1, {p.buffer(tcx::Space::Arena, 16384, {4})}, {everyOther}));
    s.push_back(p.launch(1, {p.buffer(tcx::Space::Arena, 0, {64})},
                         {p.buffer(tcx::Space::Outputs, 96, {64})}));
  };
  EXPECT_FALSE(Plan(true, stridedWrite).fusions()[0].has_value());
}

} // namespace
