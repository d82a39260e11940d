//===- Broadcast.h - NumPy broadcasting of static shapes -----------------===//
//
// The one definition of the broadcasting rule that tc's elementwise ops, their
// verifiers and the interpreter share. Plain C++: the runtime may use it too.
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_BROADCAST_H
#define TC_SUPPORT_BROADCAST_H

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tc {

using Shape = std::vector<int64_t>;

/// The NumPy broadcast of two shapes: aligned at the last dimension, a missing
/// leading dimension counts as 1, and dimensions must be equal or 1. Returns
/// nullopt when the shapes are incompatible.
std::optional<Shape> broadcastShapes(std::span<const int64_t> a,
                                     std::span<const int64_t> b);

/// `shape` with the dimensions in `axes` set to 1: a reduction's result with
/// kept dimensions, which broadcasts back to `shape` (negative axes count
/// from the end).
Shape withUnitAxes(std::span<const int64_t> shape,
                   std::initializer_list<int64_t> axes);
Shape withUnitAxes(std::span<const int64_t> shape,
                   std::span<const int64_t> axes);

/// "[2, 3, 4]": how diagnostics print a shape.
std::string formatShape(std::span<const int64_t> shape);

} // namespace tc

#endif // TC_SUPPORT_BROADCAST_H
