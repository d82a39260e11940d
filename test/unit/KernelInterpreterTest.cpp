//===- KernelInterpreterTest.cpp - generated kernels == the interpreter ----===//
//
// The functions of an input file, through tc-fuse-elementwise and
// tc-fuse-convert and into an executable, run on the CPU device (the host
// kernels) and, with the CUDA toolkit, on the emulated GPU (the CUDA kernels
// through the SIMT harness, EmulatedGpu.h). Every result equals the
// interpreter's bit for bit, a NaN as any NaN.
//
// test/Codegen/Inputs/bf16-kernels.mlir (issue 31): f32 <-> bf16 converts
// alone, views of a bf16 value, a convert fused with other elementwise work
// and a bf16 sum, lookups in a bf16 table, the sinusoids in bf16, row
// kernels storing their result in bf16. No tolerance: before each rounding
// to bf16 a kernel holds the interpreter's value (the f32 arithmetic here is
// exact or rounds once as the interpreter's does; the embedding's f64 is the
// interpreter's expression), and the rounding is the interpreter's.
//
// test/Codegen/Inputs/copy-kernels.mlir: a transpose and a slice copied by
// kernels of their own, read by kernels that copy exactly.
//
// test/Codegen/Inputs/reduction-kernels.mlir: reductions in each CUDA loop
// skeleton (a block per result, a thread per result, tiles of columns whose
// rows are split into parts that each tile's last block adds). Sums accumulate in
// f64 in another order than the interpreter's, and the f32 results are
// still its bits: the f64 sums of these few hundred to 19,200 values differ
// from the interpreter's by far less than half an f32 ulp.
//
// The first f32 input holds the cases of the rounding: ties to even (up and
// down), just off a tie, carries into the exponent, overflow to infinity,
// subnormals, signed zeros, infinities and NaNs whose payload lies only in
// the bits that are cut (NaN must not become infinity or flip sign); then
// random bit patterns. (A maximum over it must propagate the NaNs.)
//
//===----------------------------------------------------------------------===//

#include "KernelDevices.h"
#include "ModelPipeline.h"

#include "compiler/interpreter/Interpreter.h"
#include "compiler/transforms/Passes.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>

namespace {

using namespace mlir;

/// The rounding cases of f32 -> bf16, as f32 bits.
constexpr uint32_t kRoundingCases[] = {
    // Ties (1 + 2^-8 down to the even 1, 1 + 3 * 2^-8 up to the even
    // 1 + 2^-6), just above and below a tie, the same negative.
    0x3f808000,
    0x3f818000,
    0x3f808001,
    0x3f807fff,
    0xbf808000,
    0xbf818000,
    0xbf808001,
    // Carries into the exponent.
    0x3fffffff,
    0x3fff8000,
    // Overflow to inf, a tie to inf, the largest that stays finite, -inf.
    0x7f7fffff,
    0x7f7f8000,
    0x7f7f7fff,
    0xff7fffff,
    // Subnormals: to zero, a tie to zero, a tie up, above a tie, up to the
    // smallest normal.
    0x00000001,
    0x00008000,
    0x00018000,
    0x00008001,
    0x807fffff,
    // Signed zeros and infinities.
    0x00000000,
    0x80000000,
    0x7f800000,
    0xff800000,
    // NaNs: quiet; with payload only in the cut bits (not infinity); that
    // rounding up would carry out of (not zero, not a sign flip); signalling.
    0x7fc00000,
    0xffc00000,
    0x7f800001,
    0xff800001,
    0x7fffffff,
    0xffffffff,
    0x7fbfffff,
};

float floatOf(uint32_t bits) { return std::bit_cast<float>(bits); }

/// An input: as the interpreter takes it, and its bytes on the device.
struct Input {
  tc::Tensor value;
  std::vector<uint8_t> bytes;
};

/// The function's inputs: the first f32 tensor holds the rounding cases,
/// then random bit patterns and random values in [-4, 4) by turns, other
/// f32 tensors random values in [-4, 4); bf16 tensors random bf16 bit
/// patterns (the interpreter takes them as their f32 values, exact); i32
/// tensors (ids) values in [0, 4); the
/// RNG state (seed, step) is (1234, 5). The device gets the bits, NaN
/// payloads included (a float through a double loses a signalling NaN's).
std::vector<Input> inputsOf(func::FuncOp function, std::mt19937 &rng) {
  std::uniform_real_distribution<float> values(-4.0f, 4.0f);
  auto f32Bits = [&](size_t a, int64_t i) -> uint32_t {
    int64_t cases = std::size(kRoundingCases);
    if (a == 0 && i < cases)
      return kRoundingCases[i];
    if (a == 0 && i % 2 == 0)
      return rng();
    return std::bit_cast<uint32_t>(values(rng));
  };
  std::vector<Input> inputs;
  for (auto [a, type] : llvm::enumerate(function.getArgumentTypes())) {
    auto tensor = cast<RankedTensorType>(type);
    Type element = tensor.getElementType();
    bool i64 = element.isInteger(64), i32 = element.isInteger(32);
    Input in{tc::Tensor(
                 i64   ? tc::DType::I64
                 : i32 ? tc::DType::I32
                       : tc::DType::F32,
                 tc::Shape(tensor.getShape().begin(), tensor.getShape().end())),
             {}};
    int width = i64 ? 8 : element.isBF16() ? 2 : 4;
    for (int64_t i = 0; i < in.value.size(); ++i) {
      uint64_t bits = i64                ? (i == 0 ? 1234 : 5)
                      : i32              ? rng() % 4
                      : element.isBF16() ? rng() & 0xffff
                                         : f32Bits(a, i);
      for (int b = 0; b < width; ++b)
        in.bytes.push_back(uint8_t(bits >> (8 * b)));
      if (i64 || i32)
        in.value.setInt(i, int64_t(bits));
      else
        in.value.set(i, floatOf(element.isBF16() ? uint32_t(bits) << 16
                                                 : uint32_t(bits)));
    }
    inputs.push_back(std::move(in));
  }
  return inputs;
}

/// The f32 bits of element `i` of a device's result of `element` type.
uint32_t deviceBits(const std::vector<uint8_t> &bytes, Type element,
                    int64_t i) {
  if (element.isBF16())
    return uint32_t(bytes[2 * i] | bytes[2 * i + 1] << 8) << 16;
  uint32_t bits;
  std::memcpy(&bits, bytes.data() + 4 * i, 4);
  return bits;
}

/// Each result of `function` from `device` equals `want` bit for bit (a
/// NaN as a NaN; i32 results as integers).
void expectResultsEqual(tc::rt::Device &device,
                        const tc::tcx::Function &compiled,
                        func::FuncOp function,
                        const std::vector<tc::Tensor> &want) {
  for (auto [r, type] : llvm::enumerate(function.getResultTypes())) {
    auto tensor = cast<RankedTensorType>(type);
    Type element = tensor.getElementType();
    std::vector<uint8_t> got(tensor.getNumElements() *
                             (element.isBF16() ? 2 : 4));
    std::string name = "result" + std::to_string(r);
    ASSERT_TRUE(device.readOutput(compiled, name, got.data(), got.size()));
    if (element.isInteger(32)) {
      std::vector<int32_t> ints(tensor.getNumElements());
      std::memcpy(ints.data(), got.data(), got.size());
      EXPECT_EQ(std::vector<int64_t>(ints.begin(), ints.end()), want[r].ints)
          << "@" << function.getSymName().str() << " " << name;
      continue;
    }
    int mismatches = 0;
    for (int64_t i = 0; i < tensor.getNumElements() && mismatches < 8; ++i) {
      float expected = float(want[r].floats[i]);
      uint32_t bits = deviceBits(got, element, i);
      bool same = std::isnan(expected)
                      ? std::isnan(floatOf(bits))
                      : bits == std::bit_cast<uint32_t>(expected);
      if (!same)
        ++mismatches;
      EXPECT_TRUE(same) << "@" << function.getSymName().str() << " " << name
                        << "[" << i << "]: 0x" << std::hex << bits
                        << ", the interpreter's 0x"
                        << std::bit_cast<uint32_t>(expected);
    }
  }
}

/// Runs `function` on `device` with inputs from `rng` and compares its
/// results with the interpreter's.
void expectRunMatches(func::FuncOp function, const tc::tcx::Function &compiled,
                      tc::rt::Device &device, std::mt19937 &rng) {
  std::vector<Input> inputs = inputsOf(function, rng);
  std::vector<tc::Tensor> values;
  for (const Input &in : inputs)
    values.push_back(in.value);
  FailureOr<std::vector<tc::Tensor>> want = tc::interpret(function, values);
  ASSERT_TRUE(succeeded(want)) << function.getSymName().str();
  for (auto [a, in] : llvm::enumerate(inputs))
    ASSERT_TRUE(device.writeInput(compiled, "arg" + std::to_string(a),
                                  in.bytes.data(), in.bytes.size()));
  device.run(compiled);
  expectResultsEqual(device, compiled, function, *want);
}

/// Runs every function of `module` (`count` of them) on `device` and
/// compares it with the interpreter, twice on other inputs: an element a
/// kernel leaves unwritten (a fresh buffer's zero the first time) holds the
/// first run's value in the second.
void expectEveryFunctionMatches(ModuleOp module,
                                const tc::rt::Executable &executable,
                                tc::rt::Device &device, int count) {
  std::mt19937 rng(31);
  int functions = 0;
  for (func::FuncOp function : module.getOps<func::FuncOp>()) {
    const tc::tcx::Function *compiled =
        executable.function(function.getSymName().str());
    ASSERT_TRUE(compiled) << function.getSymName().str();
    for (int run = 0; run < 2; ++run)
      expectRunMatches(function, *compiled, device, rng);
    ++functions;
  }
  EXPECT_EQ(functions, count);
}

/// An input file and how many functions it holds.
struct KernelFile {
  const char *name;
  int functions;
  friend void PrintTo(const KernelFile &file, std::ostream *os) {
    *os << file.name;
  }
};

/// The file's name up to its first '.' or '-' ("bf16-kernels.mlir" ->
/// "bf16"): its tests' name and their SIMT kernels' folder.
std::string stemOf(const KernelFile &file) {
  std::string name = file.name;
  return name.substr(0, name.find_first_of(".-"));
}

class Kernels : public testing::TestWithParam<KernelFile> {};

TEST_P(Kernels, HostKernelsOnTheCpuDeviceEqualTheInterpreterBitForBit) {
  MLIRContext context;
  OwningOpRef<ModuleOp> module = tc::test::fusedFunctions(context, GetParam().name);
  ASSERT_TRUE(module);
  tc::test::onTheCpuDevice(
      *module, stemOf(GetParam()),
      [&](const tc::rt::Executable &x, tc::rt::Device &d) {
        expectEveryFunctionMatches(*module, x, d, GetParam().functions);
      });
}

#ifdef TC_TEST_CUDA
TEST_P(Kernels, CudaKernelsOnTheSimtHarnessEqualTheInterpreterBitForBit) {
  MLIRContext context;
  OwningOpRef<ModuleOp> module = tc::test::fusedFunctions(context, GetParam().name);
  ASSERT_TRUE(module);
  tc::test::onTheSimtHarness(
      *module, stemOf(GetParam()),
      [&](const tc::rt::Executable &x, tc::rt::Device &d) {
        expectEveryFunctionMatches(*module, x, d, GetParam().functions);
      });
}
#endif

INSTANTIATE_TEST_SUITE_P(
    Files, Kernels,
    testing::Values(KernelFile{"bf16-kernels.mlir", 9},
                    KernelFile{"reduction-kernels.mlir", 9},
                    KernelFile{"copy-kernels.mlir", 2}),
    [](const testing::TestParamInfo<KernelFile> &info) {
      return stemOf(info.param);
    });

} // namespace
