//===- NpyFormat.h - the NumPy .npy container ------------------------------===//
//
// What every .npy file is, whatever its elements: the magic "\x93NUMPY", a
// format version (1 to 3), a Python-dict header naming the element type
// ('descr'), the order and the shape, then the elements, row-major when
// 'fortran_order' is False. numpy/lib/format.py is the definition. The
// interpreter's tensors (compiler/interpreter/Npy.h) and the runtime's
// parameter archives (runtime/train/ParameterArchive.h) read and write their
// elements on top of this.
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_NPYFORMAT_H
#define TC_SUPPORT_NPYFORMAT_H

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tc::support {

/// Where a .npy file's elements are and what they are.
struct NpyLayout {
  std::string descr;          ///< "<f4", "<i8", "|b1", ...
  std::vector<int64_t> shape; ///< C order
  size_t dataOffset = 0;      ///< the elements' first byte
};

/// The layout of the .npy file `bytes`, with elements of `elementBytes`
/// bytes for its descr (0: the descr is not one the caller reads); none with
/// `why` saying what is wrong: no magic, an unknown version, a truncated or
/// malformed header (parsed strictly: exactly 'descr', 'fortran_order' and
/// 'shape', each once), Fortran order, or a data size that is not the
/// product of the shape.
std::optional<NpyLayout>
parseNpyLayout(std::string_view bytes,
               size_t (*elementBytes)(std::string_view descr),
               std::string &why);

/// The magic, version and header of a version 1 .npy file of `descr` and
/// `shape` (C order), padded so that the elements start on a 64-byte
/// boundary.
std::string npyPreamble(std::string_view descr,
                        const std::vector<int64_t> &shape);

/// The element of type T at `p` (unaligned; .npy files tc reads and writes
/// are little-endian, as this host is).
template <typename T> T npyLoad(const char *p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

/// Appends the bytes of `value` to `out`.
template <typename T> void npyStore(std::string &out, T value) {
  out.append(reinterpret_cast<const char *>(&value), sizeof(T));
}

/// "(2, 3)", "(4,)", "()": a shape as the header writes it.
std::string npyShapeText(const std::vector<int64_t> &shape);

} // namespace tc::support

#endif // TC_SUPPORT_NPYFORMAT_H
