//===- CandidatesFusion.h - an output GEMM and its candidates as one ------===//
//
// A decoder step's output projection (a weight GEMM, 64 x 4,000 logits on
// the demo model) is followed by tc.log_softmax_top_k, which reads the
// logits once and returns a few candidates a row. Where the logits have no
// other reader, the CPU device may run the two as one: with int8 weight
// GEMMs on tc's panels, each row's candidates are taken from the GEMM's
// tiles as they come out of registers (RowCandidates.h), and the logits
// are never stored or read back. This finds where a function allows it;
// CpuDevice decides at run time whether its GEMMs are int8.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_CANDIDATESFUSION_H
#define TC_RUNTIME_CPU_CANDIDATESFUSION_H

#include "tcx_generated.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tc::rt {

/// A GEMM step whose logits the next step, a tc.log_softmax_top_k launch,
/// is the only reader of.
struct CandidatesAfterGemm {
  int64_t k, column; ///< the op's attributes
};

/// For each step of `function`, the fusion that starts at it: a weight
/// GEMM (f32, no batch, B a parameter, C dense) whose C is read by the
/// tc.log_softmax_top_k launch right after it and by no other step, nor
/// bound as an output. Kernels of files without the op's attributes
/// (before tcx's Kernel.attributes) are never fused.
std::vector<std::optional<CandidatesAfterGemm>>
findCandidatesAfterGemms(const tcx::Executable &executable,
                         const tcx::Function &function);

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_CANDIDATESFUSION_H
