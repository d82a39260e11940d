//===- TrainStepLimits.h - how far tc-build-train-step may unroll ----------===//
//
// A plain header (no MLIR): the model description's checks and the pass's
// option share these bounds.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_TRANSFORMS_TRAINSTEPLIMITS_H
#define TC_COMPILER_TRANSFORMS_TRAINSTEPLIMITS_H

#include <cstdint>
#include <limits>

namespace tc {

/// The ranges of the training settings that tc-build-train-step builds into
/// the step: Adam's betas in [0, 1), its epsilon, the learning rate's
/// factor and the clipping norm in [0, f32's largest) (the step holds them
/// as f32 constants: a factor of 1e40 became +inf, and every parameter NaN
/// after the first step), warmup steps and d_model (which scales the
/// learning rate) in [1, max]. LayerNorm's epsilon, an f32 in its kernels,
/// shares the upper bound.
inline constexpr double kMaxAdamBetaExclusive = 1.0;
inline constexpr double kMaxStepScalarExclusive =
    std::numeric_limits<float>::max();
inline constexpr int64_t kMaxWarmupSteps = std::numeric_limits<int32_t>::max();
inline constexpr int64_t kMaxModelWidth = int64_t(1) << 20;

/// tc-build-train-step unrolls every micro-batch into the step, and memory
/// planning (placeArena) is quadratic in the step's buffers: 64 micro-
/// batches compile in about a second, 512 took 51 s.
inline constexpr int64_t kMaxAccumulationSteps = 64;

} // namespace tc

#endif // TC_COMPILER_TRANSFORMS_TRAINSTEPLIMITS_H
