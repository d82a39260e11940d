//===- Device.h - what runs an executable: the CPU or a GPU ---------------===//
//
// A device holds an executable's flat buffers in its own memory and runs its
// functions. Everything else in the runtime (training, decoding,
// checkpoints) talks to this interface and moves bytes in and out with
// copies, so a GPU device (whose memory the host cannot touch) fits the
// same loop. The devices are runtime/cpu/ and runtime/cuda/; a program
// chooses one through the registry (DeviceRegistry.h).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DEVICE_H
#define TC_RUNTIME_DEVICE_H

#include "runtime/Communicator.h"
#include "runtime/Executable.h"
#include "support/Bf16Rounding.h"

#include <cassert>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace tc::rt {

/// Time one kind of step took, summed over the runs since profiling began.
struct ProfileEntry {
  std::string name; ///< the kernel's name, a GEMM's shape and types
                    ///< (tcx::describe), or "copy"
  std::string kind; ///< the kernel's tc op ("tc.residual_layer_norm"), or
                    ///< "gemm", "copy"
  int64_t calls = 0;
  double seconds = 0;
};

class Device {
public:
  virtual ~Device() = default;
  /// "cpu (OpenBLAS SkylakeX kernels, 2 threads)", for messages.
  virtual std::string describe() const = 0;

  /// Copies bytes into / out of a space shared by all functions (Params,
  /// Grads, AdamM, AdamV) at a byte offset. Parameters written here (whole
  /// f32 values) are also rounded into their bf16 copies where the
  /// executable keeps them (ParamCopies, tc-use-param-copies): whatever
  /// writes parameters from outside a step keeps the copies exact.
  void write(tcx::Space space, int64_t offset, const void *data,
             int64_t bytes) {
    writeSpace(space, offset, data, bytes);
    if (space != tcx::Space::Params || paramCopyBytes_ == 0)
      return;
    assert(offset % 4 == 0 && bytes % 4 == 0 && "whole f32 parameters");
    std::vector<uint16_t> copies(bytes / 4);
    support::roundToBf16(static_cast<const float *>(data), copies.data(),
                         bytes / 4);
    writeSpace(tcx::Space::ParamCopies, offset / 2, copies.data(),
               int64_t(copies.size()) * 2);
  }
  virtual void read(tcx::Space space, int64_t offset, void *data,
                    int64_t bytes) = 0;
  /// Copies the bytes of input `name` of `function` in, or of output `name`
  /// out; false when the function has no such binding or its size differs.
  bool writeInput(const tcx::Function &function, std::string_view name,
                  const void *data, int64_t bytes) {
    return bindingBytes(function, name, false) == bytes &&
           writeInputAt(function, name, 0, data, bytes);
  }
  /// Copies `bytes` into input `name` from byte `offset` of it on (a row of
  /// a decoder's cache); false when it has no such binding or the range
  /// leaves it.
  virtual bool writeInputAt(const tcx::Function &function,
                            std::string_view name, int64_t offset,
                            const void *data, int64_t bytes) = 0;
  virtual bool readOutput(const tcx::Function &function, std::string_view name,
                          void *data, int64_t bytes) = 0;
  /// Copies `bytes` of output `output` of `from`, from its byte
  /// `fromOffset` on, into input `input` of `to` at byte `toOffset`, on the
  /// device (a source's cross-attention keys and values, from decode_start's
  /// outputs into a row of decode_step's inputs, with no trip through the
  /// host); false when either binding is missing or a range leaves it.
  virtual bool copyOutputToInput(const tcx::Function &from,
                                 std::string_view output, int64_t fromOffset,
                                 const tcx::Function &to,
                                 std::string_view input, int64_t toOffset,
                                 int64_t bytes) = 0;

  /// The same with typed values, their bytes from the element type table:
  /// false also when the binding's element type is not T's.
  /// Input `name` becomes `values`, all of it.
  template <typename T>
  bool writeInput(const tcx::Function &function, std::string_view name,
                  const std::vector<T> &values) {
    return holds<T>(function, name, false) &&
           writeInput(function, name, values.data(),
                      bytesOf<T>(int64_t(values.size())));
  }
  /// Input `name` from element `first` on becomes `values`.
  template <typename T>
  bool writeInputAt(const tcx::Function &function, std::string_view name,
                    int64_t first, const std::vector<T> &values) {
    return holds<T>(function, name, false) &&
           writeInputAt(function, name, bytesOf<T>(first), values.data(),
                        bytesOf<T>(int64_t(values.size())));
  }
  /// `values` (as many as output `name` holds) become output `name`.
  template <typename T>
  bool readOutput(const tcx::Function &function, std::string_view name,
                  std::vector<T> &values) {
    return holds<T>(function, name, true) &&
           readOutput(function, name, values.data(),
                      bytesOf<T>(int64_t(values.size())));
  }
  /// Runs every step of `function`.
  virtual void run(const tcx::Function &function) = 0;

  /// Starts timing every step of every run; false when this device cannot.
  virtual bool startProfile() { return false; }
  /// The times since startProfile: one entry per kernel, one for all GEMMs,
  /// one for all copies, one for waiting on the other ranks' sums.
  virtual std::vector<ProfileEntry> profile() const { return {}; }

  /// The ranks that the functions' plan.allreduce steps sum over (until
  /// then: this process alone), and how long a plan.wait may wait for them
  /// (seconds; 0: for ever). The communicator must outlive the device.
  /// False with `error` when this device cannot sum over them.
  virtual bool joinRanks(Communicator &ranks, double timeoutSeconds,
                         std::string &error) {
    (void)error;
    ranks_ = &ranks;
    collectiveTimeout_ = timeoutSeconds;
    return true;
  }

protected:
  /// Copies bytes into a shared space, as they are.
  virtual void writeSpace(tcx::Space space, int64_t offset, const void *data,
                          int64_t bytes) = 0;
  /// The executable's param_copy_bytes (0: it keeps no bf16 copies), set
  /// by the device made for it.
  int64_t paramCopyBytes_ = 0;

  /// Whether [offset, offset + bytes) lies inside binding `name` of
  /// `function` (an output, or an input).
  static bool inside(const tcx::Function &function, std::string_view name,
                     bool output, int64_t offset, int64_t bytes) {
    return offset >= 0 && bytes >= 0 &&
           offset + bytes <= bindingBytes(function, name, output);
  }
  /// Whether copyOutputToInput's two ranges lie inside their bindings.
  static bool copyFits(const tcx::Function &from, std::string_view output,
                       int64_t fromOffset, const tcx::Function &to,
                       std::string_view input, int64_t toOffset,
                       int64_t bytes) {
    return inside(from, output, true, fromOffset, bytes) &&
           inside(to, input, false, toOffset, bytes);
  }
  /// copyOutputToInput where the bindings' buffers are host memory
  /// (`source`, `target`; null when missing): the ranges checked, then the
  /// bytes moved.
  static bool copyHostBytes(const uint8_t *source, const tcx::Function &from,
                            std::string_view output, int64_t fromOffset,
                            uint8_t *target, const tcx::Function &to,
                            std::string_view input, int64_t toOffset,
                            int64_t bytes) {
    if (!source || !target ||
        !copyFits(from, output, fromOffset, to, input, toOffset, bytes))
      return false;
    std::memmove(target + toOffset, source + fromOffset, bytes);
    return true;
  }

  /// Whether input (or output) `name` of `function` holds values of type T.
  template <typename T>
  static bool holds(const tcx::Function &function, std::string_view name,
                    bool output) {
    const tcx::Binding *binding = findBinding(function, name, output);
    return binding && binding->buffer()->dtype() == tcx::dtypeOfHost<T>();
  }
  /// The bytes of `count` values of type T.
  template <typename T> static int64_t bytesOf(int64_t count) {
    constexpr int64_t size = tcx::sizeOf(tcx::dtypeOfHost<T>());
    static_assert(size == sizeof(T), "T is not its element type's size");
    return count * size;
  }

  /// Null: one rank, whose sums are its own values.
  Communicator *ranks_ = nullptr;
  double collectiveTimeout_ = 0;
};

} // namespace tc::rt

#endif // TC_RUNTIME_DEVICE_H
