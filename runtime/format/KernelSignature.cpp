//===- KernelSignature.cpp - what a kernel's code assumes of its arguments -===//

#include "runtime/format/KernelSignature.h"

namespace tc::tcx {

std::string kernelSignature(uint32_t inputs,
                            const std::vector<ArgumentType> &arguments) {
  std::string text;
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (i > 0)
      text += i == inputs ? " -> " : " ";
    else if (inputs == 0)
      text += "-> ";
    text += EnumNameDType(arguments[i].first);
    text += "[";
    for (size_t d = 0; d < arguments[i].second.size(); ++d)
      text += (d ? "," : "") + std::to_string(arguments[i].second[d]);
    text += "]";
  }
  return text;
}

std::string kernelSignature(const Kernel &kernel) {
  std::vector<ArgumentType> arguments;
  if (kernel.signature())
    for (const TensorType *type : *kernel.signature())
      arguments.push_back(
          {type->dtype(), type->shape()
                              ? std::vector<int64_t>(type->shape()->begin(),
                                                     type->shape()->end())
                              : std::vector<int64_t>{}});
  return kernelSignature(kernel.inputs(), arguments);
}

std::string kernelSignatureSymbol(std::string_view name) {
  return std::string(name) + "_signature";
}

std::string hostSignatureDeclaration(std::string_view name,
                                     const std::string &signature) {
  // Signatures hold only letters, digits, brackets, commas, spaces, "->".
  return "extern \"C\" const char " + kernelSignatureSymbol(name) + "[] = \"" +
         signature + "\";\n";
}

} // namespace tc::tcx
