//===- Plugin.h - the optional parts of tc-run, loaded when asked for ------===//
//
// The CUDA device and the MPI communicator live in shared objects beside
// tc-run (<bin>/../lib/NAME.so), so that tc-run links neither CUDA nor MPI
// and runs on machines without them.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_PLUGIN_H
#define TC_RUNTIME_PLUGIN_H

#include <string>

namespace tc::rt {

/// The entry point `symbol` of plug-in `fileName` (e.g. "tc-cuda-device.so")
/// beside this program, or null with `error` saying why (`what` names the
/// plug-in in it, "the CUDA device"; `missing` says how to get it). The
/// plug-in stays loaded.
void *loadPlugin(const std::string &fileName, const char *symbol,
                 const std::string &what, const std::string &missing,
                 std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_PLUGIN_H
