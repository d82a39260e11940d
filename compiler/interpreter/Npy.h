//===- Npy.h - NumPy .npy files <-> host tensors ----------------------------===//
//
// The interpreter's inputs and outputs are .npy files, so that tests compare
// with NumPy and PyTorch directly. Format: numpy/lib/format.py (versions 1-3,
// little-endian, C order).
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_INTERPRETER_NPY_H
#define TC_COMPILER_INTERPRETER_NPY_H

#include "compiler/interpreter/Tensor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tc {

/// The largest .npy file tc reads.
constexpr uint64_t kMaxNpyBytes = uint64_t(16) << 30;

/// Reads a .npy of float16/32/64, int32/64 or bool. On failure returns nullopt
/// and says why in `error`, naming the file.
std::optional<Tensor> readNpy(const std::string &path, std::string &error);

/// The same, from the file's bytes (`path` names it in messages).
std::optional<Tensor> parseNpy(const std::vector<uint8_t> &bytes,
                               const std::string &path, std::string &error);

/// Writes `tensor` as .npy (bf16 is written as float32, which NumPy lacks).
bool writeNpy(const std::string &path, const Tensor &tensor,
              std::string &error);

} // namespace tc

#endif // TC_COMPILER_INTERPRETER_NPY_H
