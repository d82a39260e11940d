//===- Pipeline.h - the passes tc-compile runs on a model ------------------===//

#ifndef TC_COMPILER_PIPELINE_PIPELINE_H
#define TC_COMPILER_PIPELINE_PIPELINE_H

#include "compiler/frontend/ModelDescription.h"

#include "mlir/Pass/PassManager.h"

#include <optional>
#include <set>
#include <string>

namespace tc {

/// The fusion passes by their short names (`--fusion=adam,elementwise`), in
/// the order the pipeline runs them.
const std::vector<std::string> &fusionNames();

/// Parses `none`, `all` or a comma list of fusion names (short, or the pass
/// name such as `tc-fuse-adam`). On a mistake, returns nullopt and says why.
std::optional<std::set<std::string>> parseFusions(const std::string &spec,
                                                  std::string &error);

/// Adds the passes that turn the frontend's graph into training steps:
/// the forward fusions, tc-apply-precision in the description's precision,
/// tc-autodiff, tc-build-train-step configured from the description, then
/// the fusions of the whole step.
void addTrainingPipeline(mlir::OpPassManager &pm,
                         const ModelDescription &description,
                         const std::set<std::string> &fusions);

/// The executable's functions (train steps, encode, decode) lowered to the
/// plan dialect, gradients reduced in buckets of `allreduceBucketBytes`;
/// the intermediate forward and gradient functions dropped.
void addPlanPipeline(mlir::OpPassManager &pm,
                     int64_t allreduceBucketBytes = int64_t(25) << 20);
/// The bucket size of a description's [training] allreduce_bucket_mb.
int64_t allreduceBucketBytes(const TrainingConfig &training);

/// Registers both pipelines by name for tc-opt, as tc-compile runs them:
/// --tc-training-pipeline="description=MODEL.toml fusion=all" (on the
/// frontend's graph, e.g. 00-frontend.mlir of tc-compile --dump-ir) and
/// --tc-plan-pipeline.
void registerTcPipelines();

} // namespace tc

#endif // TC_COMPILER_PIPELINE_PIPELINE_H
