//===- Target.h - what generated kernels run on ----------------------------===//

#ifndef TC_COMPILER_CODEGEN_TARGET_H
#define TC_COMPILER_CODEGEN_TARGET_H

namespace tc {

/// The targets tc generates kernels for; the emitters write one kernel text
/// for both, and what differs (the prelude's skeleton macros, the kernel
/// declaration, type spellings, launch geometry) is each target's backend
/// object's (compiler/codegen/TargetBackend.h).
enum class Target {
  Host, ///< C++ for the host's compiler (OpenMP); GEMMs through oneDNN or OpenBLAS
  Cuda, ///< CUDA C++ for NVRTC (CUBIN + PTX); GEMMs through cuBLAS
};

} // namespace tc

#endif // TC_COMPILER_CODEGEN_TARGET_H
