//===- TcxWriter.h - a plan module -> the bytes of a .tcx executable -------===//
//
// Writes the executable's flatbuffer (runtime/format/tcx.fbs) from a module
// lowered to the plan dialect: parameters, constants, functions and their
// steps, every kernel's source, and the kernels compiled for the target.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_EXPORT_TCXWRITER_H
#define TC_COMPILER_EXPORT_TCXWRITER_H

#include "compiler/export/ExportOptions.h"

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tc {

/// The .tcx bytes (header + flatbuffer), or none with `error` saying why (a
/// kernel without an emitter, a compiler failure).
std::optional<std::vector<uint8_t>>
writeExecutable(mlir::ModuleOp planModule, const ExportOptions &options,
                std::string &error);

} // namespace tc

#endif // TC_COMPILER_EXPORT_TCXWRITER_H
