//===- KernelLibrary.h - the host kernels of an executable, loaded ---------===//
//
// The host code module of a .tcx is a shared object; it is written to the
// kernel cache (keyed by its checksum, so each build is written once) and
// loaded with dlopen. Libraries are never unloaded: OpenMP's runtime keeps
// threads that may still run their code.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_KERNELLIBRARY_H
#define TC_RUNTIME_CPU_KERNELLIBRARY_H

#include "runtime/Executable.h"

#include <memory>
#include <string>
#include <vector>

namespace tc::rt {

/// The ABI of every host kernel: inputs then outputs.
using HostKernel = void (*)(void **buffers);

class KernelLibrary {
public:
  /// The kernels of `executable`'s host code module, in the order of its
  /// kernel table, or null with `error` saying why.
  static std::unique_ptr<KernelLibrary> load(const Executable &executable,
                                             std::string &error);
  HostKernel kernel(uint32_t index) const { return kernels_[index]; }

private:
  std::vector<HostKernel> kernels_;
};

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_KERNELLIBRARY_H
