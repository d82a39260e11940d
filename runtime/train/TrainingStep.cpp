//===- TrainingStep.cpp - one training step of one rank --------------------===//

#include "runtime/train/TrainingStep.h"

#include <cmath>

namespace tc::rt {
namespace {

namespace binding = contract::binding;

bool bindBatch(Device &device, const tcx::Function &function,
               const Batch &batch, uint64_t seed, int64_t step) {
  int64_t rng[2] = {int64_t(seed), step};
  return device.writeInput(function, binding::kSourceIds, batch.source) &&
         device.writeInput(function, binding::kTargetIn, batch.targetIn) &&
         device.writeInput(function, binding::kTargetOut, batch.targetOut) &&
         device.writeInput(function, binding::kRng, rng, sizeof rng);
}

} // namespace

bool runStep(const Executable &executable, Device &device, Run &run,
             const Shard &shard, int64_t step, StepOutputs &out,
             std::string &error) {
  uint64_t first = shard.first(run.state.dataPosition);
  std::vector<std::vector<SentencePair>> micro;
  for (int64_t m = 0; m < shard.accumulation; ++m) {
    std::optional<std::vector<SentencePair>> pairs =
        run.data->batch(first + m, error);
    if (!pairs)
      return false;
    micro.push_back(std::move(*pairs));
  }
  std::optional<BucketShape> bucket = bucketFor(run.buckets, micro);
  const tcx::Function *function =
      bucket ? executable.function(tcx::FunctionRole::TrainStep, *bucket)
             : nullptr;
  Batch batch;
  for (const std::vector<SentencePair> &pairs : micro) {
    Batch part;
    if (!function ||
        !fillBatch(pairs, run.vocab, bucket->batch, bucket->sourceLength,
                   bucket->targetLength, part)) {
      error = "batch " + std::to_string(first) + " of " + run.data->describe() +
              " fits no shape bucket";
      return false;
    }
    batch.append(part);
  }
  bool bound =
      bindBatch(device, *function, batch, shard.seed(run.state.seed), step);
  if (bound)
    device.run(*function);
  if (!bound ||
      !device.readOutput(*function, binding::kLoss, &out.loss,
                         sizeof out.loss) ||
      !device.readOutput(*function, binding::kTokens, &out.tokens,
                         sizeof out.tokens) ||
      !device.readOutput(*function, binding::kLearningRate, &out.learningRate,
                         sizeof out.learningRate)) {
    error = function->name()->str() + " does not take " +
            std::string(binding::kSourceIds) + ", " +
            std::string(binding::kTargetIn) + ", " +
            std::string(binding::kTargetOut) + " and " +
            std::string(binding::kRng) + " or return " +
            std::string(binding::kLoss) + ", " + std::string(binding::kTokens) +
            " and " + std::string(binding::kLearningRate) +
            " as a training step does";
    return false;
  }
  out.batchTokens = batch.tokens;
  out.batchSlots = batch.rows * (batch.sourceLength + batch.targetLength);
  return true;
}

bool checkFiniteLoss(const StepOutputs &out, int64_t step, std::string &error) {
  if (std::isfinite(out.lossPerToken()))
    return true;
  error = "the loss is not finite at step " + std::to_string(step) +
          "; stopping without writing a checkpoint (the last one is "
          "kept); lower the learning rate or enable gradient_clip";
  return false;
}

} // namespace tc::rt
