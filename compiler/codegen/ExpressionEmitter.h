//===- ExpressionEmitter.h - tc ops as C++ expressions ---------------------===//
//
// Prints the body of a fused elementwise group as C++ statements that compute
// one element: every value becomes a local of its compute type (its element
// type; f32 for bf16, rounded to bf16 once where it is computed, into a
// bf16 local that a store writes as it is), every op an
// expression over them. The same statements serve every target; only the
// skeleton around them (a host loop, a CUDA grid-stride loop) differs.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_CODEGEN_EXPRESSIONEMITTER_H
#define TC_COMPILER_CODEGEN_EXPRESSIONEMITTER_H

#include "compiler/codegen/TargetBackend.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tc::codegen {

class ExpressionEmitter {
public:
  /// Spells each value's type as `backend` does.
  explicit ExpressionEmitter(const TargetBackend &backend) : backend(backend) {}

  /// Names the value `v` already holds in the generated code (an input the
  /// skeleton loaded into a local of its compute type).
  void bind(mlir::Value v, std::string name) { names[v] = std::move(name); }

  /// Prints one statement per op of `ops` (but the reductions, which the
  /// skeleton accumulates), with
  /// `index` the name of the element's linear index (dropout's counter; a
  /// dropout reads mask<key>, which the skeleton declares with
  /// TC_DROPOUT_MASK). Fails, saying why, on an op it does not know.
  mlir::LogicalResult emitOps(llvm::ArrayRef<mlir::Operation *> ops,
                              llvm::StringRef index, llvm::raw_ostream &os,
                              std::string &error);

  const std::string &nameOf(mlir::Value v) const { return names.at(v); }

  /// `v` as an element to store: the local holding it rounded to its
  /// element type where the statements computed it in a wider type (so
  /// that a store does not round it again), else `v`'s local, converted.
  std::string storedValueOf(mlir::Value v) const;

private:
  const TargetBackend &backend;
  llvm::DenseMap<mlir::Value, std::string> names;
  /// The element-type locals of the values computed in a wider type.
  llvm::DenseMap<mlir::Value, std::string> storedNames;
  int next = 0;
};

} // namespace tc::codegen

#endif // TC_COMPILER_CODEGEN_EXPRESSIONEMITTER_H
