//===- TrainStepLimits.h - how far tc-build-train-step may unroll ----------===//
//
// A plain header (no MLIR): the model description's checks and the pass's
// option share these bounds.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_TRANSFORMS_TRAINSTEPLIMITS_H
#define TC_COMPILER_TRANSFORMS_TRAINSTEPLIMITS_H

#include <cstdint>

namespace tc {

/// tc-build-train-step unrolls every micro-batch into the step, and memory
/// planning (placeArena) is quadratic in the step's buffers: 64 micro-
/// batches compile in about a second, 512 took 51 s.
inline constexpr int64_t kMaxAccumulationSteps = 64;

} // namespace tc

#endif // TC_COMPILER_TRANSFORMS_TRAINSTEPLIMITS_H
