//===- EmulatedGpu.h - the CUDA device's programs run on host memory -------===//
//
// The CUDA device (runtime/cuda/CudaDevice.cpp) only walks a CudaProgram
// (runtime/cuda/CudaProgram.h): launch pointer tables, launch geometry,
// cuBLAS calls with their operand addresses and pointer arrays, copies as
// 2-D rectangles. The emulated GPU walks the same program with host memory
// as "device memory": kernels are the executable's CUDA source compiled as
// host C++ with the SIMT harness (test/simt/Simt.h) and launched with the
// plan's grid and block and the pointer array from the table, GEMMs are
// evaluated as cuBLAS (cuBLASLt with the epilogue) defines the call, reading
// operands through the table's pointer arrays or the call's strides, copies
// as cudaMemcpy2D defines its rectangles. It is an rt::Device, so a test
// drives it as the runtime drives the CUDA device.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TEST_UNIT_EMULATEDGPU_H
#define TC_TEST_UNIT_EMULATEDGPU_H

#include "TinyExecutable.h"

#include "runtime/Device.h"
#include "runtime/cpu/CpuDevice.h"
#include "runtime/cuda/CudaProgram.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace tc::test {

using SimtLaunch = void (*)(void (*)(void **), unsigned, unsigned, void **);

/// The executable's CUDA kernels compiled as host C++ with the SIMT harness.
struct SimtKernels {
  void *library = nullptr;
  SimtLaunch launch = nullptr;
  std::vector<void (*)(void **)> kernels; ///< by kernel index
  /// Compiled to count bytes (test/simt/Simt.h): the ranges counted, and
  /// the bytes read and written since the last take. Null otherwise.
  void (*watch)(const void *, size_t) = nullptr;
  void (*unwatchAll)() = nullptr;
  void (*takeBytes)(uint64_t *read, uint64_t *written) = nullptr;
  uint64_t (*takeLongestThread)() = nullptr;
  void (*takeSectors)(uint64_t *requested, uint64_t *sectors) = nullptr;
};

/// Compiles `x`'s kernels into `dir`/kernels.so and loads it, with the
/// harness's byte counts when `countBytes`. `dir` must differ between
/// executables of one process: dlopen hands a path it has loaded back
/// unchanged.
inline SimtKernels compileSimt(const tcx::Executable &x, const std::string &dir,
                               bool countBytes = false) {
  SimtKernels out;
  std::filesystem::create_directories(dir);
  std::filesystem::remove(dir + "/kernels.so"); // never a stale one
  const tcx::CodeModule *module = x.code()->Get(0);
  std::string source = "#include \"" TC_SOURCE_DIR "/test/simt/Simt.h\"\n" +
                       module->prelude()->str();
  for (const tcx::Kernel *kernel : *x.kernels())
    source += "\n" + kernel->source()->str();
  std::ofstream(dir + "/kernels.cpp") << source;
  // Counting compiles ThreadSanitizer's access hooks in but links none of
  // its runtime: the harness defines the hooks.
  std::string command =
      countBytes ? "c++ -std=c++20 -O2 -fPIC -pthread -fsanitize=thread "
                   "-DSIMT_COUNT_BYTES -c -o " +
                       dir + "/kernels.o " + dir + "/kernels.cpp 2> " + dir +
                       "/compile.log && c++ -shared -o " + dir +
                       "/kernels.so " + dir + "/kernels.o -lboost_context 2>> " + dir +
                       "/compile.log"
                 : "c++ -std=c++20 -O2 -fPIC -shared -pthread -o " + dir +
                       "/kernels.so " + dir + "/kernels.cpp -lboost_context 2> " + dir +
                       "/compile.log";
  EXPECT_EQ(std::system(command.c_str()), 0) << "see " << dir << "/compile.log";
  // Counting sees only what the hooks see: no access may be left to a
  // library (memcpy and the like) or to a hook the harness lacks.
  if (countBytes)
    EXPECT_NE(std::system(("nm -u " + dir + "/kernels.so | grep -E "
                           "'__tsan_|\\b(memcpy|memset|memmove)\\b'")
                              .c_str()),
              0)
        << "kernels.so calls the above: Simt.h would not count those bytes";
  out.library = dlopen((dir + "/kernels.so").c_str(), RTLD_NOW);
  EXPECT_TRUE(out.library) << dlerror();
  if (!out.library)
    return out;
  out.launch = reinterpret_cast<SimtLaunch>(dlsym(out.library, "simt_launch"));
  if (countBytes) {
    out.watch = reinterpret_cast<void (*)(const void *, size_t)>(
        dlsym(out.library, "simt_watch"));
    out.takeBytes = reinterpret_cast<void (*)(uint64_t *, uint64_t *)>(
        dlsym(out.library, "simt_take_bytes"));
    out.unwatchAll = reinterpret_cast<void (*)()>(
        dlsym(out.library, "simt_unwatch_all"));
    out.takeLongestThread = reinterpret_cast<uint64_t (*)()>(
        dlsym(out.library, "simt_take_longest_thread"));
    out.takeSectors = reinterpret_cast<void (*)(uint64_t *, uint64_t *)>(
        dlsym(out.library, "simt_take_sectors"));
    EXPECT_TRUE(out.watch && out.takeBytes && out.unwatchAll &&
                out.takeLongestThread && out.takeSectors);
  }
  for (const tcx::Kernel *kernel : *x.kernels())
    out.kernels.push_back(reinterpret_cast<void (*)(void **)>(
        dlsym(out.library, kernel->name()->c_str())));
  return out;
}

/// A GPU whose memory is host memory, running CudaPrograms as the CUDA
/// device does.
class EmulatedGpu : public rt::Device {
public:
  EmulatedGpu(const rt::Executable &executable, SimtKernels kernels)
      : executable_(executable), kernels_(std::move(kernels)) {
    const tcx::Executable &x = executable.root();
    rt::SpaceSizes sizes = executable.sharedSpaceSizes();
    for (tcx::Space space : rt::kSharedSpaces)
      shared_[int(space)] = rt::HostBuffer(sizes[space]);
    paramCopyBytes_ = sizes[tcx::Space::ParamCopies];
    std::memcpy(space(tcx::Space::Constants), x.constants()->data(),
                x.constants()->size());
    if (kernels_.unwatchAll)
      kernels_.unwatchAll();
    for (rt::HostBuffer &buffer : shared_)
      watch(buffer);
  }
  ~EmulatedGpu() override {
    if (kernels_.unwatchAll)
      kernels_.unwatchAll();
  }

  /// What one kernel launch read and wrote in the spaces (kernels compiled
  /// with countBytes); the most loads and stores there one of its threads
  /// made; and the bytes its accesses asked for against the 32-byte
  /// sectors its warps' requests touched: in launch order, for every run
  /// until cleared.
  struct LaunchBytes {
    uint32_t kernel = 0;
    uint64_t read = 0, written = 0;
    uint64_t longestThread = 0;
    uint64_t requested = 0, sectors = 0;
  };
  std::vector<LaunchBytes> launchBytes;

  /// False: GEMMs leave their results as they were (for a test of the
  /// kernels' memory traffic alone, which no GEMM's values change).
  bool runGemms = true;

  uint8_t *space(tcx::Space space) { return shared_[int(space)].data(); }

  /// The function's inputs and outputs and its program, made on first use.
  struct Function {
    rt::HostBuffer inputs, outputs;
    rt::SpaceAddresses spaces;
    rt::CudaProgram program;
  };
  Function &functionOf(const tcx::Function &function) {
    auto [it, added] = functions_.try_emplace(&function);
    Function &f = it->second;
    if (!added)
      return f;
    rt::SpaceSizes sizes = executable_.spaceSizes(function);
    f.inputs = rt::HostBuffer(sizes[tcx::Space::Inputs]);
    f.outputs = rt::HostBuffer(sizes[tcx::Space::Outputs]);
    for (int space = 0; space <= int(tcx::Space::MAX); ++space)
      f.spaces.base[space] = reinterpret_cast<uint64_t>(shared_[space].data());
    f.spaces.base[int(tcx::Space::Inputs)] =
        reinterpret_cast<uint64_t>(f.inputs.data());
    f.spaces.base[int(tcx::Space::Outputs)] =
        reinterpret_cast<uint64_t>(f.outputs.data());
    watch(f.inputs);
    watch(f.outputs);
    std::string error;
    f.program = rt::buildCudaProgram(function, f.spaces, error);
    EXPECT_EQ(error, "");
    return f;
  }

  /// Where input (or output) `name` of `function` lives, or null. A state
  /// output (a decoder step's cache) lives in the Inputs space, at its
  /// input's place.
  uint8_t *binding(const tcx::Function &function, std::string_view name,
                   bool output) {
    const tcx::Binding *b = rt::findBinding(function, name, output);
    return b ? reinterpret_cast<uint8_t *>(
                   functionOf(function).spaces.of(*b->buffer()))
             : nullptr;
  }

  // rt::Device, through the pointers above.
  std::string describe() const override { return "emulated GPU"; }
  void writeSpace(tcx::Space space, int64_t offset, const void *data,
                  int64_t bytes) override {
    std::memcpy(shared_[int(space)].data() + offset, data, bytes);
  }
  void read(tcx::Space space, int64_t offset, void *data,
            int64_t bytes) override {
    std::memcpy(data, shared_[int(space)].data() + offset, bytes);
  }
  bool writeInputAt(const tcx::Function &function, std::string_view name,
                    int64_t offset, const void *data, int64_t bytes) override {
    uint8_t *target = binding(function, name, false);
    if (!target || !inside(function, name, false, offset, bytes))
      return false;
    std::memcpy(target + offset, data, bytes);
    return true;
  }
  bool readOutput(const tcx::Function &function, std::string_view name,
                  void *data, int64_t bytes) override {
    const uint8_t *source = binding(function, name, true);
    if (!source || bytes != rt::bindingBytes(function, name, true))
      return false;
    std::memcpy(data, source, bytes);
    return true;
  }

  bool copyOutputToInput(const tcx::Function &from, std::string_view output,
                         int64_t fromOffset, const tcx::Function &to,
                         std::string_view input, int64_t toOffset,
                         int64_t bytes) override {
    return copyHostBytes(binding(from, output, true), from, output,
                         fromOffset, binding(to, input, false), to, input,
                         toOffset, bytes);
  }

  void run(const tcx::Function &function) override {
    Function &f = functionOf(function);
    auto *table = reinterpret_cast<void **>(f.program.table.data());
    for (const rt::CudaStep &step : f.program.steps) {
      if (const auto *k = std::get_if<rt::KernelLaunch>(&step)) {
        // The harness runs one-dimensional launches, which is all tc emits.
        ASSERT_EQ(k->grid[1] * k->grid[2] * k->block[1] * k->block[2], 1u);
        ASSERT_EQ(k->block[0] % 32, 0u) << "whole warps";
        kernels_.launch(kernels_.kernels.at(k->kernel), k->grid[0], k->block[0],
                        table + k->arguments);
        if (kernels_.takeBytes) {
          LaunchBytes &bytes = launchBytes.emplace_back();
          bytes.kernel = k->kernel;
          kernels_.takeBytes(&bytes.read, &bytes.written);
          bytes.longestThread = kernels_.takeLongestThread();
          kernels_.takeSectors(&bytes.requested, &bytes.sectors);
        }
      } else if (const auto *g = std::get_if<rt::GemmLaunch>(&step)) {
        if (runGemms)
          gemm(*g, table);
      } else if (const auto *c = std::get_if<rt::CopyLaunch>(&step)) {
        for (const rt::CopyRectangle &r : c->rectangles)
          for (int64_t row = 0; row < r.height; ++row)
            std::memcpy(reinterpret_cast<uint8_t *>(r.target) +
                            row * r.targetPitch,
                        reinterpret_cast<const uint8_t *>(r.source) +
                            row * r.sourcePitch,
                        r.width);
      }
    }
  }

private:
  void watch(rt::HostBuffer &buffer) {
    if (kernels_.watch && buffer.size())
      kernels_.watch(buffer.data(), buffer.size());
  }

  /// The operands as the device passes them: the table's pointer arrays,
  /// or one pointer and a stride.
  static void gemm(const rt::GemmLaunch &g, void **table) {
    if (g.types != tcx::GemmTypes{}) { // read as floats below
      ADD_FAILURE() << "the emulated GPU runs f32 GEMMs only, not "
                    << tcx::describe(g.types)
                    << " (the stand-ins do: CudaDeviceGemmTypesTest.cpp)";
      return;
    }
    const rt::CublasGemm &call = g.call;
    std::vector<const float *> a, b;
    std::vector<float *> c;
    for (int64_t batch = 0; batch < call.batchCount; ++batch) {
      if (call.strided) {
        a.push_back(reinterpret_cast<const float *>(g.a) +
                    batch * call.strideA);
        b.push_back(reinterpret_cast<const float *>(g.b) +
                    batch * call.strideB);
        c.push_back(reinterpret_cast<float *>(g.c) + batch * call.strideC);
      } else {
        a.push_back(static_cast<const float *>(table[g.pointerArrays + batch]));
        b.push_back(static_cast<const float *>(
            table[g.pointerArrays + call.batchCount + batch]));
        c.push_back(static_cast<float *>(
            table[g.pointerArrays + 2 * call.batchCount + batch]));
      }
    }
    evaluateColumnMajor(call, a.data(), b.data(), c.data(),
                        reinterpret_cast<const float *>(g.bias), g.relu);
  }

  const rt::Executable &executable_;
  SimtKernels kernels_;
  rt::HostBuffer shared_[int(tcx::Space::MAX) + 1];
  std::map<const tcx::Function *, Function> functions_;
};

} // namespace tc::test

#endif // TC_TEST_UNIT_EMULATEDGPU_H
