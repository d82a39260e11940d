//===- DType.h - a .tcx DType as an element type of support/ElementType.h -===//
//
// tcx.fbs's `DType` lists support::ElementType's types in the same order, so
// each converts to the other by value; the asserts below keep them so.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_FORMAT_DTYPE_H
#define TC_RUNTIME_FORMAT_DTYPE_H

#include "support/ElementType.h"
#include "tcx_generated.h"

#include <cstdint>
#include <type_traits>

namespace tc::tcx {

constexpr support::ElementType elementTypeOf(DType dtype) {
  return static_cast<support::ElementType>(dtype);
}

constexpr DType dtypeOf(support::ElementType type) {
  return static_cast<DType>(type);
}

/// Bytes of one element of `dtype` (a verified .tcx holds no other value).
constexpr int64_t sizeOf(DType dtype) {
  return support::sizeOf(elementTypeOf(dtype));
}

/// The DType of host values of type T: the types the runtime moves in and
/// out of a device's buffers.
template <typename T> constexpr DType dtypeOfHost() {
  if constexpr (std::is_same_v<T, float>)
    return DType::F32;
  else if constexpr (std::is_same_v<T, double>)
    return DType::F64;
  else if constexpr (std::is_same_v<T, int32_t>)
    return DType::I32;
  else if constexpr (std::is_same_v<T, int64_t>)
    return DType::I64;
  else
    static_assert(sizeof(T) == 0, "no DType holds this host type");
}

#define TC_SAME_TYPE(NAME)                                                     \
  static_assert(static_cast<int>(DType::NAME) ==                               \
                static_cast<int>(support::ElementType::NAME))
TC_SAME_TYPE(F32);
TC_SAME_TYPE(F64);
TC_SAME_TYPE(F16);
TC_SAME_TYPE(BF16);
TC_SAME_TYPE(I1);
TC_SAME_TYPE(I32);
TC_SAME_TYPE(I64);
#undef TC_SAME_TYPE
static_assert(static_cast<int>(DType::MAX) + 1 == support::kElementTypeCount,
              "tcx.fbs's DType and support/ElementType.h list other types");

} // namespace tc::tcx

#endif // TC_RUNTIME_FORMAT_DTYPE_H
