//===- StepBuffers.h - the buffers a plan step reads and writes ------------===//
//
// What the CPU device asks of a function's steps: whether one writes a
// parameter (a training step), and where the logits of a GEMM are read
// again (CandidatesFusion.h).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_STEPBUFFERS_H
#define TC_RUNTIME_CPU_STEPBUFFERS_H

#include "tcx_generated.h"

#include <vector>

namespace tc::rt {

/// Every buffer `entry` reads (a GEMM's C too where beta is not 0; an
/// allreduce's buffer, which it also writes).
std::vector<const tcx::Buffer *> readsOf(const tcx::StepEntry &entry);

/// Every buffer `entry` writes (an allreduce's is among its reads).
std::vector<const tcx::Buffer *> writesOf(const tcx::StepEntry &entry);

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_STEPBUFFERS_H
