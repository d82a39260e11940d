//===- ParameterArchive.h - a model's parameters as a NumPy .npz -----------===//
//
// How parameters move between tc and other toolkits: an uncompressed .npz
// (numpy.savez's format: a zip of one float32 .npy per parameter), each
// array named as `tc-compile --emit=params` names the parameter
// ("encoder.layers.0.self_attn.q.weight") and shaped as it is ([out, in]
// for a weight, as PyTorch's Linear). numpy.load(path)[name] reads one.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_TRAIN_PARAMETERARCHIVE_H
#define TC_RUNTIME_TRAIN_PARAMETERARCHIVE_H

#include "runtime/Executable.h"

#include "support/AtomicFile.h"

#include <optional>
#include <string>
#include <vector>

namespace tc::rt {

/// Writes `params` (the executable's flat parameter buffer) to `path`, as
/// support::writeFileAtomically writes (`ifPresent`: what becomes of a file
/// there); false with `error`.
bool exportParameters(const tcx::Executable &executable,
                      const std::vector<uint8_t> &params,
                      const std::string &path, support::IfPresent ifPresent,
                      std::string &error);

/// The flat parameter buffer of `executable` from the archive at `path`, or
/// none with `error` naming the archive and the array: every parameter must
/// be there once, float32, with its shape and finite values, and nothing
/// else.
std::optional<std::vector<uint8_t>>
importParameters(const tcx::Executable &executable, const std::string &path,
                 std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_PARAMETERARCHIVE_H
