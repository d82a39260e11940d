//===- TargetBackend.h - what each target's kernels are made of ------------===//
//
// One backend object per target (as IREE's explicit target backends): it
// owns the target's prelude (the skeleton macros the emitters write), the
// declaration every kernel of the target opens with, how the target spells
// each element type, and the launch geometry of its kernels. The emitters
// write one kernel text for both targets and ask the backend for these.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_CODEGEN_TARGETBACKEND_H
#define TC_COMPILER_CODEGEN_TARGETBACKEND_H

#include "compiler/codegen/Target.h"
#include "support/ElementType.h"

#include "mlir/IR/Operation.h"

#include <optional>
#include <string>
#include <utility>

namespace tc::codegen {

class TargetBackend {
public:
  virtual ~TargetBackend() = default;

  virtual Target target() const = 0;

  /// The source every kernel file of the target starts with: the includes,
  /// Philox and the common helpers, then the target's skeleton macros.
  virtual std::string prelude() const = 0;

  /// Kernel `name` with `body`, under the ABI of every kernel:
  /// `name(void **buffers)`, the inputs then the outputs.
  std::string kernel(llvm::StringRef name, llvm::StringRef body) const;

  /// How the target's kernels spell `type` (its column of the element-type
  /// table), or none where its prelude does not define the type (yet).
  std::optional<std::string> spell(support::ElementType type) const;

  /// The same for an MLIR element type (none for one with no row in the
  /// element-type table) or a tensor value's.
  std::optional<std::string> spell(mlir::Type type) const;
  std::optional<std::string> spell(mlir::Value tensor) const;

  /// How the target spells the type kernels compute `tensor`'s elements in
  /// (computeTypeOf in ElementTypes.h: f32 for bf16), or none.
  std::optional<std::string> spellCompute(mlir::Value tensor) const;

  /// How the target spells `tensor`'s element type where kernels compute
  /// it in a wider type (`tc::bf16`), or none where the two types are one.
  std::optional<std::string> spellStorage(mlir::Value tensor) const;

  /// `value`, an arithmetic expression, as an element of `tensor` to store
  /// (`tc::bf16(value)`), or `value` itself where the compute type is the
  /// element type.
  std::string stored(mlir::Value tensor, const std::string &value) const;

  /// Blocks x threads of a launch of the kernel computing `op`.
  virtual std::pair<int64_t, int64_t>
  launchGeometry(mlir::Operation *op) const = 0;

protected:
  /// The declaration `kernel` opens with, up to the parameter list.
  virtual std::string_view declarationHead() const = 0;
  /// This target's column of the element-type table.
  virtual std::string_view
  tableSpelling(const support::ElementTypeInfo &row) const = 0;
};

/// The backend of `target`.
const TargetBackend &targetBackend(Target target);

/// Each target's backend object (HostBackend.cpp, CudaBackend.cpp).
const TargetBackend &hostBackend();
const TargetBackend &cudaBackend();

} // namespace tc::codegen

#endif // TC_COMPILER_CODEGEN_TARGETBACKEND_H
