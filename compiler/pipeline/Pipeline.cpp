//===- Pipeline.cpp - the passes tc-compile runs on a model ----------------===//

#include "compiler/pipeline/Pipeline.h"
#include "compiler/transforms/Passes.h"
#include "runtime/format/Contract.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"

namespace tc {

const std::vector<std::string> &fusionNames() {
  static const std::vector<std::string> names = {
      "embedding",           "linear", "qkv",        "masked-softmax",
      "residual-layer-norm", "log-softmax-top-k", "embedding-grad", "adam",
      "elementwise",         "convert",           "loss-grad",      "param-copies"};
  return names;
}

std::optional<std::set<std::string>> parseFusions(const std::string &spec,
                                                  std::string &error) {
  const std::vector<std::string> &known = fusionNames();
  if (spec == "all")
    return std::set<std::string>(known.begin(), known.end());
  std::set<std::string> chosen;
  if (spec == "none")
    return chosen;
  for (llvm::StringRef name : llvm::split(spec, ',')) {
    name = name.trim();
    if (!name.consume_front("tc-fuse-"))
      name.consume_front("tc-use-");
    if (llvm::find(known, name.str()) == known.end()) {
      error = "unknown fusion '" + name.str() +
              "'; use none, all, or a comma "
              "list of " +
              llvm::join(known, ", ");
      return std::nullopt;
    }
    chosen.insert(name.str());
  }
  return chosen;
}

void addTrainingPipeline(mlir::OpPassManager &pm,
                         const ModelDescription &description,
                         const std::set<std::string> &fusions) {
  const ModelConfig &m = description.model;
  const TrainingConfig &t = description.training;
  // The forward fusions run before autodiff: each fused op's reverse rule
  // then builds the fused backward.
  if (fusions.count("embedding"))
    pm.addPass(createTcFuseEmbedding());
  if (fusions.count("linear"))
    pm.addPass(createTcFuseLinear());
  if (fusions.count("qkv")) { // needs the projections as tc.linear
    if (!fusions.count("linear"))
      pm.addPass(createTcFuseLinear());
    pm.addPass(createTcFuseQkv());
  }
  if (fusions.count("masked-softmax"))
    pm.addPass(createTcFuseMaskedSoftmax());
  if (fusions.count("residual-layer-norm"))
    pm.addPass(createTcFuseResidualLayerNorm());
  if (fusions.count("log-softmax-top-k")) // the decoder step's
    pm.addPass(createTcFuseLogSoftmaxTopK());
  // On the fused forward graph (and the decoder's functions, in the same
  // module), so that autodiff differentiates through the conversions.
  TcApplyPrecisionOptions precision;
  precision.precision = std::string(support::nameOf(t.precision));
  pm.addPass(createTcApplyPrecision(precision));
  pm.addPass(createTcAutodiff());
  TcBuildTrainStepOptions step;
  step.dModel = m.dModel;
  step.warmupSteps = t.warmupSteps;
  step.learningRateScale = t.learningRateScale;
  step.adamBeta1 = t.adamBeta1;
  step.adamBeta2 = t.adamBeta2;
  step.adamEpsilon = t.adamEpsilon;
  step.gradientClip = t.gradientClip;
  step.accumulationSteps = t.accumulationSteps;
  pm.addPass(createTcBuildTrainStep(step));
  if (fusions.count("embedding-grad"))
    pm.addPass(createTcFuseEmbeddingGrad());
  if (fusions.count("adam"))
    pm.addPass(createTcFuseAdam());
  if (fusions.count("elementwise"))
    pm.addPass(createTcFuseElementwise());
  if (fusions.count("convert"))
    pm.addPass(createTcFuseConvert());
  if (fusions.count("loss-grad"))
    pm.addPass(createTcFuseLossGrad());
  // The copies are written by the fused Adam.
  if (fusions.count("param-copies") && fusions.count("adam"))
    pm.addPass(createTcUseParamCopies());
  // Last: the budget is of the arena the step's final ops make.
  if (t.memoryBudget > 0) {
    TcRecomputeOptions recompute;
    recompute.budget = t.memoryBudget;
    recompute.diagnose = false; // tc-compile says it (CompileError)
    pm.addPass(createTcRecompute(recompute));
  }
}

namespace {

struct TrainingPipelineOptions
    : public mlir::PassPipelineOptions<TrainingPipelineOptions> {
  Option<std::string> description{
      *this, "description",
      llvm::cl::desc("The model description (.toml) whose model and training "
                     "settings configure the training step")};
  Option<std::string> fusion{
      *this, "fusion",
      llvm::cl::desc("Fusions to run: all, none, or a comma list (as "
                     "tc-compile --fusion)"),
      llvm::cl::init("all")};
};

mlir::LogicalResult buildTrainingPipeline(
    mlir::OpPassManager &pm, llvm::StringRef text,
    llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)> fail) {
  TrainingPipelineOptions options;
  if (mlir::failed(options.parseFromString(text)))
    return mlir::failure();
  if (options.description.empty())
    return fail("tc-training-pipeline needs the model description: "
                "--tc-training-pipeline=\"description=MODEL.toml\"");
  std::string messages;
  llvm::raw_string_ostream stream(messages);
  std::optional<ModelDescription> description =
      readModelDescription(options.description, stream);
  if (!description)
    return fail(messages);
  std::string error;
  std::optional<std::set<std::string>> fusions =
      parseFusions(options.fusion, error);
  if (!fusions)
    return fail("tc-training-pipeline: fusion=" + options.fusion + ": " +
                error);
  addTrainingPipeline(pm, *description, *fusions);
  return mlir::success();
}

} // namespace

void registerTcPipelines() {
  mlir::registerPassPipeline(
      "tc-training-pipeline",
      "tc-compile's passes from the frontend's graph to the training steps: "
      "forward fusions, tc-apply-precision (the description's precision), "
      "tc-autodiff, tc-build-train-step configured from the description, the "
      "fusions of the whole step",
      buildTrainingPipeline,
      [](llvm::function_ref<void(const mlir::detail::PassOptions &)> print) {
        print(TrainingPipelineOptions());
      });
  mlir::PassPipelineRegistration<>(
      "tc-plan-pipeline",
      "tc-compile's lowering of the executable's functions (train steps, "
      "encode, decode) to the plan dialect",
      [](mlir::OpPassManager &pm) { addPlanPipeline(pm); });
}

int64_t allreduceBucketBytes(const TrainingConfig &training) {
  return int64_t(training.allreduceBucketMb * double(1 << 20));
}

void addPlanPipeline(mlir::OpPassManager &pm, int64_t allreduceBucketBytes) {
  TcLowerToPlanOptions options;
  options.bucketBytes = allreduceBucketBytes;
  using contract::FunctionRole;
  for (FunctionRole role :
       {FunctionRole::TrainStep, FunctionRole::Encode, FunctionRole::Decode})
    options.functions.push_back(
        std::string(contract::functionNamePrefix(role)));
  pm.addPass(createTcLowerToPlan(options));
}

} // namespace tc
