//===- HostSource.h - the host C++ of every kernel of a plan module --------===//

#ifndef TC_COMPILER_CODEGEN_HOSTSOURCE_H
#define TC_COMPILER_CODEGEN_HOSTSOURCE_H

#include "compiler/codegen/KernelDispatch.h"

namespace tc::codegen {

/// The host C++ of each kernel function (`plan.kernel`) of a module lowered
/// to the plan dialect, in module order; failure (saying which kernel and
/// why) when a kernel has no host emitter.
mlir::FailureOr<std::vector<NamedKernelSource>>
emitHostKernels(mlir::ModuleOp planModule, std::string &error);

/// The prelude, then one `extern "C"` function per kernel of the plan
/// module, named as the kernel (tc-compile --emit=cpp).
mlir::FailureOr<std::string> emitHostSource(mlir::ModuleOp planModule,
                                            std::string &error);

} // namespace tc::codegen

#endif // TC_COMPILER_CODEGEN_HOSTSOURCE_H
