//===- TargetBackend.cpp - what each target's kernels are made of ----------===//

#include "compiler/codegen/TargetBackend.h"
#include "compiler/codegen/ElementTypes.h"

#include "mlir/IR/BuiltinTypes.h"

namespace tc::codegen {

std::string TargetBackend::kernel(llvm::StringRef name,
                                  llvm::StringRef body) const {
  return std::string(declarationHead()) + name.str() + "(void **buffers) {\n" +
         body.str() + "}\n";
}

std::optional<std::string>
TargetBackend::spell(support::ElementType type) const {
  // Neither prelude defines the 16-bit floats yet (issue 23 brings them).
  if (type == support::ElementType::F16 || type == support::ElementType::BF16)
    return std::nullopt;
  return std::string(tableSpelling(support::info(type)));
}

std::optional<std::string> TargetBackend::spell(mlir::Type type) const {
  std::optional<support::ElementType> row = elementTypeOf(type);
  return row ? spell(*row) : std::nullopt;
}

std::optional<std::string> TargetBackend::spell(mlir::Value tensor) const {
  return spell(mlir::cast<mlir::ShapedType>(tensor.getType()).getElementType());
}

const TargetBackend &targetBackend(Target target) {
  return target == Target::Cuda ? cudaBackend() : hostBackend();
}

} // namespace tc::codegen
