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
//   tc-compile models/tiny.toml --emit=plan               # its plan
// Exit codes: 0 success, 2 bad usage or bad input, 3 cannot write the output.
//
//===----------------------------------------------------------------------===//

#include "compiler/analysis/BufferAssignment.h"
#include "compiler/analysis/GpuPrediction.h"
#include "compiler/analysis/KernelCount.h"
#include "compiler/analysis/MemoryPlan.h"
#include "compiler/codegen/CudaKernel.h"
#include "compiler/codegen/HostSource.h"
#include "compiler/codegen/Preludes.h"
#include "compiler/export/TcxWriter.h"
#include "BucketsFromData.h"
#include "compiler/frontend/ModelDescription.h"
#include "compiler/frontend/TransformerBuilder.h"
#include "compiler/pipeline/IRDump.h"
#include "compiler/pipeline/Pipeline.h"
#include "compiler/transforms/Passes.h"
#include "dialects/plan/PlanDialect.h"
#include "dialects/tc/TcDialect.h"
#include "runtime/format/Contract.h"
#include "support/AtomicFile.h"
#include "support/FileBytes.h"
#include "support/NumberText.h"
#include "support/OutputPath.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <unistd.h>

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
static cl::opt<std::string> fusion(
    "fusion",
    cl::desc("Fusion passes to run: all (default), none, or a comma list of "
             "embedding, linear, qkv (implies linear), masked-softmax, "
             "residual-layer-norm, adam, elementwise (for A/B comparisons)"),
    cl::value_desc("all|none|list"), cl::init("all"), cl::cat(category));
static cl::opt<std::string> dumpIR(
    "dump-ir",
    cl::desc(
        "Write the IR after the frontend and after every pass into DIR, "
        "one numbered file per pass (00-frontend.mlir, 01-tc-autodiff.mlir, "
        "...)"),
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
    cl::value_desc("level"), cl::init("native"));

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
/// Every bucket is compiled into the executable (a train step, an encoder
/// and decoders each), as every layer is: the same bound.
constexpr int64_t kMaxBucketCount = 64;

static cl::list<std::string> architectures(
    "arch",
    cl::desc("GPU architectures of --target=cuda (default sm_80,sm_90)"),
    cl::value_desc("sm_XX"), cl::CommaSeparated, cl::cat(category));

enum ExitCode { kSuccess = 0, kBadInput = 2, kCannotWrite = 3 };

/// Whether the requested output needs the plan (buffers, steps, kernels).
static bool lowersToPlan() {
  return emit == Emit::Plan || emit == Emit::Cpp || emit == Emit::Cuda ||
         !outputFile.empty();
}

/// The parameters (taken from the first function: every function has the
/// same ones): name, shape and initializer, in argument order.
static llvm::json::Array paramTable(ModuleOp module) {
  llvm::json::Array table;
  auto functions = module.getOps<func::FuncOp>();
  if (functions.empty())
    return table;
  func::FuncOp function = *functions.begin();
  for (unsigned i = 0; i < function.getNumArguments(); ++i) {
    auto name = function.getArgAttrOfType<StringAttr>(i, tc::kParamAttrName);
    if (!name)
      continue;
    auto type = cast<RankedTensorType>(function.getArgumentTypes()[i]);
    std::string init;
    llvm::raw_string_ostream os(init);
    if (Attribute attr = function.getArgAttr(i, tc::kInitAttrName))
      attr.print(os);
    table.push_back(
        llvm::json::Object{{"name", name.getValue()},
                           {"shape", llvm::json::Array(type.getShape())},
                           {"elements", type.getNumElements()},
                           {"init", init}});
  }
  return table;
}

static llvm::json::Object kernelsJson(const tc::KernelCount &count) {
  return llvm::json::Object{{"generated", count.generated},
                            {"gemm", count.gemm}};
}

static llvm::json::Object statistics(ModuleOp module, const tc::GpuSpec *gpu) {
  llvm::json::Array params = paramTable(module);
  int64_t scalars = 0;
  for (const llvm::json::Value &p : params)
    scalars += *p.getAsObject()->getInteger("elements");
  // name -> {"ops": {op name -> count}, "kernels": ..., "non_gemm_bytes": ...}
  llvm::json::Object functions;
  std::optional<tc::KernelCount> firstStep; // of the first bucket
  std::optional<tc::MemoryPlan> firstPlan;
  for (func::FuncOp function : module.getOps<func::FuncOp>()) {
    std::map<std::string, int64_t> counts;
    function.walk([&](Operation *op) {
      if (op != function.getOperation())
        ++counts[op->getName().getStringRef().str()];
    });
    llvm::json::Object ops;
    for (auto &[name, count] : counts)
      ops[name] = count;
    tc::KernelCount kernels = tc::countKernels(function);
    llvm::json::Object bytesByOp;
    for (auto &[name, bytes] : kernels.bytesByOp)
      bytesByOp[name] = bytes;
    functions[function.getSymName()] =
        llvm::json::Object{{"ops", std::move(ops)},
                           {"kernels", kernelsJson(kernels)},
                           {"non_gemm_bytes", kernels.nonGemmBytes},
                           {"non_gemm_bytes_by_op", std::move(bytesByOp)}};
    if (!firstStep &&
        function.getSymName().starts_with(tc::contract::functionNamePrefix(
            tc::contract::FunctionRole::TrainStep))) {
      firstStep = kernels;
      firstPlan = tc::planMemory(function, tc::BufferAssignment(function));
    }
  }
  llvm::json::Object stats{{"params", scalars},
                           {"param_tensors", int64_t(params.size())},
                           {"functions", std::move(functions)}};
  if (firstStep) { // one training step of the first bucket
    stats["kernels"] = kernelsJson(*firstStep);
    stats["non_gemm_bytes"] = firstStep->nonGemmBytes;
    stats["peak_activation_bytes"] = firstPlan->peakBytes;
    stats["arena_bytes"] = firstPlan->arenaBytes;
    stats["no_reuse_bytes"] = firstPlan->noReuseBytes;
  }
  if (gpu)
    stats["gpu_prediction"] = tc::predictTrainingSteps(module, *gpu, llvm::errs());
  return stats;
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
               "params (scalar count), param_tensors, per function the op "
               "counts, kernels (generated, gemm) and non_gemm_bytes, and "
               "those of the first bucket's training step with its memory "
               "plan: peak_activation_bytes, arena_bytes, no_reuse_bytes"),
      cl::cat(category));
  std::string gpuNames;
  for (const tc::GpuSpec &gpu : tc::knownGpus())
    gpuNames += (gpuNames.empty() ? "" : ", ") + gpu.name.str();
  cl::opt<std::string> gpuName(
      "gpu",
      cl::desc("With --stats: predict each training step's time on this GPU "
               "(" + gpuNames + ") from its datasheet, with f32, TF32 and bf16 "
               "GEMMs; adds gpu_prediction to the JSON and prints a table on "
               "stderr (docs/performance.md)"),
      cl::value_desc("name"), cl::cat(category));
  cl::ParseCommandLineOptions(
      argc, argv,
      "tc-compile: build the tc graph of a model description (.toml) or read "
      "a tc dialect file (.mlir)\n");

  int64_t buckets = 0; // --bucket-count; 0: the description's count
  if (bucketCount.getNumOccurrences()) {
    if (bucketsFrom.empty()) {
      llvm::errs() << "tc-compile: error: --bucket-count needs --buckets-from "
                      "(the token file whose pair lengths the buckets are "
                      "chosen for)\n";
      return kBadInput;
    }
    std::string error;
    std::optional<int64_t> count =
        tc::support::parseIntegerIn(bucketCount, 1, kMaxBucketCount, error);
    if (!count) {
      llvm::errs() << "tc-compile: error: --bucket-count: " << error << "\n";
      return kBadInput;
    }
    buckets = *count;
  }

  const tc::GpuSpec *gpu = nullptr;
  if (gpuName.getNumOccurrences()) {
    gpu = tc::findGpu(gpuName);
    if (!gpu) {
      llvm::errs() << "tc-compile: error: --gpu=" << gpuName
                   << ": expected one of " << gpuNames << "\n";
      return kBadInput;
    }
    if (!stats) {
      llvm::errs() << "tc-compile: error: --gpu predicts step times for "
                      "--stats; add --stats\n";
      return kBadInput;
    }
  }

  MLIRContext context;
  context
      .loadDialect<tc::TcDialect, tc::plan::PlanDialect, func::FuncDialect>();
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);

  // The executable replaces -o by a rename, which must never replace an
  // input, a device such as /dev/null, a pipe, a run's files or a file that
  // is not an executable; an earlier executable is replaced, as a
  // compiler's -o does.
  std::string inputError;
  if (!outputFile.empty() &&
      !tc::support::checkReplaceableOutput(
          {"-o",
           outputFile,
           "the executable",
           std::string_view("TCX\0", 4),
           {{inputFile, "the input"},
            {bucketsFrom, "the token file of --buckets-from"}}},
          /*overwrite=*/true, inputError)) {
    llvm::errs() << "tc-compile: error: " << inputError << "\n";
    return kBadInput;
  }
  if (llvm::StringRef(inputFile).ends_with(".mlir") &&
      !tc::support::checkInputFile(inputFile, tc::support::kGiB, inputError)) {
    llvm::errs() << "tc-compile: error: " << inputError << "\n";
    return kBadInput;
  }

  OwningOpRef<ModuleOp> module;
  std::optional<tc::ModelDescription> description;
  if (llvm::StringRef(inputFile).ends_with(".mlir")) {
    if (fusion.getNumOccurrences() || dumpIR.getNumOccurrences()) {
      llvm::errs() << "tc-compile: error: --fusion and --dump-ir apply to "
                      "model descriptions (.toml)\n"
                   << "note: to run passes on a .mlir file, use tc-opt "
                      "(e.g. tc-opt "
                   << inputFile
                   << " --tc-fuse-elementwise --mlir-print-ir-after-all)\n";
      return kBadInput;
    }
    module = parseSourceFile<ModuleOp>(inputFile, sourceMgr, &context);
  } else {
    description = tc::readModelDescription(inputFile, llvm::errs());
    if (!description)
      return kBadInput;
    std::string error;
    if (!bucketsFrom.empty() &&
        !tc::chooseBucketsFromData(*description, bucketsFrom, buckets, error)) {
      llvm::errs() << "tc-compile: error: " << error << "\n";
      return kBadInput;
    }
    std::optional<std::set<std::string>> fusions =
        tc::parseFusions(fusion, error);
    if (!fusions) {
      llvm::errs() << "tc-compile: error: --fusion=" << fusion << ": " << error
                   << "\n";
      return kBadInput;
    }
    module = tc::buildTransformer(context, *description);
    PassManager pm(&context);
    tc::addTrainingPipeline(pm, *description, *fusions);
    if (lowersToPlan() && !stats)
      tc::addPlanPipeline(pm,
                          tc::allreduceBucketBytes(description->training));
    if (!dumpIR.empty() &&
        !tc::enableIRDump(pm, *module, dumpIR, "frontend", error)) {
      llvm::errs() << "tc-compile: error: --dump-ir: " << error << "\n";
      return kBadInput;
    }
    if (failed(verify(*module)) || failed(pm.run(*module))) {
      llvm::errs() << inputFile << ": internal error: the compiler built an "
                   << "invalid graph (see above); please report it\n";
      return kBadInput;
    }
  }
  if (!module)
    return kBadInput;
  if (lowersToPlan() && !stats &&
      !(*module)->hasAttr(tc::plan::kParamBytesAttrName) &&
      llvm::StringRef(inputFile).ends_with(".mlir")) {
    PassManager pm(&context);
    pm.addPass(tc::createTcLowerToPlan()); // every function of the file
    if (failed(pm.run(*module)))
      return kBadInput;
  }

  if (!outputFile.empty() && !stats) {
    tc::ExportOptions options;
    options.producer = "tc-compile 0.1";
    options.description = description ? &*description : nullptr;
    std::string error;
    if (!tc::setTarget(options, target, cpuLevel,
                       std::vector<std::string>(architectures.begin(),
                                                architectures.end()),
                       error)) {
      llvm::errs() << "tc-compile: error: " << error << "\n";
      return kBadInput;
    }
    if (auto text = llvm::MemoryBuffer::getFile(inputFile))
      options.modelDescription = (*text)->getBuffer().str();
    // What tc-inspect shows must say which buckets were compiled.
    if (!bucketsFrom.empty())
      options.modelDescription += "\n# tc-compile --buckets-from " +
                                  bucketsFrom + " compiled these instead:\n# " +
                                  tc::bucketsAsToml(*description) + "\n";
    std::optional<std::vector<uint8_t>> bytes =
        tc::writeExecutable(*module, options, error);
    if (!bytes) {
      llvm::errs() << inputFile << ": error: " << error << "\n";
      return kBadInput;
    }
    if (!tc::support::writeFileAtomically(outputFile, bytes->data(),
                                          bytes->size(), error)) {
      llvm::errs() << "tc-compile: error: " << error << "\n";
      return kCannotWrite;
    }
    llvm::errs() << "tc-compile: wrote " << outputFile << " (" << bytes->size()
                 << " bytes)\n";
    return kSuccess;
  }
  if (stats) {
    llvm::outs() << llvm::formatv("{0:2}",
                                  llvm::json::Value(statistics(*module, gpu)))
                 << "\n";
  } else if (emit == Emit::Cpp) {
    std::string error;
    FailureOr<std::string> source = tc::codegen::emitHostSource(*module, error);
    if (failed(source)) {
      llvm::errs() << inputFile << ": error: " << error << "\n";
      return kBadInput;
    }
    llvm::outs() << *source;
  } else if (emit == Emit::Cuda) {
    std::vector<std::pair<std::string, std::string>> missing;
    std::vector<tc::codegen::NamedKernelSource> kernels =
        tc::codegen::emitCudaKernels(*module, missing);
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
                                  llvm::json::Value(paramTable(*module)))
                 << "\n";
  } else {
    module->print(llvm::outs());
  }
  return kSuccess;
}
