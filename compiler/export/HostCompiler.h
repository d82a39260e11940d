//===- HostCompiler.h - generated host C++ -> a shared object, cached ------===//
//
// The system C++ compiler (`c++`, or $CXX) builds the host kernels of an
// executable into one shared object, which the .tcx stores; the kernels are
// split over one translation unit per core, compiled in parallel. Builds are
// cached by a hash of the source and the command line in the cache
// directory (support/CacheDirectory.h), so recompiling an unchanged
// model skips the C++ compiler.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_EXPORT_HOSTCOMPILER_H
#define TC_COMPILER_EXPORT_HOSTCOMPILER_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tc {

struct HostBuild {
  std::vector<uint8_t> sharedObject;
  std::string command; ///< the compiler command line (without file names)
  bool cached = false; ///< found in the cache
};

/// Compiles `kernels` (each a complete function, all needing `prelude`)
/// for x86-64 level `cpuLevel` ("x86-64-v3", support/HostCpu.h)
/// into one shared object, in one translation unit per core, or returns
/// none with `error` holding the compiler's messages and where the source
/// was kept.
std::optional<HostBuild>
compileHostSource(const std::string &prelude,
                  const std::vector<std::string> &kernels,
                  const std::string &cpuLevel, std::string &error);

} // namespace tc

#endif // TC_COMPILER_EXPORT_HOSTCOMPILER_H
