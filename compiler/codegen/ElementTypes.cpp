//===- ElementTypes.cpp - MLIR element types onto the element-type table --===//

#include "compiler/codegen/ElementTypes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

namespace tc::codegen {

std::optional<support::ElementType> elementTypeOf(mlir::Type type) {
  // The table names each type as MLIR prints it, so it stays the one list.
  std::string name;
  llvm::raw_string_ostream(name) << type;
  return support::elementTypeNamed(name);
}

std::optional<support::ElementType> elementTypeOf(mlir::Value v) {
  return elementTypeOf(
      mlir::cast<mlir::ShapedType>(v.getType()).getElementType());
}

bool isComputedWider(mlir::Value v) {
  std::optional<support::ElementType> type = elementTypeOf(v);
  return type && computeTypeOf(*type) != *type;
}

} // namespace tc::codegen
