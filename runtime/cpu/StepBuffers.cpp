//===- StepBuffers.cpp - the buffers a plan step reads and writes ----------===//

#include "runtime/cpu/StepBuffers.h"

namespace tc::rt {

std::vector<const tcx::Buffer *> readsOf(const tcx::StepEntry &entry) {
  std::vector<const tcx::Buffer *> reads;
  if (const tcx::Launch *launch = entry.step_as_Launch()) {
    if (launch->inputs())
      reads.assign(launch->inputs()->begin(), launch->inputs()->end());
  } else if (const tcx::Gemm *gemm = entry.step_as_Gemm()) {
    reads = {gemm->lhs(), gemm->rhs()};
    if (gemm->bias())
      reads.push_back(gemm->bias());
    if (gemm->beta() != 0.0f)
      reads.push_back(gemm->out());
  } else if (const tcx::Copy *copy = entry.step_as_Copy()) {
    reads = {copy->source()};
  } else if (const tcx::AllReduce *sum = entry.step_as_AllReduce()) {
    reads = {sum->buffer()};
  }
  return reads;
}

std::vector<const tcx::Buffer *> writesOf(const tcx::StepEntry &entry) {
  if (const tcx::Launch *launch = entry.step_as_Launch())
    return launch->outputs()
               ? std::vector<const tcx::Buffer *>(launch->outputs()->begin(),
                                                  launch->outputs()->end())
               : std::vector<const tcx::Buffer *>();
  if (const tcx::Gemm *gemm = entry.step_as_Gemm())
    return {gemm->out()};
  if (const tcx::Copy *copy = entry.step_as_Copy())
    return {copy->target()};
  return {};
}

} // namespace tc::rt
