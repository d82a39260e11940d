//===- KernelSignature.h - what a kernel's code assumes of its arguments ---===//
//
// A kernel is generated for fixed argument types and shapes, and its code
// indexes memory by them. The kernel table of a .tcx records them (the
// verifier checks every launch against the table), and the host code module
// declares them again beside each kernel, as text under a symbol of its
// own: the runtime binds a kernel by name and then checks that the code it
// found was compiled for the types the table promises. A table rearranged
// after compilation (names swapped between entries) is refused instead of
// running a kernel on buffers of another shape.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_FORMAT_KERNELSIGNATURE_H
#define TC_RUNTIME_FORMAT_KERNELSIGNATURE_H

#include "tcx_generated.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tc::tcx {

/// One argument: element type and shape.
using ArgumentType = std::pair<DType, std::vector<int64_t>>;

/// "F32[2,3] F32[3] -> F32[2,3]": the first `inputs` of `arguments` are
/// read, the rest written.
std::string kernelSignature(uint32_t inputs,
                            const std::vector<ArgumentType> &arguments);
/// The same, from a kernel table entry.
std::string kernelSignature(const Kernel &kernel);

/// The symbol of the NUL-terminated signature text beside kernel `name` in
/// a host code module.
std::string kernelSignatureSymbol(std::string_view name);

/// The C++ that declares `signature` for kernel `name` in a host module.
std::string hostSignatureDeclaration(std::string_view name,
                                     const std::string &signature);

} // namespace tc::tcx

#endif // TC_RUNTIME_FORMAT_KERNELSIGNATURE_H
