//===- ParameterInit.h - parameters from the executable's initializers ----===//
//
// Fills the flat parameter buffer as the .tcx's parameter table says:
// Xavier-uniform weights (U(-a, a), a = sqrt(6 / (fan_in + fan_out)) for an
// [out, in] matrix), N(0, std^2) for the embedding (std = d_model^-0.5),
// U(-bound, bound), ones and zeros (LayerNorm). Parameter i draws from the
// random stream (seed, i), so the result depends on the seed only.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_TRAIN_PARAMETERINIT_H
#define TC_RUNTIME_TRAIN_PARAMETERINIT_H

#include "runtime/Executable.h"

namespace tc::rt {

void initializeParameters(const tcx::Executable &executable, uint8_t *params,
                          uint64_t seed);

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_PARAMETERINIT_H
