//===- KernelText.h - helpers shared by the host kernel emitters ----------===//

#ifndef TC_COMPILER_CODEGEN_KERNELTEXT_H
#define TC_COMPILER_CODEGEN_KERNELTEXT_H

#include "mlir/IR/Value.h"

#include <initializer_list>
#include <string>

namespace tc::codegen {

/// The shape of a tensor value.
llvm::ArrayRef<int64_t> shapeOf(mlir::Value v);

/// The C++ expression of the index into a tensor of `shape` broadcast to
/// `full`, for element `i` of `full`.
std::string broadcastIndex(llvm::ArrayRef<int64_t> shape,
                           llvm::ArrayRef<int64_t> full);

/// `text` with `@0`, `@1`, ... replaced by `args` (formatv would read the
/// braces of the C++ as its own).
std::string fill(std::string text, std::initializer_list<std::string> args);

/// A double as a C++ literal that round-trips.
std::string number(double v);

/// Whether every operand and result of `op` has a C++ element type (else
/// says so in `error`).
bool hasCppTypes(mlir::Operation *op, std::string &error);

/// Declares `in<k>` and `out<k>` for the operands and results of `op`, in
/// the kernel ABI's order (operands, then results).
std::string bufferDeclarations(mlir::Operation *op);

} // namespace tc::codegen

#endif // TC_COMPILER_CODEGEN_KERNELTEXT_H
