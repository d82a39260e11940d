//===- CudaDeviceGemmTypesTest.cpp - the CUDA device's GEMM types ----------===//
//
// The real CUDA plug-in (tc-cuda-device.so) on the stand-in CUDA runtime,
// cuBLAS and cuBLASLt (test/standin, linked into this test so that the
// plug-in's libraries resolve to them), running a small executable of
// three GEMMs, one down each of the device's paths: strided batched,
// pointer arrays (a batch whose offsets are not one stride), and cuBLASLt
// with a bias and ReLU epilogue. In each of the device's rows of types
// (runtime/cuda/CublasTypes.h) the outputs equal a host reference of the
// same operands read as the GPU reads them (bf16 exactly, f32 rounded to
// TF32 by the stand-in's hand-checked rounding, StandinGemmTest.cpp) to
// the last bit: a path that passed other types, or offset bf16 operands by
// 4-byte elements, reads other values. A GPU older than sm_80 refuses bf16
// and TF32.
//
//===----------------------------------------------------------------------===//

#include "../standin/Standin.h"

#include "runtime/Device.h"
#include "runtime/Executable.h"
#include "runtime/cuda/CudaDeviceLoader.h"
#include "runtime/format/TcxFile.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

namespace tc {
namespace {

// out[b] (m x n) = lhs[b] (m x k) rhs[b]^T (rhs[b]: n x k), row-major.
constexpr int64_t kM = 3, kN = 4, kK = 5, kBatch = 4;
constexpr int64_t kLhs = kBatch * kM * kK, kRhs = kBatch * kN * kK,
                  kOut = kBatch * kM * kN;

std::vector<int64_t> rowMajor(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// One function "f": inputs lhs and rhs (of `operand`) and an f32 bias;
/// outputs "strided" (batch [4], one stride each), "arrays" (batch [2, 2]
/// whose lhs offsets 0, 30, 15, 45 are not one stride) and "lt" (batch
/// entry 0 + bias, then ReLU).
std::vector<uint8_t> gemmExecutable(tcx::DType operand,
                                    tcx::GemmCompute compute) {
  flatbuffers::FlatBufferBuilder fbb;
  auto buffer = [&](tcx::Space space, int64_t offset, tcx::DType dtype,
                    std::vector<int64_t> shape) {
    std::vector<int64_t> strides = rowMajor(shape);
    return tcx::CreateBufferDirect(fbb, space, offset, dtype, &shape, &strides);
  };
  auto lhs = [&] {
    return buffer(tcx::Space::Inputs, 0, operand, {kBatch, kM, kK});
  };
  auto rhs = [&] {
    return buffer(tcx::Space::Inputs, 256, operand, {kBatch, kN, kK});
  };
  auto bias = [&] {
    return buffer(tcx::Space::Inputs, 640, tcx::DType::F32, {kN});
  };
  auto out = [&](int64_t offset, std::vector<int64_t> shape) {
    return buffer(tcx::Space::Outputs, offset, tcx::DType::F32, shape);
  };
  std::vector<flatbuffers::Offset<tcx::StepEntry>> steps;
  auto gemm = [&](flatbuffers::Offset<tcx::Buffer> o,
                  flatbuffers::Offset<tcx::Buffer> b, bool relu,
                  std::vector<int64_t> batch, std::vector<int64_t> l,
                  std::vector<int64_t> r, std::vector<int64_t> c) {
    auto g = tcx::CreateGemmDirect(fbb, lhs(), rhs(), o, b, kM, kN, kK, false,
                                   true, kK, kK, kN, &batch, &l, &r, &c, 1, 0,
                                   relu, compute);
    steps.push_back(tcx::CreateStepEntry(fbb, tcx::Step::Gemm, g.Union()));
  };
  gemm(out(0, {kBatch, kM, kN}), 0, false, {kBatch}, {kM * kK}, {kN * kK},
       {kM * kN});
  gemm(out(256, {2, 2, kM, kN}), 0, false, {2, 2}, {kM * kK, 2 * kM * kK},
       {kN * kK, 2 * kN * kK}, {2 * kM * kN, kM * kN});
  gemm(out(512, {kM, kN}), bias(), true, {}, {}, {}, {});
  std::vector<flatbuffers::Offset<tcx::Binding>> inputs{
      tcx::CreateBindingDirect(fbb, "lhs", lhs()),
      tcx::CreateBindingDirect(fbb, "rhs", rhs()),
      tcx::CreateBindingDirect(fbb, "bias", bias())};
  std::vector<flatbuffers::Offset<tcx::Binding>> outputs{
      tcx::CreateBindingDirect(fbb, "strided", out(0, {kBatch, kM, kN})),
      tcx::CreateBindingDirect(fbb, "arrays", out(256, {2, 2, kM, kN})),
      tcx::CreateBindingDirect(fbb, "lt", out(512, {kM, kN}))};
  std::vector<flatbuffers::Offset<tcx::Function>> functions{
      tcx::CreateFunctionDirect(fbb, "f", 64, &inputs, &outputs, &steps)};
  std::vector<flatbuffers::Offset<tcx::Kernel>> kernels;
  std::vector<uint8_t> cubin{0};
  std::vector<flatbuffers::Offset<tcx::CodeModule>> code{
      tcx::CreateCodeModuleDirect(fbb, tcx::CodeKind::Cubin, "", 90, "", "",
                                  &cubin)};
  std::vector<flatbuffers::Offset<tcx::Parameter>> params{
      tcx::CreateParameterDirect(
          fbb, "w", buffer(tcx::Space::Params, 0, tcx::DType::F32, {4, 4}),
          tcx::InitKind::Zeros, 0)};
  auto root = tcx::CreateExecutableDirect(fbb, "gemms", "", &params, 64,
                                          nullptr, &functions, &kernels, &code);
  tcx::FinishExecutableBuffer(fbb, root);
  return tcx::wrapPayload(fbb.GetBufferPointer(), fbb.GetSize());
}

using CreateDevice = rt::Device *(*)(const rt::Executable &,
                                     const rt::CudaDeviceOptions &,
                                     std::string &);

/// The plug-in's entry point; the stand-ins, linked into this test, are
/// the CUDA libraries it finds. Its kernels (there are none here) come
/// from an empty SIMT library.
CreateDevice plugin() {
  static CreateDevice create = [] {
    setenv("TC_STANDIN_KERNELS", TC_NO_KERNELS, 1);
    void *library = dlopen(TC_CUDA_PLUGIN, RTLD_NOW | RTLD_LOCAL);
    EXPECT_TRUE(library) << dlerror();
    return library ? reinterpret_cast<CreateDevice>(
                         dlsym(library, "tc_open_cuda_device"))
                   : nullptr;
  }();
  return create;
}

/// Deterministic operands, positive and negative, not round in bf16 or
/// TF32.
std::vector<float> values(int64_t count, double phase) {
  std::vector<float> out(count);
  for (int64_t i = 0; i < count; ++i)
    out[i] = float(1.7 * std::sin(0.91 * double(i) + phase));
  return out;
}

uint16_t toBf16(float value) { // truncated: any bf16 will do
  return uint16_t(std::bit_cast<uint32_t>(value) >> 16);
}

/// What the GPU multiplies for an operand stored from `value`.
double asRead(float value, tcx::DType operand, tcx::GemmCompute compute) {
  if (operand == tcx::DType::BF16)
    return std::bit_cast<float>(uint32_t(toBf16(value)) << 16);
  return compute == tcx::GemmCompute::TF32 ? standin::roundToTf32(value)
                                           : value;
}

struct Outputs {
  std::vector<float> strided, arrays, lt;
};

/// Batch entries' outputs by the GEMM's definition, summed in double and
/// rounded once as the stand-in does (so equal to the last bit).
Outputs reference(const std::vector<float> &lhs, const std::vector<float> &rhs,
                  const std::vector<float> &bias, tcx::DType operand,
                  tcx::GemmCompute compute) {
  auto entry = [&](int64_t l, int64_t r, int64_t i, int64_t j) {
    double sum = 0;
    for (int64_t p = 0; p < kK; ++p)
      sum += asRead(lhs[l + i * kK + p], operand, compute) *
             asRead(rhs[r + j * kK + p], operand, compute);
    return sum;
  };
  Outputs out{std::vector<float>(kOut), std::vector<float>(kOut),
              std::vector<float>(kM * kN)};
  for (int64_t b = 0; b < kBatch; ++b) {
    int64_t b0 = b / 2, b1 = b % 2; // the [2, 2] batch's index
    for (int64_t i = 0; i < kM; ++i)
      for (int64_t j = 0; j < kN; ++j) {
        out.strided[b * kM * kN + i * kN + j] =
            float(entry(b * kM * kK, b * kN * kK, i, j));
        out.arrays[(2 * b0 + b1) * kM * kN + i * kN + j] = float(
            entry((b0 + 2 * b1) * kM * kK, (b0 + 2 * b1) * kN * kK, i, j));
      }
  }
  for (int64_t i = 0; i < kM; ++i)
    for (int64_t j = 0; j < kN; ++j)
      out.lt[i * kN + j] = std::max(float(entry(0, 0, i, j) + bias[j]), 0.0f);
  return out;
}

class CudaDeviceGemmTypes
    : public ::testing::TestWithParam<std::pair<tcx::DType, tcx::GemmCompute>> {
};

TEST_P(CudaDeviceGemmTypes, EveryPathEqualsTheReference) {
  auto [operand, compute] = GetParam();
  std::string error;
  auto executable = rt::Executable::fromBytes(gemmExecutable(operand, compute),
                                              "gemms.tcx", error);
  ASSERT_TRUE(executable) << error;
  ASSERT_TRUE(plugin());
  std::unique_ptr<rt::Device> device(plugin()(*executable, {}, error));
  ASSERT_TRUE(device) << error;
  const tcx::Function &f = *executable->root().functions()->Get(0);

  std::vector<float> lhs = values(kLhs, 0.3), rhs = values(kRhs, 1.1),
                     bias = values(kN, 2.0);
  auto write = [&](const char *name, const std::vector<float> &data) {
    if (operand == tcx::DType::BF16) {
      std::vector<uint16_t> stored;
      for (float value : data)
        stored.push_back(toBf16(value));
      return device->writeInputAt(f, name, 0, stored.data(),
                                  int64_t(stored.size()) * 2);
    }
    return device->writeInputAt(f, name, 0, data.data(),
                                int64_t(data.size()) * 4);
  };
  ASSERT_TRUE(write("lhs", lhs));
  ASSERT_TRUE(write("rhs", rhs));
  ASSERT_TRUE(device->writeInputAt(f, "bias", 0, bias.data(), kN * 4));
  device->run(f);
  Outputs got{std::vector<float>(kOut), std::vector<float>(kOut),
              std::vector<float>(kM * kN)};
  ASSERT_TRUE(device->readOutput(f, "strided", got.strided.data(), kOut * 4));
  ASSERT_TRUE(device->readOutput(f, "arrays", got.arrays.data(), kOut * 4));
  ASSERT_TRUE(device->readOutput(f, "lt", got.lt.data(), kM * kN * 4));

  Outputs want = reference(lhs, rhs, bias, operand, compute);
  EXPECT_EQ(got.strided, want.strided);
  EXPECT_EQ(got.arrays, want.arrays);
  EXPECT_EQ(got.lt, want.lt);
  // The rounding shows: f32 operands multiplied unrounded differ.
  if (operand != tcx::DType::F32 || compute != tcx::GemmCompute::F32)
    EXPECT_NE(got.strided,
              reference(lhs, rhs, bias, tcx::DType::F32, tcx::GemmCompute::F32)
                  .strided);
}

TEST_P(CudaDeviceGemmTypes, ATuringGpuRefusesTensorCoreTypes) {
  auto [operand, compute] = GetParam();
  std::string error;
  auto executable = rt::Executable::fromBytes(gemmExecutable(operand, compute),
                                              "gemms.tcx", error);
  ASSERT_TRUE(executable) << error;
  ASSERT_TRUE(plugin());
  setenv("TC_STANDIN_CAPABILITY", "75", 1);
  std::unique_ptr<rt::Device> device(plugin()(*executable, {}, error));
  unsetenv("TC_STANDIN_CAPABILITY");
  EXPECT_FALSE(device);
  if (operand == tcx::DType::F32 && compute == tcx::GemmCompute::F32) {
    // Refused for its sm_90 code only.
    EXPECT_NE(error.find("does not run on this GPU (sm_75)"), std::string::npos)
        << error;
    return;
  }
  std::string what = operand == tcx::DType::BF16
                         ? "bf16 x bf16 -> f32 with f32 compute needs bf16"
                         : "f32 x f32 -> f32 with tf32 compute needs TF32";
  EXPECT_EQ(error, "f step 0: a GEMM of " + what +
                       " tensor cores (sm_80 or newer), and this GPU is "
                       "sm_75 (tc stand-in); recompile the model with "
                       "--precision=f32, or run it on a newer GPU");
}

INSTANTIATE_TEST_SUITE_P(
    Rows, CudaDeviceGemmTypes,
    ::testing::Values(std::pair{tcx::DType::F32, tcx::GemmCompute::F32},
                      std::pair{tcx::DType::BF16, tcx::GemmCompute::F32},
                      std::pair{tcx::DType::F32, tcx::GemmCompute::TF32}));

} // namespace
} // namespace tc
