//===- FileKind.h - which of tc's files a file is, by its first bytes ------===//
//
// A user who gives a checkpoint where an executable is asked (tc-inspect
// average.tcck, tc-run translate ck/best.tcck ...) is told what the file
// is, not only what it is not.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_FORMAT_FILEKIND_H
#define TC_RUNTIME_FORMAT_FILEKIND_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tc::rt {

/// How a checkpoint file starts.
inline constexpr std::string_view kCheckpointMagic{"TCCKPT\0\0", 8};

/// What a file that starts with `size` bytes at `data` is, where it is a
/// checkpoint, a token file or an .npz archive ("a checkpoint, written by
/// tc-run train; ..."); none for anything else.
std::optional<std::string> tcFileKind(const uint8_t *data, size_t size);

} // namespace tc::rt

#endif // TC_RUNTIME_FORMAT_FILEKIND_H
