//===- CudaCompiler.h - the CUDA kernels of an executable, compiled --------===//
//
// NVRTC builds the kernels into CUBIN for each requested architecture and
// PTX for the newest one (which later GPUs compile when they load it), each
// split over one translation unit per core, compiled in parallel. Available
// when tc is built with the CUDA toolkit.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_EXPORT_CUDACOMPILER_H
#define TC_COMPILER_EXPORT_CUDACOMPILER_H

#include <optional>
#include <string>
#include <vector>

namespace tc {

struct CudaModule {
  unsigned arch = 0;   ///< compute capability x 10
  bool ptx = false;    ///< PTX for `arch` and later, else CUBIN for `arch`
  std::string options; ///< NVRTC's options
  std::vector<uint8_t> binary;
};

/// Whether this build can compile CUDA kernels.
bool haveCudaCompiler();

/// The architectures the CUDA compiler builds CUBIN for (compute
/// capabilities x 10); empty without one.
std::vector<unsigned> cudaCompilerArchitectures();

/// The modules for `kernels` (complete kernels, all needing `prelude`) on
/// `architectures` (compute capabilities x 10: 80, 90), or none with `error`
/// (NVRTC's log and the numbered source, or that this build has no NVRTC).
std::optional<std::vector<CudaModule>> compileCudaModules(
    const std::string &prelude, const std::vector<std::string> &kernels,
    const std::vector<unsigned> &architectures, std::string &error);

} // namespace tc

#endif // TC_COMPILER_EXPORT_CUDACOMPILER_H
