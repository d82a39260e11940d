//===- tc-compile.cpp - model description -> tc IR -------------------------===//
//
//   tc-compile models/transformer_base.toml --emit=tc     # the graphs:
//       @forward, @encode, @decode, @forward_grad and @train_step per bucket,
//       after the fusion passes (--fusion) and autodiff (--dump-ir shows each)
//   tc-compile models/transformer_base.toml --stats       # JSON on stdout
//   tc-compile models/transformer_base.toml --stats --gpu=h100  # and each
//       training step's predicted time on that GPU (a table on stderr)
//   tc-compile graph.mlir --emit=tc                       # a tc .mlir file
//
//   tc-compile models/tiny.toml -o tiny.tcx --target=cpu   # the executable
//   tc-compile models/tiny.toml -o tiny.tcx --precision=bf16  # bf16 GEMMs
//   tc-compile models/tiny.toml --emit=plan               # its plan
// Exit codes: 0 success, 2 bad usage or bad input, 3 cannot write the output.
//
//===----------------------------------------------------------------------===//

#include "BucketsFromData.h"
#include "compiler/analysis/Statistics.h"
#include "compiler/codegen/CudaKernel.h"
#include "compiler/codegen/HostSource.h"
#include "compiler/codegen/Preludes.h"
#include "compiler/export/TcxWriter.h"
#include "compiler/frontend/ModelDescription.h"
#include "compiler/pipeline/Compile.h"
#include "compiler/pipeline/Pipeline.h"
#include "dialects/plan/PlanDialect.h"
#include "dialects/tc/TcDialect.h"
#include "support/AtomicFile.h"
#include "support/FileBytes.h"
#include "support/NumberText.h"
#include "support/OutputPath.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <filesystem>
#include <limits>
#include <optional>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("tc-compile options");
static cl::opt<std::string>
    inputFile(cl::Positional, cl::Required,
              cl::desc("<model description .toml or tc dialect .mlir>"),
              cl::cat(category));
enum class Emit { Tc, Plan, Params, Cpp, Cuda };
static cl::opt<Emit> emit(
    "emit", cl::desc("What to print on stdout"), cl::init(Emit::Tc),
    cl::values(clEnumValN(Emit::Tc, "tc", "the graph in the tc dialect"),
               clEnumValN(Emit::Plan, "plan",
                          "the executable's plan: buffers, kernel launches "
                          "and GEMM calls (the plan dialect)"),
               clEnumValN(Emit::Cuda, "cuda",
                          "CUDA C++ of the executable's kernels that have a "
                          "CUDA skeleton so far (elementwise groups and ops); "
                          "the others are listed on stderr"),
               clEnumValN(Emit::Params, "params",
                          "the parameters as JSON: name, shape, initializer"),
               clEnumValN(Emit::Cpp, "cpp",
                          "host C++ of every generated kernel of the "
                          "executable (GEMMs are library calls)")),
    cl::cat(category));
/// --fusion's help: the names of compiler/pipeline/Pipeline.cpp.
static std::string fusionHelp() {
  return "Fusion passes to run: all (default), none, or a comma list of " +
         llvm::join(tc::fusionNames(), ", ") +
         " (qkv implies linear; param-copies needs adam; for A/B "
         "comparisons)";
}
// cl::desc keeps a reference: the text must outlive the option.
static const std::string fusionHelpText = fusionHelp();
static cl::opt<std::string> fusion("fusion", cl::desc(fusionHelpText),
                                   cl::value_desc("all|none|list"),
                                   cl::init("all"), cl::cat(category));
/// --precision's help: the table of support/Precision.h.
static std::string precisionHelp() {
  std::string help =
      "What the GEMMs read and compute in, overriding the description's "
      "[training] precision (default f32) and applied to a .mlir input:";
  for (const tc::support::PrecisionInfo &row : tc::support::kPrecisions)
    help += " " + std::string(row.name) + ": " + std::string(row.meaning) + ";";
  return help + " bf16 and tf32 on CUDA need sm_80 or newer; fp16 is not "
                "offered (it needs loss scaling)";
}
/// "f32|bf16|tf32".
static std::string precisionNames() {
  std::string names;
  for (const tc::support::PrecisionInfo &row : tc::support::kPrecisions)
    names += (names.empty() ? "" : "|") + std::string(row.name);
  return names;
}
// cl::desc and cl::value_desc keep references: the texts must outlive the
// option.
static const std::string precisionHelpText = precisionHelp();
static const std::string precisionValues = precisionNames();
static cl::opt<std::string> precisionName("precision",
                                          cl::desc(precisionHelpText),
                                          cl::value_desc(precisionValues),
                                          cl::cat(category));
static cl::opt<std::string> dumpIR(
    "dump-ir",
    cl::desc("Write the IR after the frontend and after every pass into DIR, "
             "one numbered file per pass (00-frontend.mlir, "
             "01-tc-fuse-embedding.mlir, ...)"),
    cl::value_desc("DIR"), cl::cat(category));

static cl::opt<std::string> outputFile(
    "o",
    cl::desc("Write the executable (.tcx) for --target to FILE: parameters, "
             "the plan of every function (train steps, encode, decode per "
             "bucket), kernel sources and the compiled kernels"),
    cl::value_desc("FILE"), cl::cat(category));
static cl::opt<tc::Target> target(
    "target", cl::desc("What the executable runs on (with -o)"),
    cl::init(tc::Target::Host),
    cl::values(clEnumValN(tc::Target::Host, "cpu",
                          "the host: C++ kernels built by the system "
                          "compiler (OpenMP), GEMMs through oneDNN or OpenBLAS"),
               clEnumValN(tc::Target::Cuda, "cuda",
                          "NVIDIA GPUs: CUDA kernels compiled by NVRTC to "
                          "CUBIN for --arch and PTX for the newest (tc-run "
                          "--device=cuda runs them)")),
    cl::cat(category));
static cl::opt<std::string> cpuLevel(
    "cpu",
    cl::desc("x86-64 level of --target=cpu's kernels: native (the best this "
             "machine has; the default), x86-64, x86-64-v2, x86-64-v3 "
             "(AVX2) or x86-64-v4 (AVX-512); tc-run refuses code its CPU "
             "cannot run"),
    cl::value_desc("level"), cl::init("native"), cl::cat(category));

static cl::opt<std::string> bucketsFrom(
    "buckets-from",
    cl::desc("Choose the shape buckets for the pair lengths of this token "
             "file (tc-run prepare) instead of the description's: the least "
             "padding, each batch from training.batch_tokens; prints the "
             "padding share before and after"),
    cl::value_desc("TRAIN.tok"), cl::cat(category));
// Text, read by support/NumberText.h's rule: LLVM's parser reads "0x4" and
// "010" as numbers.
static cl::opt<std::string> bucketCount(
    "bucket-count",
    cl::desc("How many buckets --buckets-from chooses, 1 to 64 (default: as "
             "many as the description has)"),
    cl::value_desc("N"), cl::cat(category));
static cl::opt<std::string> memoryBudget(
    "memory-budget",
    cl::desc("The most bytes a training step's activations and temporaries "
             "(its arena) may take, overriding [training] memory_budget: "
             "cheap activations are made again in the backward until the "
             "step fits (tc-recompute); a budget that cannot be met is "
             "refused with the smallest that can. BYTES, or a number with "
             "K, M or G (powers of 1024)"),
    cl::value_desc("BYTES"), cl::cat(category));

static cl::list<std::string> architectures(
    "arch",
    cl::desc("GPU architectures of --target=cuda (default sm_80,sm_90)"),
    cl::value_desc("sm_XX"), cl::CommaSeparated, cl::cat(category));

enum ExitCode { kSuccess = 0, kBadInput = 2, kCannotWrite = 3 };

/// The flags, checked against each other: what main reads, compiles and
/// writes.
struct Request {
  bool stats = false;
  const tc::GpuSpec *gpu = nullptr; ///< --gpu
  int64_t bucketCount = 0;          ///< --bucket-count; 0: the description's
  std::optional<int64_t> memoryBudget; ///< --memory-budget, in bytes
  /// --precision; none: the description's (or a .mlir file's own)
  std::optional<tc::support::Precision> precision;

  bool isTcFile() const {
    return llvm::StringRef(inputFile).ends_with(".mlir");
  }
  /// How far the output needs the module lowered: the plan (buffers, steps,
  /// kernels) for --emit=plan|cpp|cuda and the executable.
  tc::CompileStage stage() const {
    bool plan = emit == Emit::Plan || emit == Emit::Cpp || emit == Emit::Cuda ||
                !outputFile.empty();
    return plan && !stats ? tc::CompileStage::Plan
                          : tc::CompileStage::TrainingSteps;
  }
};

/// `options`' target from --target, --cpu and --arch; false after saying
/// what is wrong with them.
static bool setTargetFromFlags(tc::ExportOptions &options) {
  std::string error;
  if (tc::setTarget(
          options, target, cpuLevel,
          std::vector<std::string>(architectures.begin(), architectures.end()),
          error))
    return true;
  llvm::errs() << "tc-compile: error: " << error << "\n";
  return false;
}

/// Whether the flags make sense together; false after saying why not. LLVM's
/// parser takes the last of a flag given twice and an empty value as given,
/// and tc-compile reads --arch and --cpu only where they apply: each of
/// those would be ignored in silence.
static bool checkFlagUse(llvm::ArrayRef<const cl::Option *> others) {
  std::vector<const cl::Option *> single = {
      &emit,     &fusion,      &precisionName, &dumpIR,      &outputFile,
      &target,   &cpuLevel,    &bucketsFrom,   &bucketCount, &memoryBudget};
  llvm::append_range(single, others);
  for (const cl::Option *option : single)
    if (option->getNumOccurrences() > 1) {
      llvm::errs() << "tc-compile: error: " << (option->ArgStr.size() > 1 ? "--" : "-")
                   << option->ArgStr << " is given "
                   << option->getNumOccurrences()
                   << " times; give it once\n";
      return false;
    }
  for (const cl::opt<std::string> *named :
       {&outputFile, &dumpIR, &bucketsFrom})
    if (named->getNumOccurrences() && named->empty()) {
      llvm::errs() << "tc-compile: error: "
                   << (named->ArgStr.size() > 1 ? "--" : "-") << named->ArgStr
                   << " needs a path; it is empty\n";
      return false;
    }
  bool cuda = target == tc::Target::Cuda;
  if (architectures.getNumOccurrences() && !cuda) {
    llvm::errs() << "tc-compile: error: --arch chooses the GPUs of "
                    "--target=cuda; add --target=cuda or leave --arch out\n";
    return false;
  }
  if (cpuLevel.getNumOccurrences() && cuda) {
    llvm::errs() << "tc-compile: error: --cpu chooses the x86-64 level of "
                    "--target=cpu's kernels; leave it out with "
                    "--target=cuda\n";
    return false;
  }
  // The values themselves, whatever the output.
  tc::ExportOptions probe;
  return setTargetFromFlags(probe);
}

/// --memory-budget in bytes (none without it), or false after saying
/// what is wrong.
static bool parseMemoryBudget(std::optional<int64_t> &bytes) {
  if (!memoryBudget.getNumOccurrences())
    return true;
  std::string text = memoryBudget;
  int shift = 0;
  if (!text.empty() && std::string("KMG").find(text.back()) != std::string::npos) {
    shift = 10 * int(1 + std::string("KMG").find(text.back()));
    text.pop_back();
  }
  std::string error;
  std::optional<int64_t> value = tc::support::parseIntegerIn(
      text, 0, std::numeric_limits<int64_t>::max() >> shift, error);
  if (!value) {
    llvm::errs() << "tc-compile: error: --memory-budget: '" << memoryBudget
                 << "' is not a size in bytes (an integer, or one followed "
                    "by K, M or G for 2^10, 2^20, 2^30 bytes, below 2^63 "
                    "bytes; 0: no budget)\n";
    return false;
  }
  bytes = *value << shift;
  return true;
}

/// --bucket-count (0 without it), or nullopt after saying what is wrong.
static std::optional<int64_t> parseBucketCount() {
  if (!bucketCount.getNumOccurrences())
    return 0;
  if (bucketsFrom.empty()) {
    llvm::errs() << "tc-compile: error: --bucket-count needs --buckets-from "
                    "(the token file whose pair lengths the buckets are "
                    "chosen for)\n";
    return std::nullopt;
  }
  std::string error;
  std::optional<int64_t> count =
      tc::support::parseIntegerIn(bucketCount, 1, tc::kMaxBuckets, error);
  if (!count)
    llvm::errs() << "tc-compile: error: --bucket-count: " << error << "\n";
  return count;
}

/// --precision (none without it); false after saying what is wrong.
static bool parsePrecision(Request &request) {
  if (!precisionName.getNumOccurrences())
    return true;
  std::string why, fix;
  request.precision = tc::precisionFromName(precisionName, why, fix);
  if (!request.precision)
    llvm::errs() << "tc-compile: error: --precision=" << precisionName << ": "
                 << why << "\nnote: " << fix << "\n";
  return request.precision.has_value();
}

/// Whether the target runs GEMMs in `precision`, where the target matters
/// (an executable, or an explicit --target); false after saying why not,
/// and where the precision came from: --precision, or else `fromInput`
/// (the description's key, the .mlir file's record).
static bool checkPrecisionOfTarget(tc::support::Precision precision,
                                   const std::string &fromInput) {
  if (outputFile.empty() && !target.getNumOccurrences())
    return true;
  tc::ExportOptions options;
  if (!setTargetFromFlags(options)) // checkFlagUse refused it already
    return false;
  std::string error, fix;
  if (tc::checkPrecision(options, precision, error, fix))
    return true;
  std::string origin = precisionName.getNumOccurrences()
                           ? "--precision=" + precisionName
                           : fromInput;
  llvm::errs() << "tc-compile: error: " << origin << ": " << error
               << "\nnote: " << fix << "\n";
  return false;
}

/// The GPU of --gpu, which only --stats uses; false after saying what is
/// wrong.
static bool findRequestedGpu(const cl::opt<std::string> &gpuName,
                             const std::string &gpuNames, Request &request) {
  if (!gpuName.getNumOccurrences())
    return true;
  request.gpu = tc::findGpu(gpuName);
  if (!request.gpu) {
    llvm::errs() << "tc-compile: error: --gpu=" << gpuName
                 << ": expected one of " << gpuNames << "\n";
    return false;
  }
  if (!request.stats) {
    llvm::errs() << "tc-compile: error: --gpu predicts step times for "
                    "--stats; add --stats\n";
    return false;
  }
  return true;
}

/// Whether -o was there when it was checked: an earlier executable, which
/// the write replaces. Where there was none, a file that appears there
/// while the compile runs is someone else's, and is kept.
static bool outputWasThere = false;

/// Whether -o may be written and a tc file read; false after saying why not.
static bool checkFiles(const Request &request) {
  // The executable replaces -o by a rename, which must never replace an
  // input, a device such as /dev/null, a pipe, a run's files or a file that
  // is not an executable; an earlier executable is replaced, as a
  // compiler's -o does.
  std::string error;
  if (!outputFile.empty() &&
      !tc::support::checkReplaceableOutput(
          {"-o",
           outputFile,
           "the executable",
           std::string_view("TCX\0", 4),
           {{inputFile, "the input"},
            {bucketsFrom, "the token file of --buckets-from"}}},
          /*overwrite=*/true, error)) {
    llvm::errs() << "tc-compile: error: " << error << "\n";
    return false;
  }
  std::error_code ec;
  outputWasThere =
      !outputFile.empty() &&
      std::filesystem::exists(tc::support::writtenPath(outputFile), ec);
  if (request.isTcFile() &&
      !tc::support::checkInputFile(inputFile, tc::support::kGiB, error)) {
    llvm::errs() << "tc-compile: error: " << error << "\n";
    return false;
  }
  return true;
}

/// The module of a tc dialect file, lowered as far as the output needs;
/// null after the diagnostics.
static OwningOpRef<ModuleOp> readTcFile(MLIRContext &context,
                                        llvm::SourceMgr &sourceMgr,
                                        const Request &request) {
  if (fusion.getNumOccurrences() || dumpIR.getNumOccurrences() ||
      memoryBudget.getNumOccurrences()) {
    llvm::errs() << "tc-compile: error: --fusion, --dump-ir and "
                    "--memory-budget apply to model descriptions (.toml)\n"
                 << "note: to run passes on a .mlir file, use tc-opt "
                    "(e.g. tc-opt "
                 << inputFile
                 << " --tc-fuse-elementwise --mlir-print-ir-after-all, or "
                    "--tc-recompute=budget=BYTES)\n";
    return nullptr;
  }
  if (bucketsFrom.getNumOccurrences() || bucketCount.getNumOccurrences()) {
    llvm::errs() << "tc-compile: error: --buckets-from and --bucket-count "
                    "choose a model description's buckets (.toml); the "
                    "functions of "
                 << inputFile << " have their shapes already\n"
                 << "note: compile the description with --buckets-from, or "
                    "this file without the flags\n";
    return nullptr;
  }
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(inputFile, sourceMgr, &context);
  if (!module)
    return nullptr;
  if (request.precision && tc::isPlanModule(*module)) {
    llvm::errs() << "tc-compile: error: --precision applies to the tc "
                    "dialect, and "
                 << inputFile << " is a plan already\n";
    return nullptr;
  }
  std::optional<tc::support::Precision> precision =
      request.precision ? request.precision : tc::precisionOf(*module);
  if (precision &&
      !checkPrecisionOfTarget(*precision, inputFile + "'s recorded precision"))
    return nullptr;
  if (failed(tc::compileTcModule(*module, request.stage(), request.precision)))
    return nullptr;
  return module;
}

/// The description of the input file (its buckets chosen by --buckets-from
/// if given) compiled as far as the output needs; null after saying why.
static OwningOpRef<ModuleOp>
compileDescription(MLIRContext &context, const Request &request,
                   std::optional<tc::ModelDescription> &description) {
  description = tc::readModelDescription(inputFile, llvm::errs());
  if (!description)
    return nullptr;
  if (request.precision)
    description->training.precision = *request.precision;
  if (request.memoryBudget)
    description->training.memoryBudget = *request.memoryBudget;
  if (!checkPrecisionOfTarget(description->training.precision,
                              inputFile + "'s training.precision"))
    return nullptr;
  std::string error;
  if (!bucketsFrom.empty() &&
      !tc::chooseBucketsFromData(*description, bucketsFrom, request.bucketCount,
                                 error)) {
    llvm::errs() << "tc-compile: error: " << error << "\n";
    return nullptr;
  }
  std::optional<std::set<std::string>> fusions =
      tc::parseFusions(fusion, error);
  if (!fusions) {
    llvm::errs() << "tc-compile: error: --fusion=" << fusion << ": " << error
                 << "\n";
    return nullptr;
  }
  tc::CompileError failure;
  OwningOpRef<ModuleOp> module = tc::compileModelDescription(
      context, *description, {*fusions, request.stage(), dumpIR}, failure);
  if (module)
    return module;
  if (failure.kind == tc::CompileError::Kind::IRDump)
    llvm::errs() << "tc-compile: error: --dump-ir: " << failure.message << "\n";
  else if (failure.kind == tc::CompileError::Kind::MemoryBudget)
    llvm::errs() << "tc-compile: error: " << failure.message << "\n";
  else
    llvm::errs() << inputFile << ": internal error: the compiler built an "
                 << "invalid graph (see above); please report it\n";
  return nullptr;
}

/// Writes the executable of `module` for --target to -o.
static ExitCode writeExecutable(ModuleOp module,
                                const tc::ModelDescription *description) {
  tc::ExportOptions options;
  options.producer = "tc-compile 0.1";
  options.description = description;
  std::string error;
  if (!setTargetFromFlags(options))
    return kBadInput;
  if (auto text = llvm::MemoryBuffer::getFile(inputFile))
    options.modelDescription = (*text)->getBuffer().str();
  // What tc-inspect shows must say which buckets were compiled.
  if (!bucketsFrom.empty() && description)
    options.modelDescription += "\n# tc-compile --buckets-from " + bucketsFrom +
                                " compiled these instead:\n# " +
                                tc::bucketsAsToml(*description) + "\n";
  std::optional<std::vector<uint8_t>> bytes =
      tc::writeExecutable(module, options, error);
  if (!bytes) {
    llvm::errs() << inputFile << ": error: " << error << "\n";
    return kBadInput;
  }
  if (!tc::support::writeFileAtomically(
          outputFile, bytes->data(), bytes->size(), error,
          tc::support::Durability::Replace,
          tc::support::ifPresentFor(outputWasThere))) {
    llvm::errs() << "tc-compile: error: " << error << "\n";
    return kCannotWrite;
  }
  llvm::errs() << "tc-compile: wrote " << outputFile << " (" << bytes->size()
               << " bytes)\n";
  return kSuccess;
}

/// Prints on stdout what --stats or --emit asks for.
static ExitCode printOutput(ModuleOp module, const Request &request) {
  if (request.stats) {
    llvm::json::Value stats =
        tc::moduleStatistics(module, request.gpu, llvm::errs());
    llvm::outs() << llvm::formatv("{0:2}", stats) << "\n";
  } else if (emit == Emit::Cpp) {
    std::string error;
    FailureOr<std::string> source = tc::codegen::emitHostSource(module, error);
    if (failed(source)) {
      llvm::errs() << inputFile << ": error: " << error << "\n";
      return kBadInput;
    }
    llvm::outs() << *source;
  } else if (emit == Emit::Cuda) {
    std::vector<std::pair<std::string, std::string>> missing;
    std::vector<tc::codegen::NamedKernelSource> kernels =
        tc::codegen::emitCudaKernels(module, missing);
    llvm::outs() << tc::codegen::kernelPrelude(tc::Target::Cuda);
    for (const tc::codegen::NamedKernelSource &kernel : kernels)
      llvm::outs() << "\n" << kernel.source;
    for (const auto &[name, why] : missing)
      llvm::errs() << "tc-compile: note: kernel " << name << ": " << why
                   << "\n";
    llvm::errs() << "tc-compile: " << kernels.size() << " CUDA kernels, "
                 << missing.size() << " without a CUDA skeleton yet\n";
  } else if (emit == Emit::Params) {
    llvm::outs() << llvm::formatv("{0:2}",
                                  llvm::json::Value(tc::parameterTable(module)))
                 << "\n";
  } else {
    module.print(llvm::outs());
  }
  return kSuccess;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  // LLVM registers its own -stats (pass statistics) while hiding options;
  // tc-compile's --stats prints the model's statistics instead.
  if (cl::Option *llvmStats = cl::getRegisteredOptions().lookup("stats"))
    llvmStats->removeArgument();
  cl::opt<bool> stats(
      "stats",
      cl::desc("Print one JSON object of statistics on stdout instead of IR: "
               "params (scalar count), param_tensors, precision, per "
               "function the op counts, kernels (generated, gemm) and "
               "non_gemm_bytes, and "
               "those of the first bucket's training step with its memory "
               "plan: peak_activation_bytes, arena_bytes, no_reuse_bytes"),
      cl::cat(category));
  std::string gpuNames;
  for (const tc::GpuSpec &gpu : tc::knownGpus())
    gpuNames += (gpuNames.empty() ? "" : ", ") + gpu.name.str();
  // cl::desc keeps a reference: the text must outlive the option.
  std::string gpuHelp =
      "With --stats: predict each training step's time on this GPU (" +
      gpuNames +
      ") from its datasheet, with f32, TF32 and bf16 GEMMs; adds "
      "gpu_prediction to the JSON and prints a table on stderr "
      "(docs/performance.md)";
  cl::opt<std::string> gpuName("gpu", cl::desc(gpuHelp),
                               cl::value_desc("name"), cl::cat(category));
  cl::ParseCommandLineOptions(
      argc, argv,
      "tc-compile: build the tc graph of a model description (.toml) or read "
      "a tc dialect file (.mlir)\n");

  if (!checkFlagUse({&gpuName}))
    return kBadInput;
  Request request;
  request.stats = stats;
  std::optional<int64_t> count = parseBucketCount();
  if (!count)
    return kBadInput;
  request.bucketCount = *count;
  if (!parsePrecision(request))
    return kBadInput;
  if (!parseMemoryBudget(request.memoryBudget))
    return kBadInput;
  if (!findRequestedGpu(gpuName, gpuNames, request))
    return kBadInput;

  MLIRContext context;
  context
      .loadDialect<tc::TcDialect, tc::plan::PlanDialect, func::FuncDialect>();
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  if (!checkFiles(request))
    return kBadInput;

  std::optional<tc::ModelDescription> description;
  OwningOpRef<ModuleOp> module =
      request.isTcFile() ? readTcFile(context, sourceMgr, request)
                         : compileDescription(context, request, description);
  if (!module)
    return kBadInput;
  if (!outputFile.empty() && !stats)
    return writeExecutable(*module, description ? &*description : nullptr);
  return printOutput(*module, request);
}
