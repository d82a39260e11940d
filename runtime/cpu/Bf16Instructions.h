//===- Bf16Instructions.h - whether this CPU has bf16 GEMM instructions ---===//
//
// bf16 GEMMs pay only where the CPU multiplies bf16 pairs itself
// (AVX512-BF16's vdpbf16ps, or AMX): twice the f32 rate there. Elsewhere
// the CPU device runs them widened to f32 (Bf16Gemm.h), the same numbers
// but slower than an f32 executable's GEMMs, so it refuses a bf16
// executable there unless asked to run it anyway (tc-run --allow-slow-bf16,
// to check its numerics). The answer is oneDNN's effective ISA, so that
// ONEDNN_MAX_CPU_ISA=AVX2 simulates a CPU without them.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_BF16INSTRUCTIONS_H
#define TC_RUNTIME_CPU_BF16INSTRUCTIONS_H

#include "runtime/format/GemmTypes.h"

#include <cstdint>
#include <string>

namespace tc::rt {

/// Whether this CPU has bf16 GEMM instructions that oneDNN may use
/// (its effective ISA is avx512_core_bf16 or AMX); decided once.
bool cpuHasBf16Gemms();

/// "AMD EPYC (x86-64-v3; oneDNN's ISA avx2)", for messages.
std::string describeCpuIsa();

/// How many GEMMs of `executable` have bf16 operands.
int64_t countBf16Gemms(const tcx::Executable &executable);

/// Whether the CPU device opens `executable` here: it holds no bf16 GEMM,
/// or the CPU has bf16 instructions, or `allowSlow` (then it says once per
/// process on stderr that they run widened to f32); otherwise false with
/// `error` saying why and how to fix it.
bool admitBf16Gemms(const tcx::Executable &executable, bool allowSlow,
                    std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_BF16INSTRUCTIONS_H
