//===- KernelText.cpp - helpers shared by the host kernel emitters --------===//

#include "compiler/codegen/KernelText.h"
#include "compiler/codegen/ExpressionEmitter.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace tc::codegen {

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

/// The index into an input of `shape` broadcast to `full`, for element `i`.
std::string broadcastIndex(ArrayRef<int64_t> shape, ArrayRef<int64_t> full) {
  if (shape == full)
    return "i";
  std::string index;
  int64_t fullStride = 1, inStride = 1;
  size_t lead = full.size() - shape.size();
  for (size_t d = full.size(); d-- > 0;) {
    int64_t extent = full[d];
    if (d >= lead && shape[d - lead] != 1)
      index +=
          llvm::formatv("{0}(i / {1} % {2}) * {3}", index.empty() ? "" : " + ",
                        fullStride, extent, inStride)
              .str();
    if (d >= lead)
      inStride *= shape[d - lead];
    fullStride *= extent;
  }
  return index.empty() ? "0" : index;
}

std::string fill(std::string text, std::initializer_list<std::string> args) {
  int index = 0;
  for (const std::string &arg : args) {
    std::string mark = "@" + std::to_string(index++);
    for (size_t at = text.find(mark); at != std::string::npos;
         at = text.find(mark, at + arg.size()))
      text.replace(at, mark.size(), arg);
  }
  return text;
}

std::string number(double v) { return llvm::formatv("{0:e17}", v).str(); }

bool hasCppTypes(Operation *op, std::string &error) {
  for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
    if (cppType(cast<RankedTensorType>(v.getType()).getElementType()).empty()) {
      error = "an element type with no C++ type here";
      return false;
    }
  return true;
}

std::string bufferDeclarations(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  unsigned k = 0;
  for (Value v : op->getOperands())
    os << llvm::formatv(
        "  const {0} *in{1} = static_cast<const {0} *>(buffers[{1}]);\n",
        cppType(cast<RankedTensorType>(v.getType()).getElementType()), k++);
  unsigned j = 0;
  for (Value v : op->getResults())
    os << llvm::formatv(
        "  {0} *out{1} = static_cast<{0} *>(buffers[{2}]);\n",
        cppType(cast<RankedTensorType>(v.getType()).getElementType()), j++,
        k++);
  return text;
}

} // namespace tc::codegen
