//===- ElementType.h - the element types below the dialect, in one table --===//
//
// Each element type tc's executables can hold, with everything the layers
// below the dialect need to know of it: its name in the IR and in messages,
// its size, and how host C++ and CUDA C++ spell it. Emitters take a
// kernel's types from its operands and spell them from here; the runtime
// takes sizes from here (never `* 4`); the .tcx `DType` enum lists the same
// types in the same order (runtime/format/TcxFile.cpp checks it), so a
// `tcx::DType` converts to an ElementType by value.
//
// Adding a type: one row below, one value of the same name at the end of
// `DType` in runtime/format/tcx.fbs, and its spelling in the preludes where
// it is not a builtin of both languages (docs/adding-an-op.md).
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_ELEMENTTYPE_H
#define TC_SUPPORT_ELEMENTTYPE_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace tc::support {

/// In `tcx::DType`'s order.
enum class ElementType : uint8_t { F32, F64, F16, BF16, I1, I32, I64 };

struct ElementTypeInfo {
  ElementType type;
  std::string_view name;     // as MLIR prints it: "f32", "bf16", "i1"
  int64_t bytes;             // in memory (i1: one byte, as C++'s bool)
  bool isFloat;
  std::string_view hostType; // host C++ (the preludes define tc::*)
  std::string_view cudaType; // CUDA C++ (the same; cuda_fp16.h's __half)
};

inline constexpr ElementTypeInfo kElementTypes[] = {
    {ElementType::F32, "f32", 4, true, "float", "float"},
    {ElementType::F64, "f64", 8, true, "double", "double"},
    {ElementType::F16, "f16", 2, true, "tc::f16", "__half"},
    {ElementType::BF16, "bf16", 2, true, "tc::bf16", "tc::bf16"},
    {ElementType::I1, "i1", 1, false, "bool", "bool"},
    {ElementType::I32, "i32", 4, false, "int32_t", "int32_t"},
    {ElementType::I64, "i64", 8, false, "int64_t", "int64_t"},
};

inline constexpr int kElementTypeCount =
    sizeof(kElementTypes) / sizeof(kElementTypes[0]);

/// The row of `type`.
constexpr const ElementTypeInfo &info(ElementType type) {
  return kElementTypes[static_cast<int>(type)];
}

/// Bytes of one element of `type`.
constexpr int64_t sizeOf(ElementType type) { return info(type).bytes; }

/// The type whose raw value (a `tcx::DType` read from a file) is `value`;
/// none for a value no row has (a corrupt or newer file).
constexpr std::optional<ElementType> elementTypeOfValue(int value) {
  if (value < 0 || value >= kElementTypeCount)
    return std::nullopt;
  return static_cast<ElementType>(value);
}

/// The type MLIR prints as `name` ("f32"), or none.
constexpr std::optional<ElementType> elementTypeNamed(std::string_view name) {
  for (const ElementTypeInfo &row : kElementTypes)
    if (row.name == name)
      return row.type;
  return std::nullopt;
}

// The rows are in the enum's order: info() indexes by value.
static_assert([] {
  for (int i = 0; i < kElementTypeCount; ++i)
    if (static_cast<int>(kElementTypes[i].type) != i)
      return false;
  return true;
}());

} // namespace tc::support

#endif // TC_SUPPORT_ELEMENTTYPE_H
