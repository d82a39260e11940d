//===- Nvrtc.h - CUDA C++ -> CUBIN with NVRTC -------------------------------===//
//
// Compiles generated CUDA source at compile time (no GPU needed) for one
// architecture, with options in the spirit of nvFuser's: C++17, functions
// device by default, fused multiply-adds, line info, and ptxas's resource
// report (to catch register spills). Built only with the CUDA toolkit.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_EXPORT_NVRTC_H
#define TC_COMPILER_EXPORT_NVRTC_H

#include <optional>
#include <string>
#include <vector>

namespace tc {

struct CudaBinary {
  std::vector<char> cubin; ///< for a real architecture (sm_XX)
  std::string ptx;         ///< for a virtual one (compute_XX)
  std::string log;         ///< NVRTC's and ptxas's messages
  int64_t spillBytes = 0;  ///< spill stores + loads ptxas reported, all kernels
  std::string options;     ///< the command line
};

/// The real architectures this NVRTC compiles for (compute capabilities x
/// 10: 75, 80, ...), in its order.
std::vector<unsigned> nvrtcArchitectures();

/// Everything besides the source that decides what compileCuda makes for
/// `arch` (NVRTC's version, the options, the stand-in headers): part of
/// the build cache's key.
std::string cudaCompilerIdentity(const std::string &arch);

/// CUBIN of `source` for a real architecture ("sm_90"), or PTX for a
/// virtual one ("compute_90", which newer GPUs compile when they load it),
/// or none with `error` holding the NVRTC log and the numbered source.
std::optional<CudaBinary> compileCuda(const std::string &source,
                                      const std::string &arch,
                                      std::string &error);

} // namespace tc

#endif // TC_COMPILER_EXPORT_NVRTC_H
