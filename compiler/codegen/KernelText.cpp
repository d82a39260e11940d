//===- KernelText.cpp - helpers shared by the host kernel emitters --------===//

#include "compiler/codegen/KernelText.h"
#include "compiler/codegen/ElementTypes.h"

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
std::string broadcastIndex(ArrayRef<int64_t> shape, ArrayRef<int64_t> full,
                           bool inRows) {
  int64_t row = full.empty() ? 1 : full.back();
  if (shape == full) // (inRows: kernels whose rows have no `i`)
    return inRows ? llvm::formatv("(o * {0} + k)", row).str() : "i";
  std::string index;
  int64_t fullStride = 1, inStride = 1;
  size_t lead = full.size() - shape.size();
  for (size_t d = full.size(); d-- > 0;) {
    int64_t extent = full[d];
    bool last = d + 1 == full.size();
    if (d >= lead && shape[d - lead] != 1) {
      std::string coordinate =
          !inRows ? llvm::formatv("(i / {0} % {1})", fullStride, extent).str()
          : last  ? std::string("k")
                  : llvm::formatv("(o / {0} % {1})", fullStride / row, extent)
                       .str();
      index += llvm::formatv("{0}{1} * {2}", index.empty() ? "" : " + ",
                             coordinate, inStride)
                   .str();
    }
    if (d >= lead)
      inStride *= shape[d - lead];
    fullStride *= extent;
  }
  return index.empty() ? "0" : index;
}

/// `text` with every `mark` replaced by `arg`.
static void replaceAll(std::string &text, StringRef mark,
                       const std::string &arg) {
  for (size_t at = text.find(mark); at != std::string::npos;
       at = text.find(mark, at + arg.size()))
    text.replace(at, mark.size(), arg);
}

std::string fill(std::string text, std::initializer_list<std::string> args) {
  // The last index first, so that @1 does not take the start of @10.
  for (size_t index = args.size(); index-- > 0;)
    replaceAll(text, "@" + std::to_string(index), *(args.begin() + index));
  return text;
}

std::string number(double v) { return llvm::formatv("{0:e17}", v).str(); }

bool hasCppTypes(Operation *op, const TargetBackend &backend,
                 std::string &error) {
  for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
    if (!backend.spell(v)) {
      error = "an element type with no C++ type here";
      return false;
    }
  return true;
}

std::optional<std::string>
firstComputedWider(Operation *op, llvm::function_ref<bool(Value)> stored) {
  unsigned operands = op->getNumOperands();
  for (auto [k, v] : llvm::enumerate(
           llvm::concat<Value>(op->getOperands(), op->getResults())))
    if (isComputedWider(v) && !stored(v)) {
      bool operand = k < operands;
      return llvm::formatv("{0} #{1} is {2}", operand ? "operand" : "result",
                           operand ? k : k - operands,
                           support::info(*elementTypeOf(v)).name)
          .str();
    }
  return std::nullopt;
}

std::string inputDeclaration(StringRef type, unsigned k) {
  return llvm::formatv(
      "  const {0} *in{1} = static_cast<const {0} *>(buffers[{1}]);\n", type,
      k);
}

std::string outputDeclaration(StringRef type, unsigned k, unsigned index) {
  return llvm::formatv("  {0} *out{1} = static_cast<{0} *>(buffers[{2}]);\n",
                       type, k, index);
}

std::string bufferDeclarations(Operation *op, const TargetBackend &backend) {
  std::string text;
  unsigned k = 0;
  for (Value v : op->getOperands())
    text += inputDeclaration(*backend.spell(v), k++);
  unsigned j = 0;
  for (Value v : op->getResults())
    text += outputDeclaration(*backend.spell(v), j++, k++);
  return text;
}

std::string
spellTypes(std::string text,
           std::initializer_list<std::pair<StringRef, std::string>> types) {
  for (const auto &[mark, type] : types)
    replaceAll(text, mark, type);
  return text;
}

} // namespace tc::codegen
