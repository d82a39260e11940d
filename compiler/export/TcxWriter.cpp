//===- TcxWriter.cpp - a plan module -> the bytes of a .tcx executable -----===//

#include "compiler/export/TcxWriter.h"
#include "compiler/codegen/CudaKernel.h"
#include "compiler/codegen/HostSource.h"
#include "compiler/codegen/Preludes.h"
#include "compiler/export/CudaCompiler.h"
#include "compiler/export/HostCompiler.h"
#include "compiler/frontend/ModelDescription.h"
#include "dialects/plan/PlanDialect.h"
#include "dialects/tc/TcDialect.h"
#include "runtime/format/Contract.h"
#include "runtime/format/KernelSignature.h"
#include "runtime/format/TcxFile.h"
#include "support/HostCpu.h"
#include "tcx_generated.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cstring>

using namespace mlir;
namespace fb = flatbuffers;

namespace tc {
namespace {

tcx::DType dtypeOf(Type type) {
  if (type.isF32())
    return tcx::DType::F32;
  if (type.isF64())
    return tcx::DType::F64;
  if (type.isF16())
    return tcx::DType::F16;
  if (type.isBF16())
    return tcx::DType::BF16;
  if (type.isInteger(1))
    return tcx::DType::I1;
  if (type.isInteger(32))
    return tcx::DType::I32;
  return tcx::DType::I64;
}

static_assert(plan::kMaxBufferBytes == contract::kMaxBytes,
              "a plan buffer must fit the .tcx contract");

/// plan::Space and tcx::Space list the spaces in the same order.
tcx::Space spaceOf(plan::Space space) {
  return static_cast<tcx::Space>(static_cast<uint32_t>(space));
}

class Writer {
public:
  explicit Writer(ModuleOp module) : module(module) {}
  std::optional<std::vector<uint8_t>> write(const ExportOptions &options,
                                            std::string &error);

private:
  fb::Offset<tcx::Buffer> buffer(plan::BufferAttr attr);
  fb::Offset<tcx::Buffer> buffer(Attribute attr) {
    return buffer(cast<plan::BufferAttr>(attr));
  }
  fb::Offset<fb::Vector<fb::Offset<tcx::Buffer>>> buffers(ArrayAttr list);
  fb::Offset<fb::Vector<fb::Offset<tcx::Binding>>> bindings(Attribute list);
  fb::Offset<tcx::StepEntry> step(Operation &op);
  fb::Offset<tcx::Function> function(func::FuncOp function);
  fb::Offset<fb::Vector<fb::Offset<tcx::Parameter>>> parameters();
  std::vector<uint8_t> constants();
  /// The kernel table's entries (and kernelIndex); `sources` gets what each
  /// kernel's code is compiled from.
  std::vector<fb::Offset<tcx::Kernel>>
  kernelTable(const std::vector<codegen::NamedKernelSource> &kernels, bool cuda,
              std::vector<std::string> &sources);
  /// The kernels compiled for the target: one module per CUDA architecture
  /// (and PTX), or one host shared object.
  std::optional<std::vector<fb::Offset<tcx::CodeModule>>>
  codeModules(const ExportOptions &options, const std::string &prelude,
              const std::vector<std::string> &sources, std::string &error);
  /// What tc-run needs of the model description (none: a .mlir file).
  fb::Offset<tcx::RunConfig> runConfig(const ModelDescription *description);

  ModuleOp module;
  std::string problem; ///< set when the module holds what no .tcx can
  fb::FlatBufferBuilder fbb{1 << 16};
  llvm::StringMap<uint32_t> kernelIndex;
};

fb::Offset<tcx::Buffer> Writer::buffer(plan::BufferAttr attr) {
  std::vector<int64_t> shape(attr.getShape().begin(), attr.getShape().end());
  std::vector<int64_t> strides(attr.getStrides().begin(),
                               attr.getStrides().end());
  // What the runtime's verifier would refuse is refused here, with the fix.
  bool tooLarge = attr.getOffset() > contract::kMaxBytes;
  for (size_t d = 0; d < shape.size(); ++d)
    tooLarge |=
        shape[d] > contract::kMaxExtent || strides[d] > contract::kMaxExtent;
  if (tooLarge && problem.empty())
    problem =
        "the model is too large for a .tcx: a buffer of shape [" +
        llvm::join(
            llvm::map_range(shape, [](int64_t e) { return std::to_string(e); }),
            ", ") +
        "] at byte " + std::to_string(attr.getOffset()) +
        " exceeds the 2^40 elements per dimension and 2^50 bytes an "
        "executable may address; make d_model, d_ff or vocab_size "
        "smaller";
  return tcx::CreateBufferDirect(
      fbb, spaceOf(attr.getSpace()), attr.getOffset(),
      dtypeOf(attr.getElementType()), &shape, &strides);
}

fb::Offset<fb::Vector<fb::Offset<tcx::Buffer>>>
Writer::buffers(ArrayAttr list) {
  std::vector<fb::Offset<tcx::Buffer>> offsets;
  for (Attribute attr : list)
    offsets.push_back(buffer(attr));
  return fbb.CreateVector(offsets);
}

fb::Offset<fb::Vector<fb::Offset<tcx::Binding>>>
Writer::bindings(Attribute list) {
  std::vector<fb::Offset<tcx::Binding>> offsets;
  for (Attribute entry : cast<ArrayAttr>(list)) {
    auto dict = cast<DictionaryAttr>(entry);
    auto name =
        fbb.CreateString(dict.getAs<StringAttr>("name").getValue().str());
    offsets.push_back(
        tcx::CreateBinding(fbb, name, buffer(dict.get("buffer"))));
  }
  return fbb.CreateVector(offsets);
}

fb::Offset<tcx::StepEntry> Writer::step(Operation &op) {
  return TypeSwitch<Operation *, fb::Offset<tcx::StepEntry>>(&op)
      .Case<plan::LaunchOp>([&](plan::LaunchOp launch) {
        auto inputs = buffers(launch.getInputs());
        auto outputs = buffers(launch.getOutputs());
        std::vector<int64_t> grid(launch.getGrid().begin(),
                                  launch.getGrid().end());
        std::vector<int64_t> block(launch.getBlock().begin(),
                                   launch.getBlock().end());
        assert(kernelIndex.count(launch.getKernel()) && "a verified plan");
        auto step = tcx::CreateLaunch(
            fbb, kernelIndex.lookup(launch.getKernel()), inputs, outputs,
            fbb.CreateVector(grid), fbb.CreateVector(block));
        return tcx::CreateStepEntry(fbb, tcx::Step::Launch, step.Union());
      })
      .Case<plan::GemmOp>([&](plan::GemmOp gemm) {
        auto vector = [&](ArrayRef<int64_t> values) {
          return fbb.CreateVector(
              std::vector<int64_t>(values.begin(), values.end()));
        };
        auto lhs = buffer(gemm.getLhs()), rhs = buffer(gemm.getRhs()),
             out = buffer(gemm.getOut());
        fb::Offset<tcx::Buffer> bias;
        if (gemm.getBiasAttr())
          bias = buffer(gemm.getBiasAttr());
        auto batch = vector(gemm.getBatch());
        auto sa = vector(gemm.getLhsBatchStrides());
        auto sb = vector(gemm.getRhsBatchStrides());
        auto sc = vector(gemm.getOutBatchStrides());
        // The operand types are the buffers'; the compute type the plan's.
        auto step = tcx::CreateGemm(
            fbb, lhs, rhs, out, bias, gemm.getM(), gemm.getN(), gemm.getK(),
            gemm.getTransposeLhs(), gemm.getTransposeRhs(), gemm.getLda(),
            gemm.getLdb(), gemm.getLdc(), batch, sa, sb, sc,
            gemm.getAlpha().convertToFloat(), gemm.getBeta().convertToFloat(),
            gemm.getRelu(),
            gemm.getCompute() == plan::GemmCompute::tf32
                ? tcx::GemmCompute::TF32
                : tcx::GemmCompute::F32);
        return tcx::CreateStepEntry(fbb, tcx::Step::Gemm, step.Union());
      })
      .Case<plan::CopyOp>([&](plan::CopyOp copy) {
        auto source = buffer(copy.getSource());
        auto target = buffer(copy.getTarget());
        auto step = tcx::CreateCopy(fbb, source, target);
        return tcx::CreateStepEntry(fbb, tcx::Step::Copy, step.Union());
      })
      .Case<plan::AllReduceOp>([&](plan::AllReduceOp reduce) {
        auto step = tcx::CreateAllReduce(fbb, buffer(reduce.getBuffer()));
        return tcx::CreateStepEntry(fbb, tcx::Step::AllReduce, step.Union());
      })
      .Case<plan::WaitOp>([&](plan::WaitOp) {
        auto step = tcx::CreateWait(fbb);
        return tcx::CreateStepEntry(fbb, tcx::Step::Wait, step.Union());
      })
      .Default([&](Operation *unexpected) {
        problem = "'" + unexpected->getName().getStringRef().str() +
                  "' is not a step of the plan dialect";
        return fb::Offset<tcx::StepEntry>();
      });
}

fb::Offset<tcx::Function> Writer::function(func::FuncOp function) {
  std::vector<fb::Offset<tcx::StepEntry>> steps;
  for (Operation &op : function.getBody().front())
    if (!isa<func::ReturnOp>(op))
      steps.push_back(step(op));
  auto name = fbb.CreateString(function.getSymName().str());
  auto inputs = bindings(function->getAttr(plan::kInputsAttrName));
  auto outputs = bindings(function->getAttr(plan::kOutputsAttrName));
  auto arena =
      function->getAttrOfType<IntegerAttr>(plan::kArenaBytesAttrName).getInt();
  if (arena > contract::kMaxBytes && problem.empty())
    problem = "the model is too large for a .tcx: @" +
              function.getSymName().str() + " needs " + std::to_string(arena) +
              " bytes of activations, more than the 2^50 an executable may "
              "address; make the batches or the model smaller";
  tcx::FunctionRole role = tcx::FunctionRole::Other;
  fb::Offset<tcx::Bucket> bucket;
  if (std::optional<contract::NamedFunction> named =
          contract::parseFunctionName(function.getSymName().str())) {
    switch (named->role) {
    case contract::FunctionRole::TrainStep:
      role = tcx::FunctionRole::TrainStep;
      break;
    case contract::FunctionRole::Encode:
      role = tcx::FunctionRole::Encode;
      break;
    case contract::FunctionRole::Decode:
      role = tcx::FunctionRole::Decode;
      break;
    case contract::FunctionRole::DecodeStart:
      role = tcx::FunctionRole::DecodeStart;
      break;
    case contract::FunctionRole::DecodeStep:
      role = tcx::FunctionRole::DecodeStep;
      break;
    case contract::FunctionRole::Forward:
      break;
    }
    if (role != tcx::FunctionRole::Other)
      bucket =
          tcx::CreateBucket(fbb, named->shape.batch, named->shape.sourceLength,
                            named->shape.targetLength);
  }
  return tcx::CreateFunction(fbb, name, arena, inputs, outputs,
                             fbb.CreateVector(steps), role, bucket);
}

fb::Offset<fb::Vector<fb::Offset<tcx::Parameter>>> Writer::parameters() {
  std::vector<fb::Offset<tcx::Parameter>> table;
  auto params = module->getAttrOfType<ArrayAttr>(plan::kParamsAttrName);
  for (Attribute entry :
       params ? params : ArrayAttr::get(module.getContext(), {})) {
    auto dict = cast<DictionaryAttr>(entry);
    auto name =
        fbb.CreateString(dict.getAs<StringAttr>("name").getValue().str());
    auto place = buffer(dict.get("buffer"));
    tcx::InitKind kind = tcx::InitKind::Zeros;
    double scale = 0.0;
    if (auto init = dict.getAs<InitAttr>("init")) {
      kind = static_cast<tcx::InitKind>(static_cast<uint32_t>(init.getKind()));
      scale = init.getScale().convertToDouble();
    }
    table.push_back(tcx::CreateParameter(fbb, name, place, kind, scale));
  }
  return fbb.CreateVector(table);
}

/// The constants space: each plan.constant's elements at its offset.
std::vector<uint8_t> Writer::constants() {
  std::vector<uint8_t> bytes;
  for (plan::ConstantOp constant : module.getOps<plan::ConstantOp>()) {
    plan::BufferAttr place = constant.getBuffer();
    int64_t size = place.numElements() * place.elementBytes();
    if (int64_t(bytes.size()) < place.getOffset() + size)
      bytes.resize(place.getOffset() + size, 0);
    uint8_t *out = bytes.data() + place.getOffset();
    Type element = place.getElementType();
    auto values = cast<DenseElementsAttr>(constant.getValue());
    int64_t i = 0;
    if (isa<FloatType>(element)) {
      // The IEEE bits of each element at its own width (f16, bf16, f32, f64).
      for (APFloat value : values.getValues<APFloat>()) {
        uint64_t bits = value.bitcastToAPInt().getZExtValue();
        std::memcpy(out + place.elementBytes() * i++, &bits,
                    place.elementBytes());
      }
    } else {
      for (APInt value : values.getValues<APInt>()) {
        int64_t v =
            element.isInteger(1) ? value.getZExtValue() : value.getSExtValue();
        std::memcpy(out + place.elementBytes() * i++, &v, place.elementBytes());
      }
    }
  }
  return bytes;
}

/// Refuses options setTarget did not fill, rather than guessing them.
bool checkTarget(const ExportOptions &options, std::string &error) {
  if (options.target == Target::Cuda && options.cudaArchitectures.empty()) {
    error = "the CUDA target needs at least one architecture (setTarget)";
    return false;
  }
  if (options.target != Target::Cuda &&
      !llvm::is_contained(support::cpuLevels(), options.hostCpu)) {
    error = "the host target needs an x86-64 level, not '" + options.hostCpu +
            "' (setTarget)";
    return false;
  }
  return true;
}

/// The source of every kernel of `module` for `target`.
std::optional<std::vector<codegen::NamedKernelSource>>
emitKernels(ModuleOp module, Target target, std::string &error) {
  if (target == Target::Cuda) {
    std::vector<std::pair<std::string, std::string>> missing;
    std::vector<codegen::NamedKernelSource> kernels =
        codegen::emitCudaKernels(module, missing);
    if (!missing.empty()) {
      error =
          "kernel '" + missing.front().first + "': " + missing.front().second;
      return std::nullopt;
    }
    return kernels;
  }
  FailureOr<std::vector<codegen::NamedKernelSource>> host =
      codegen::emitHostKernels(module, error);
  if (failed(host))
    return std::nullopt;
  return std::move(*host);
}

std::vector<fb::Offset<tcx::Kernel>>
Writer::kernelTable(const std::vector<codegen::NamedKernelSource> &kernels,
                    bool cuda, std::vector<std::string> &sources) {
  std::vector<fb::Offset<tcx::Kernel>> table;
  for (const codegen::NamedKernelSource &kernel : kernels) {
    kernelIndex[kernel.name] = table.size();
    auto function = module.lookupSymbol<func::FuncOp>(kernel.name);
    std::vector<fb::Offset<tcx::TensorType>> signature;
    std::vector<tcx::ArgumentType> arguments;
    for (Type type : llvm::concat<const Type>(function.getArgumentTypes(),
                                              function.getResultTypes())) {
      auto tensor = cast<RankedTensorType>(type);
      std::vector<int64_t> shape(tensor.getShape().begin(),
                                 tensor.getShape().end());
      arguments.push_back({dtypeOf(tensor.getElementType()), shape});
      signature.push_back(
          tcx::CreateTensorTypeDirect(fbb, arguments.back().first, &shape));
    }
    // Host code declares each kernel's signature beside it, which the
    // runtime checks against this table (KernelSignature.h).
    sources.push_back(
        cuda
            ? kernel.source
            : kernel.source + "\n" +
                  tcx::hostSignatureDeclaration(
                      kernel.name, tcx::kernelSignature(
                                       function.getNumArguments(), arguments)));
    Operation &computed = function.getBody().front().front();
    std::string op = computed.getName().getStringRef().str();
    std::vector<int64_t> attributes;
    if (auto candidates = dyn_cast<tc::LogSoftmaxTopKOp>(computed))
      attributes = {int64_t(candidates.getK()),
                    int64_t(candidates.getColumn())};
    table.push_back(tcx::CreateKernelDirect(
        fbb, kernel.name.c_str(), kernel.source.c_str(),
        function.getNumArguments(), function.getNumResults(), &signature,
        op.c_str(), attributes.empty() ? nullptr : &attributes));
  }
  return table;
}

std::optional<std::vector<fb::Offset<tcx::CodeModule>>>
Writer::codeModules(const ExportOptions &options, const std::string &prelude,
                    const std::vector<std::string> &sources,
                    std::string &error) {
  std::vector<fb::Offset<tcx::CodeModule>> modules;
  if (options.target == Target::Cuda) {
    std::optional<std::vector<CudaModule>> cuda =
        compileCudaModules(prelude, sources, options.cudaArchitectures, error);
    if (!cuda)
      return std::nullopt;
    for (const CudaModule &module : *cuda)
      modules.push_back(tcx::CreateCodeModuleDirect(
          fbb, module.ptx ? tcx::CodeKind::Ptx : tcx::CodeKind::Cubin, nullptr,
          module.arch, module.options.c_str(), prelude.c_str(),
          &module.binary));
  } else {
    std::optional<HostBuild> build =
        compileHostSource(prelude, sources, options.hostCpu, error);
    if (!build)
      return std::nullopt;
    modules.push_back(tcx::CreateCodeModuleDirect(
        fbb, tcx::CodeKind::Host, options.hostCpu.c_str(), 0,
        build->command.c_str(), prelude.c_str(), &build->sharedObject));
  }
  return modules;
}

fb::Offset<tcx::RunConfig> Writer::runConfig(const ModelDescription *d) {
  if (!d)
    return {};
  std::vector<fb::Offset<tcx::Bucket>> buckets;
  for (const Bucket &bucket : d->training.buckets)
    buckets.push_back(tcx::CreateBucket(fbb, bucket.batch, bucket.sourceLength,
                                        bucket.targetLength));
  return tcx::CreateRunConfigDirect(
      fbb, d->training.steps, d->training.seed, d->training.warmupSteps,
      &buckets, d->model.vocabSize, d->model.maxLength, d->model.padId,
      d->model.bosId, d->model.eosId, d->data.synthetic.c_str(),
      d->data.train.c_str(), d->data.valid.c_str(), d->data.test.c_str(),
      d->training.accumulationSteps, modelSettingsFingerprint(d->model));
}

std::optional<std::vector<uint8_t>> Writer::write(const ExportOptions &options,
                                                  std::string &error) {
  if (!checkTarget(options, error))
    return std::nullopt;
  std::optional<support::Precision> precision = precisionOf(module);
  std::string fix;
  if (!precision) {
    error = "the module's tc.precision is not a precision; expected " +
            support::precisionChoices();
    return std::nullopt;
  }
  if (!checkPrecision(options, *precision, error, fix)) {
    error += "; " + fix;
    return std::nullopt;
  }
  // The runtime refuses an executable without functions: none is written.
  if (llvm::none_of(module.getOps<func::FuncOp>(), [](func::FuncOp f) {
        return f->hasAttr(plan::kArenaBytesAttrName);
      })) {
    error = "the module has no function (func.func) to run, and an "
            "executable needs one; give a model description or a .mlir file "
            "that defines functions";
    return std::nullopt;
  }
  std::optional<std::vector<codegen::NamedKernelSource>> kernels =
      emitKernels(module, options.target, error);
  if (!kernels)
    return std::nullopt;
  std::string prelude = codegen::kernelPrelude(options.target);
  std::vector<std::string> sources;
  // The tables in the order they always had: the same model, the same bytes.
  std::vector<fb::Offset<tcx::Kernel>> kernelOffsets =
      kernelTable(*kernels, options.target == Target::Cuda, sources);
  std::optional<std::vector<fb::Offset<tcx::CodeModule>>> moduleOffsets =
      codeModules(options, prelude, sources, error);
  if (!moduleOffsets)
    return std::nullopt;

  auto parameterTable = parameters();
  std::vector<uint8_t> constantBytes = constants();
  auto constantVector = fbb.CreateVector(constantBytes);
  std::vector<fb::Offset<tcx::Function>> functions;
  for (func::FuncOp f : module.getOps<func::FuncOp>())
    if (f->hasAttr(plan::kArenaBytesAttrName))
      functions.push_back(function(f));
  if (!problem.empty()) {
    error = problem;
    return std::nullopt;
  }
  auto functionVector = fbb.CreateVector(functions);
  auto kernelVector = fbb.CreateVector(kernelOffsets);
  auto codeVector = fbb.CreateVector(*moduleOffsets);
  auto paramBytes =
      module->getAttrOfType<IntegerAttr>(plan::kParamBytesAttrName);
  if (paramBytes && paramBytes.getInt() > contract::kMaxBytes) {
    error = "the model is too large for a .tcx: " +
            std::to_string(paramBytes.getInt()) +
            " bytes of parameters exceed the 2^50 an executable may address; "
            "make d_model, d_ff or vocab_size smaller";
    return std::nullopt;
  }
  auto paramCopyBytes =
      module->getAttrOfType<IntegerAttr>(plan::kParamCopyBytesAttrName);
  auto run = runConfig(options.description);
  auto root = tcx::CreateExecutable(
      fbb, fbb.CreateString(options.producer),
      fbb.CreateString(options.modelDescription), parameterTable,
      paramBytes ? paramBytes.getInt() : 0, constantVector, functionVector,
      kernelVector, codeVector, run,
      fbb.CreateString(std::string(support::nameOf(*precision))),
      paramCopyBytes ? paramCopyBytes.getInt() : 0);
  tcx::FinishExecutableBuffer(fbb, root);
  return tcx::wrapPayload(fbb.GetBufferPointer(), fbb.GetSize());
}

} // namespace

std::optional<std::vector<uint8_t>>
writeExecutable(ModuleOp planModule, const ExportOptions &options,
                std::string &error) {
  return Writer(planModule).write(options, error);
}

} // namespace tc
