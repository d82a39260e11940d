//===- Executable.h - a loaded and verified .tcx --------------------------===//
//
// Reads a .tcx file, checks its header (runtime/format/TcxFile.h), runs the
// flatbuffer verifier, then what that cannot check (runtime/Verifier.h):
// buffers inside their spaces, kernels bound to the types they were
// generated for, consistent GEMMs. A file that passes is safe to run as far
// as its plan goes; its compiled kernels are trusted. The runtime links no
// MLIR: this is all it knows of a model.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_EXECUTABLE_H
#define TC_RUNTIME_EXECUTABLE_H

#include "runtime/format/Contract.h"
#include "runtime/format/DType.h"
#include "support/Precision.h"
#include "tcx_generated.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tc::rt {

/// Whether `buffer` is row-major contiguous: its strides are the suffix
/// products of its shape (dimensions of extent 1 have any stride).
bool isRowMajor(const tcx::Buffer &buffer);
/// Whether functions of `role` read only sources (an encoder): their bucket
/// has no target length.
bool servesEveryTargetLength(tcx::FunctionRole role);
/// One byte past the last byte a verified `buffer` touches.
int64_t endOf(const tcx::Buffer &buffer);

/// The size in bytes of each space a function addresses: the arena, inputs
/// and outputs are the function's own, the others the executable's.
struct SpaceSizes {
  int64_t bytes[int(tcx::Space::MAX) + 1] = {};
  int64_t &operator[](tcx::Space space) { return bytes[int(space)]; }
  int64_t operator[](tcx::Space space) const { return bytes[int(space)]; }
};

/// The sizes of the spaces every function of `executable` shares but the
/// arena: Params, Grads, AdamM, AdamV (param_bytes), ParamCopies
/// (param_copy_bytes) and Constants.
SpaceSizes stateSpaceSizes(const tcx::Executable &executable);

/// Input (or output) `name` of `function`, or null.
const tcx::Binding *findBinding(const tcx::Function &function,
                                std::string_view name, bool output);

/// The byte size of input (or output) `name` of `function` (0 when there
/// is none).
int64_t bindingBytes(const tcx::Function &function, std::string_view name,
                     bool output);

/// The function of `role` for `bucket` in `executable`, or null.
const tcx::Function *findFunction(const tcx::Executable &executable,
                                  tcx::FunctionRole role,
                                  const contract::BucketShape &bucket);

/// The precision `executable` was compiled in (its `precision`: f32 in files
/// without one), or nullopt for a name this build does not know.
std::optional<support::Precision>
precisionOf(const tcx::Executable &executable);

/// What a code module runs on, for messages: "host-x86-64-v3", "sm_90" or
/// "compute_90".
std::string codeModuleName(const tcx::CodeModule &module);

/// The spaces every function shares, as the devices allocate them.
constexpr tcx::Space kSharedSpaces[] = {
    tcx::Space::Params, tcx::Space::Grads,     tcx::Space::AdamM,
    tcx::Space::AdamV,  tcx::Space::Arena,     tcx::Space::Constants,
    tcx::Space::ParamCopies};

class Executable {
public:
  /// Loads and verifies `path`, or returns null with `error` naming the
  /// file and what is wrong with it.
  static std::unique_ptr<Executable> load(const std::string &path,
                                          std::string &error);
  /// The same, from bytes in memory (`name` is used in messages).
  static std::unique_ptr<Executable> fromBytes(std::vector<uint8_t> bytes,
                                               const std::string &name,
                                               std::string &error);

  const tcx::Executable &root() const { return *root_; }
  /// What its GEMMs read and compute in (a known name: the load checks it).
  support::Precision precision() const { return *precisionOf(*root_); }
  /// A checksum of the whole file: two processes hold the same executable
  /// when theirs agree.
  uint64_t fingerprint() const;
  /// The function named `name`, or null.
  const tcx::Function *function(const std::string &name) const;
  /// The function of `role` for `bucket`, or null.
  const tcx::Function *function(tcx::FunctionRole role,
                                const contract::BucketShape &bucket) const {
    return findFunction(*root_, role, bucket);
  }
  SpaceSizes spaceSizes(const tcx::Function &function) const;
  /// The sizes of the kSharedSpaces: parameters, gradients, moments and
  /// bf16 copies, the constants, and one arena as large as the largest
  /// function's (functions run one at a time).
  SpaceSizes sharedSpaceSizes() const;
  /// `sizes` with the Inputs and Outputs spaces of `function`: up to the end
  /// of its furthest binding.
  static SpaceSizes bindingSpaceSizes(const tcx::Function &function,
                                      SpaceSizes sizes);

private:
  Executable() = default;

  std::vector<uint8_t> bytes_;
  const tcx::Executable *root_ = nullptr;
};

} // namespace tc::rt

#endif // TC_RUNTIME_EXECUTABLE_H
