//===- SyntheticEvaluation.h - exact match on the copy and reverse tasks ---===//

#ifndef TC_RUNTIME_DECODE_SYNTHETICEVALUATION_H
#define TC_RUNTIME_DECODE_SYNTHETICEVALUATION_H

#include "runtime/Device.h"
#include "runtime/data/SyntheticTask.h"

#include <optional>
#include <string>

namespace tc::rt {

struct ExactMatch {
  int64_t correct = 0, total = 0;
};

/// Greedy decoding of `sequences` fresh sequences of `task` in the
/// executable's first bucket, drawn with `seed` from batch indices counting
/// down from the top of the streams, which training (counting up from 0)
/// does not reach; how many come back exactly. None with `error` when the
/// executable has no buckets or cannot decode.
std::optional<ExactMatch>
evaluateSyntheticTask(const Executable &executable, Device &device,
                      SyntheticTask task, int64_t sequences, uint64_t seed,
                      std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_DECODE_SYNTHETICEVALUATION_H
