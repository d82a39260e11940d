//===- Verifier.h - what the flatbuffer verifier cannot check of a .tcx ---===//
//
// After the header and the flatbuffer verifier (runtime/format/TcxFile.h,
// tcx.fbs), these checks make a file safe to run: every table a step needs is
// present; every buffer view is well formed (sizes bounded, so that offsets
// never overflow) and lies inside its space; kernels are bound to buffers of
// exactly the types and shapes their code was generated for; GEMM parameters
// are consistent, fit BLAS's 32-bit integers, touch nothing outside their
// operands' spaces and write no element twice; copies join views of one
// shape; nothing writes the inputs or the constants; parameters and bindings
// are contiguous; every bucket of the run config has its training step. What
// is not checked is the compiled kernel code itself, which the file carries.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_VERIFIER_H
#define TC_RUNTIME_VERIFIER_H

#include "tcx_generated.h"

#include <string>

namespace tc::rt {

/// True when `executable` may run; else false with `error` saying where and
/// what is wrong ("function 'f', step 3 (gemm): ...").
bool verifyExecutable(const tcx::Executable &executable, std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_VERIFIER_H
