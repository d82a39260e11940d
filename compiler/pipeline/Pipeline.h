//===- Pipeline.h - the passes tc-compile runs on a model ------------------===//

#ifndef TC_COMPILER_PIPELINE_PIPELINE_H
#define TC_COMPILER_PIPELINE_PIPELINE_H

#include "compiler/frontend/ModelDescription.h"

#include "mlir/Pass/PassManager.h"

namespace tc {

/// Adds the passes that turn the frontend's graph into training steps:
/// tc-autodiff, then tc-build-train-step configured from the description.
void addTrainingPipeline(mlir::OpPassManager &pm,
                         const ModelDescription &description);

} // namespace tc

#endif // TC_COMPILER_PIPELINE_PIPELINE_H
