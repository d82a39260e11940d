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
  // No prelude defines f16: tc offers no fp16 training (it needs loss
  // scaling; bf16 has f32's range).
  if (type == support::ElementType::F16)
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

std::optional<std::string>
TargetBackend::spellCompute(mlir::Value tensor) const {
  std::optional<support::ElementType> type = elementTypeOf(tensor);
  return type ? spell(computeTypeOf(*type)) : std::nullopt;
}

std::optional<std::string>
TargetBackend::spellStorage(mlir::Value tensor) const {
  if (!isComputedWider(tensor))
    return std::nullopt;
  return spell(tensor);
}

std::string TargetBackend::stored(mlir::Value tensor,
                                  const std::string &value) const {
  if (!isComputedWider(tensor))
    return value;
  return *spell(tensor) + "(" + value + ")";
}

const TargetBackend &targetBackend(Target target) {
  return target == Target::Cuda ? cudaBackend() : hostBackend();
}

} // namespace tc::codegen
