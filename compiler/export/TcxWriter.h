//===- TcxWriter.h - a plan module -> the bytes of a .tcx executable -------===//
//
// Writes the executable's flatbuffer (runtime/format/tcx.fbs) from a module
// lowered to the plan dialect: parameters, constants, functions and their
// steps, every kernel's source, and the kernels compiled for the target.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_EXPORT_TCXWRITER_H
#define TC_COMPILER_EXPORT_TCXWRITER_H

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tc {

struct ModelDescription;

struct ExportOptions {
  std::string modelDescription; ///< the .toml text, stored for tc-inspect
  std::string producer;         ///< "tc-compile 0.1"
  /// The description's training and data settings for tc-run (none for a
  /// .mlir input).
  const ModelDescription *description = nullptr;
  /// Empty: the host target (C++ kernels in a shared object). Else the CUDA
  /// target: CUBIN for these architectures ("sm_80", "sm_90") and PTX for
  /// the newest.
  std::vector<std::string> cudaArchitectures;
  /// The host target's x86-64 level (runtime/format/HostCpu.h); empty:
  /// the best this machine has.
  std::string hostCpu;
};

/// The .tcx bytes (header + flatbuffer), or none with `error` saying why (a
/// kernel without an emitter, a compiler failure).
std::optional<std::vector<uint8_t>>
writeExecutable(mlir::ModuleOp planModule, const ExportOptions &options,
                std::string &error);

} // namespace tc

#endif // TC_COMPILER_EXPORT_TCXWRITER_H
