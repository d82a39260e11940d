//===- CpuDevice.h - runs an executable's functions on the host -----------===//
//
// Holds the executable's flat buffers in host memory (parameters, gradients,
// Adam moments, constants, one arena for all functions; inputs and outputs
// per function) and
// runs a function's steps in order: generated kernels from the executable's
// shared object, GEMMs through one-threaded kernels chosen by their operand
// and compute types (CpuGemm.h: f32 sgemm calls of oneDNN or OpenBLAS,
// bf16 ones by oneDNN's matmul or widened to f32, per batch index or block
// of rows or columns, the bias and ReLU epilogue around them), strided
// copies, and all-reduces (a no-op with one rank). f32 GEMMs of
// activations times a parameter run with the weights prepared once
// (PreparedGemms.h) in the options' compute type, except in functions that
// update parameters. It refuses an executable with GEMMs of other types
// when it is made, and one with bf16 GEMMs (or the bf16 compute type) on a
// CPU without bf16 instructions unless asked (Bf16Instructions.h).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_CPUDEVICE_H
#define TC_RUNTIME_CPU_CPUDEVICE_H

#include "runtime/Device.h"
#include "runtime/DeviceRegistry.h"
#include "runtime/Executable.h"
#include "runtime/cpu/CandidatesFusion.h"
#include "runtime/cpu/CpuGemm.h"
#include "runtime/cpu/KernelLibrary.h"
#include "runtime/cpu/PreparedGemms.h"

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tc::rt {

/// Zero-initialised host memory aligned for SIMD loads. From 1 MiB on it
/// is mapped pages that the kernel zeroes when first touched: a decoder
/// step's caches are mostly positions no sentence reaches, and a memset
/// faulted in every page of every shape's buffers (tens of MB, ~12 ms a
/// shape when translation first used it). Not under AddressSanitizer,
/// whose allocator's redzones catch writes past a buffer.
class HostBuffer {
public:
  explicit HostBuffer(int64_t bytes = 0);
  uint8_t *data() { return data_.get(); }
  int64_t size() const { return size_; }

private:
  struct Free {
    int64_t mappedBytes; ///< 0 (value-initialised): from aligned_alloc
    void operator()(uint8_t *p) const;
  };
  std::unique_ptr<uint8_t, Free> data_;
  int64_t size_ = 0;
};

/// What a program asks of the CPU device.
struct CpuDeviceOptions {
  /// Opens an executable with bf16 GEMMs on a CPU without bf16 GEMM
  /// instructions, and runs them widened to f32 (slower than an f32
  /// executable; tc-run --allow-slow-bf16, to check numerics).
  bool allowSlowBf16 = false;
  /// Opened for its parameters alone (tc-run export): its bf16 GEMMs are
  /// neither refused nor noted on any CPU, as none will run.
  bool runsNoSteps = false;
  /// The type of the weight GEMMs (ComputeType.h) of functions that do not
  /// update the parameters; bf16 is refused on a CPU without bf16 GEMM
  /// instructions.
  ComputeType computeType = ComputeType::F32;
};

class CpuDevice : public Device {
public:
  /// A device for `executable` (which must outlive it), or null with
  /// `error` saying why (no host code, a kernel missing, bf16 GEMMs on a
  /// CPU without bf16 instructions and `options` not allowing them).
  static std::unique_ptr<CpuDevice>
  create(const Executable &executable, std::string &error,
         const CpuDeviceOptions &options = {});

  using Device::readOutput; // and the typed overloads beside these
  using Device::writeInputAt;
  std::string describe() const override;
  void read(tcx::Space space, int64_t offset, void *data,
            int64_t bytes) override;
  bool writeInputAt(const tcx::Function &function, std::string_view name,
                    int64_t offset, const void *data, int64_t bytes) override;
  bool readOutput(const tcx::Function &function, std::string_view name,
                  void *data, int64_t bytes) override;
  bool copyOutputToInput(const tcx::Function &from, std::string_view output,
                         int64_t fromOffset, const tcx::Function &to,
                         std::string_view input, int64_t toOffset,
                         int64_t bytes) override;
  void run(const tcx::Function &function) override;
  bool startProfile() override;
  std::vector<ProfileEntry> profile() const override;

  /// The whole buffer of a space shared by all functions (Params, Grads,
  /// AdamM, AdamV, Constants, Arena), in host memory. Parameters changed
  /// through it after a function ran keep their stale prepared weights:
  /// write() drops them.
  HostBuffer &space(tcx::Space space);

  /// The weight GEMMs prepared so far (for tests).
  const PreparedGemms &preparedGemms() const { return *prepared_; }

protected:
  void writeSpace(tcx::Space space, int64_t offset, const void *data,
                  int64_t bytes) override;

private:
  /// Whether `function` writes a parameter (a training step): its GEMMs
  /// run by sgemm, and the prepared weights are dropped after it.
  bool updatesParameters(const tcx::Function &function);
  /// The bytes of input or output `name` of `function`, or null.
  uint8_t *binding(const tcx::Function &function, std::string_view name,
                   bool output);

  struct FunctionBuffers {
    HostBuffer inputs, outputs;
  };
  CpuDevice(const Executable &executable) : executable_(executable) {}
  static std::unique_ptr<CpuDevice> allocate(const Executable &executable,
                                             const CpuDeviceOptions &options,
                                             std::string &error);
  FunctionBuffers &buffersOf(const tcx::Function &function);
  uint8_t *address(const tcx::Function &function, const tcx::Buffer &buffer);
  /// `gemm`'s operands as one block.
  GemmBlock wholeBlock(const tcx::Function &function, const tcx::Gemm &gemm);
  void gemm(const tcx::Function &function, const tcx::Gemm &gemm);
  /// Runs `gemm` and `launch` (its tc.log_softmax_top_k) as one
  /// (CandidatesFusion.h) and returns true, or returns false having run
  /// nothing: the GEMMs are not int8 on tc's panels.
  bool gemmWithCandidates(const tcx::Function &function, const tcx::Gemm &gemm,
                          const tcx::Launch &launch,
                          const CandidatesAfterGemm &fusion);
  /// One more call of `name` (of `kind`), from `start` until now.
  void addToProfile(const std::string &name, const std::string &kind,
                    std::chrono::steady_clock::time_point start);
  void copy(const tcx::Function &function, const tcx::Copy &copy);
  /// Starts the sum of a verified contiguous F32 or I32 buffer over ranks_.
  void allReduce(const tcx::Function &function, const tcx::Buffer &buffer);

  const Executable &executable_;
  std::unique_ptr<KernelLibrary> kernels_;
  SgemmLibrary sgemm_ = SgemmLibrary::OneDnn;
  std::unique_ptr<Bf16Gemm> bf16_; ///< when the executable has bf16 GEMMs
  std::unique_ptr<PreparedGemms> prepared_;
  /// describe() names it unless it is the default, f32.
  ComputeType computeType_ = ComputeType::F32;
  std::map<const tcx::Function *, bool> updatesParameters_;
  std::map<const tcx::Function *,
           std::vector<std::optional<CandidatesAfterGemm>>>
      candidatesAfterGemms_;
  HostBuffer shared_[int(tcx::Space::MAX) + 1];
  std::map<const tcx::Function *, FunctionBuffers> functions_;
  bool profiling_ = false;
  std::map<std::string, ProfileEntry> profile_; ///< by name
};

/// Registers "cpu", which runs Host code, made with `options`.
void registerCpuDevice(DeviceRegistry &registry,
                       const CpuDeviceOptions &options = {});

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_CPUDEVICE_H
