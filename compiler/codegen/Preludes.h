//===- Preludes.h - the source every generated kernel file starts with -----===//
//
// Both targets' kernels start with the includes, the Philox RNG
// (support/Philox.h) and helpers (preludes/Common.h); then the host's
// (preludes/Host.h) or CUDA's (preludes/Cuda.h) definitions of the skeleton
// macros the emitters write: TC_FOR, TC_ROWS, TC_ROW, TC_ROW_SUM, TC_ROW_MAX,
// TC_ORDERED_ROW_SUM, TC_COLUMNS, ... The prelude files are real sources,
// embedded into the compiler at build time; each target's backend owns its
// prelude (compiler/codegen/TargetBackend.h).
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_CODEGEN_PRELUDES_H
#define TC_COMPILER_CODEGEN_PRELUDES_H

#include "compiler/codegen/Target.h"

#include <string>

namespace tc::codegen {

/// The prelude of `target`'s kernel files (its backend's).
std::string kernelPrelude(Target target);

/// The part of the prelude that every target shares: the includes, Philox
/// and preludes/Common.h.
std::string commonPrelude();

} // namespace tc::codegen

#endif // TC_COMPILER_CODEGEN_PRELUDES_H
