//===- tc-interpret.cpp - run a tc function on .npy inputs ----------------===//
//
//   tc-interpret model.mlir --function=forward --params-dir=weights/ \
//       --input=src.npy --input=tgt.npy --output-dir=out/
//
// Parameters (arguments with a tc.param name) are read from
// <params-dir>/<name>.npy; the other arguments come from --input, in order.
// Results are written as <output-dir>/result<i>.npy and/or printed (--print).
// Exit codes: 0 success, 1 the run failed (e.g. an id out of range), 2 bad
// usage or bad input.
//
//===----------------------------------------------------------------------===//

#include "compiler/interpreter/Interpreter.h"
#include "compiler/interpreter/Npy.h"
#include "dialects/tc/TcDialect.h"
#include "support/FileBytes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cinttypes>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("tc-interpret options");
static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<file.mlir>"),
                                      cl::cat(category));
static cl::opt<std::string>
    functionName("function",
                 cl::desc("Function to run (default: the module's only one)"),
                 cl::value_desc("name"), cl::cat(category));
static cl::list<std::string>
    inputs("input",
           cl::desc("A .npy file for the next argument that is not a "
                    "parameter (repeat, in argument order)"),
           cl::value_desc("file.npy"), cl::cat(category));
static cl::opt<std::string>
    paramsDir("params-dir",
              cl::desc("Directory with <tc.param name>.npy for each parameter"),
              cl::value_desc("dir"), cl::cat(category));
static cl::opt<std::string>
    outputDir("output-dir", cl::desc("Write result<i>.npy into this directory"),
              cl::value_desc("dir"), cl::cat(category));
static cl::opt<bool> print("print", cl::desc("Print the results as text"),
                           cl::cat(category));

enum ExitCode { kSuccess = 0, kRunFailed = 1, kBadInput = 2 };

/// Prints a tensor as nested lists, six significant digits, like NumPy.
static void printTensor(llvm::raw_ostream &os, const tc::Tensor &t) {
  tc::Shape strides = tc::stridesOf(t.shape);
  for (int64_t i = 0; i < t.size(); ++i) {
    for (size_t d = 0; d < t.shape.size(); ++d)
      if (i % (strides[d] * t.shape[d]) == 0)
        os << "[";
    char buf[32];
    if (tc::isFloat(t.dtype))
      snprintf(buf, sizeof buf, "%.6g", t.floats[i]);
    else
      snprintf(buf, sizeof buf, "%" PRId64, t.ints[i]);
    os << buf;
    size_t closed = 0;
    for (size_t d = t.shape.size(); d-- > 0;) {
      if ((i + 1) % (strides[d] * t.shape[d]) != 0)
        break;
      os << "]";
      ++closed;
    }
    if (i + 1 < t.size())
      os << (closed ? ",\n" + std::string(t.shape.size() - closed, ' ') : ", ");
  }
  os << "\n";
}

/// The text of the input file, or of the standard input for "-"; null
/// after saying why not. A directory or a device (/dev/zero) is refused
/// before it is read.
static std::unique_ptr<llvm::MemoryBuffer> readInput() {
  if (inputFile == "-") {
    auto stdinBuffer = llvm::MemoryBuffer::getSTDIN();
    if (!stdinBuffer) {
      llvm::errs() << "error: cannot read the standard input: "
                   << stdinBuffer.getError().message() << "\n";
      return nullptr;
    }
    return std::move(*stdinBuffer);
  }
  std::string error;
  std::optional<std::string> text =
      tc::support::readFileText(inputFile, tc::support::kGiB, error);
  if (!text) {
    llvm::errs() << "error: " << error << "\n";
    return nullptr;
  }
  return llvm::MemoryBuffer::getMemBufferCopy(*text, inputFile);
}

/// The function of --function, else the module's only one; null after
/// saying why not.
static func::FuncOp chooseFunction(ModuleOp module) {
  if (!functionName.empty()) {
    auto function = module.lookupSymbol<func::FuncOp>(functionName);
    if (!function)
      llvm::errs() << inputFile << ": error: no function @" << functionName
                   << "\n";
    return function;
  }
  auto functions = module.getOps<func::FuncOp>();
  auto count = std::distance(functions.begin(), functions.end());
  if (count != 1) {
    llvm::errs() << inputFile << ": error: the module has "
                 << (count ? "several functions" : "no function")
                 << "; name one with --function=NAME\n";
    return nullptr;
  }
  return *functions.begin();
}

/// The arguments of `function`: parameters from --params-dir and the rest
/// from --input, in order; nullopt after saying what is missing or wrong.
static std::optional<std::vector<tc::Tensor>>
readArguments(func::FuncOp function) {
  std::vector<tc::Tensor> args;
  size_t nextInput = 0;
  for (unsigned i = 0; i < function.getNumArguments(); ++i) {
    std::string path;
    if (auto name =
            function.getArgAttrOfType<StringAttr>(i, tc::kParamAttrName);
        name && !paramsDir.empty()) {
      llvm::SmallString<256> p(paramsDir);
      llvm::sys::path::append(p, name.getValue() + ".npy");
      path = p.str().str();
    } else if (nextInput < inputs.size()) {
      path = inputs[nextInput++];
    } else {
      llvm::errs() << inputFile << ": error: @" << function.getSymName()
                   << " argument #" << i << " ("
                   << function.getArgumentTypes()[i] << ") has no value\n"
                   << "note: give one more --input=FILE.npy"
                   << (paramsDir.empty() ? ", or --params-dir=DIR for "
                                           "parameters"
                                         : "")
                   << "\n";
      return std::nullopt;
    }
    std::string error;
    std::optional<tc::Tensor> tensor = tc::readNpy(path, error);
    if (!tensor) {
      llvm::errs() << "error: " << error << "\n";
      return std::nullopt;
    }
    args.push_back(std::move(*tensor));
  }
  if (nextInput < inputs.size()) {
    llvm::errs() << inputFile << ": error: " << inputs.size() - nextInput
                 << " --input file(s) more than @" << function.getSymName()
                 << " has arguments for\n";
    return std::nullopt;
  }
  return args;
}

/// Prints the results (--print) and writes them into --output-dir.
static ExitCode writeResults(const std::vector<tc::Tensor> &results) {
  if (!outputDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir)) {
      llvm::errs() << "error: cannot create " << outputDir << ": "
                   << ec.message() << "\n";
      return kBadInput;
    }
  }
  for (auto [index, result] : llvm::enumerate(results)) {
    if (print) {
      llvm::outs() << "result #" << index << ": " << tc::dtypeName(result.dtype)
                   << " " << tc::formatShape(result.shape) << "\n";
      printTensor(llvm::outs(), result);
    }
    if (!outputDir.empty()) {
      llvm::SmallString<256> path(outputDir);
      llvm::sys::path::append(path, "result" + std::to_string(index) + ".npy");
      std::string error;
      if (!tc::writeNpy(path.str().str(), result, error)) {
        llvm::errs() << "error: " << error << "\n";
        return kRunFailed;
      }
    }
  }
  return kSuccess;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tc-interpret: run a function of a tc .mlir file on .npy inputs with the "
      "reference interpreter\n");

  MLIRContext context;
  context.loadDialect<tc::TcDialect, func::FuncDialect>();
  context.printOpOnDiagnostic(false); // the location says where
  std::unique_ptr<llvm::MemoryBuffer> buffer = readInput();
  if (!buffer)
    return kBadInput;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return kBadInput; // the parser or verifier has reported where and why

  func::FuncOp function = chooseFunction(*module);
  if (!function)
    return kBadInput;
  std::optional<std::vector<tc::Tensor>> args = readArguments(function);
  if (!args)
    return kBadInput;
  FailureOr<std::vector<tc::Tensor>> results = tc::interpret(function, *args);
  if (failed(results))
    return kRunFailed;
  return writeResults(*results);
}
