//===- Pipeline.cpp - the passes tc-compile runs on a model ----------------===//

#include "compiler/pipeline/Pipeline.h"
#include "compiler/transforms/Passes.h"

namespace tc {

void addTrainingPipeline(mlir::OpPassManager &pm,
                         const ModelDescription &description) {
  const ModelConfig &m = description.model;
  const TrainingConfig &t = description.training;
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
}

} // namespace tc
