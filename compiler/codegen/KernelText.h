//===- KernelText.h - helpers shared by the host kernel emitters ----------===//

#ifndef TC_COMPILER_CODEGEN_KERNELTEXT_H
#define TC_COMPILER_CODEGEN_KERNELTEXT_H

#include "compiler/codegen/TargetBackend.h"

#include "mlir/IR/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

namespace tc::codegen {

/// The shape of a tensor value.
llvm::ArrayRef<int64_t> shapeOf(mlir::Value v);

/// The C++ expression of the index into a tensor of `shape` broadcast to
/// `full`, for element `i` of `full`; `inRows`: for the element (`o`, `k`)
/// of `full` seen as rows of its last dimension, `o` counting the rows and
/// `k` the element within its row (i = o * full.back() + k), so that no
/// division by the row's length remains and a loop over `k` vectorises.
std::string broadcastIndex(llvm::ArrayRef<int64_t> shape,
                           llvm::ArrayRef<int64_t> full, bool inRows = false);

/// `text` with `@0`, `@1`, ... replaced by `args` (formatv would read the
/// braces of the C++ as its own).
std::string fill(std::string text, std::initializer_list<std::string> args);

/// A double as a C++ literal that round-trips.
std::string number(double v);

/// Whether `backend` spells the element type of every operand and result of
/// `op` (else says so in `error`).
bool hasCppTypes(mlir::Operation *op, const TargetBackend &backend,
                 std::string &error);

/// The first operand or result of `op` that kernels compute in another type
/// than its element type (a bf16 value, computed in f32) and that `stored`
/// does not accept (a value the kernel only stores, rounded from an f32
/// one), described for a diagnostic ("operand #1 is bf16"); none if there
/// is none.
std::optional<std::string> firstComputedWider(
    mlir::Operation *op,
    llvm::function_ref<bool(mlir::Value)> stored = [](mlir::Value) {
      return false;
    });

/// Declares `in<k>` and `out<k>` for the operands and results of `op`, in
/// the kernel ABI's order (operands, then results), each of its element
/// type (which hasCppTypes checked).
std::string bufferDeclarations(mlir::Operation *op,
                               const TargetBackend &backend);

/// The declarations of bufferDeclarations for one buffer: `in<k>`, a
/// pointer to const, for an input, else `out<k>` at index `index`.
std::string inputDeclaration(llvm::StringRef type, unsigned k);
std::string outputDeclaration(llvm::StringRef type, unsigned k, unsigned index);

/// `text` with each type mark (`@E`, `@A`: a letter, unlike fill's digits)
/// replaced by its type's spelling.
std::string spellTypes(
    std::string text,
    std::initializer_list<std::pair<llvm::StringRef, std::string>> types);

} // namespace tc::codegen

#endif // TC_COMPILER_CODEGEN_KERNELTEXT_H
