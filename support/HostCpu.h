//===- HostCpu.h - which x86-64 level host kernels are compiled for --------===//
//
// Host kernels are compiled for an x86-64 microarchitecture level of the
// psABI ("x86-64", "x86-64-v2", "x86-64-v3": AVX2 and FMA, "x86-64-v4":
// AVX-512), by default the best one the compiling machine has; the level
// is recorded in the executable's code module ("host-x86-64-v4"), and the
// runtime refuses host code the CPU it runs on cannot execute instead of
// dying of an illegal instruction.
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_HOSTCPU_H
#define TC_SUPPORT_HOSTCPU_H

#include <string>
#include <vector>

namespace tc::support {

/// The levels, oldest first.
const std::vector<std::string> &cpuLevels();

/// The best level this machine's CPU supports.
std::string hostCpuLevel();

/// Whether this machine's CPU runs code compiled for `level` (false for a
/// level it does not know).
bool cpuSupports(const std::string &level);

/// This machine's CPU as /proc/cpuinfo names it ("AMD EPYC 9B45"), or "this
/// CPU" where it does not, for messages.
std::string hostCpuModel();

} // namespace tc::support

#endif // TC_SUPPORT_HOSTCPU_H
