//===- Bf16Instructions.cpp - whether this CPU has bf16 GEMM instructions -===//

#include "runtime/cpu/Bf16Instructions.h"
#include "support/HostCpu.h"

#include <oneapi/dnnl/dnnl.h>

#include <cstdio>
#include <mutex>

namespace tc::rt {
namespace {

std::string nameOf(dnnl_cpu_isa_t isa) {
  switch (isa) {
  case dnnl_cpu_isa_all:
    return "all";
  case dnnl_cpu_isa_sse41:
    return "sse41";
  case dnnl_cpu_isa_avx:
    return "avx";
  case dnnl_cpu_isa_avx2:
    return "avx2";
  case dnnl_cpu_isa_avx512_mic:
    return "avx512_mic";
  case dnnl_cpu_isa_avx512_mic_4ops:
    return "avx512_mic_4ops";
  case dnnl_cpu_isa_avx512_core:
    return "avx512_core";
  case dnnl_cpu_isa_avx512_core_vnni:
    return "avx512_core_vnni";
  case dnnl_cpu_isa_avx512_core_bf16:
    return "avx512_core_bf16";
  case dnnl_cpu_isa_avx512_core_amx:
    return "avx512_core_amx";
  case dnnl_cpu_isa_avx2_vnni:
    return "avx2_vnni";
  }
  return "isa " + std::to_string(int(isa));
}

} // namespace

bool cpuHasBf16Gemms() {
  // An ISA's value holds the bits of every ISA it extends: AMX's holds
  // avx512_core_bf16's, avx2_vnni's does not.
  static const bool has =
      (dnnl_get_effective_cpu_isa() & dnnl_cpu_isa_avx512_core_bf16) ==
      dnnl_cpu_isa_avx512_core_bf16;
  return has;
}

std::string describeCpuIsa() {
  return support::hostCpuModel() + " (" + support::hostCpuLevel() +
         "; oneDNN's ISA " + nameOf(dnnl_get_effective_cpu_isa()) + ")";
}

int64_t countBf16Gemms(const tcx::Executable &executable) {
  int64_t count = 0;
  if (executable.functions())
    for (const tcx::Function *function : *executable.functions())
      for (const tcx::StepEntry *entry : *function->steps())
        if (const tcx::Gemm *gemm = entry->step_as_Gemm())
          count += gemm->lhs()->dtype() == tcx::DType::BF16 ||
                   gemm->rhs()->dtype() == tcx::DType::BF16;
  return count;
}

bool admitBf16Gemms(const tcx::Executable &executable, bool allowSlow,
                    std::string &error) {
  int64_t count = countBf16Gemms(executable);
  if (count == 0 || cpuHasBf16Gemms())
    return true;
  std::string gemms = "the executable's " + std::to_string(count) +
                      " bf16 GEMM" + (count == 1 ? "" : "s");
  std::string cpu = "this CPU, " + describeCpuIsa() +
                    ", has no bf16 GEMM instructions (AVX512-BF16 or AMX)";
  if (allowSlow) {
    static std::once_flag said;
    std::call_once(said, [&] {
      std::fprintf(stderr,
                   "tc-run: note: %s: %s %s widened to f32 (the portable "
                   "path, --allow-slow-bf16), slower than an f32 "
                   "executable's\n",
                   cpu.c_str(), gemms.c_str(), count == 1 ? "runs" : "run");
    });
    return true;
  }
  error = cpu + ": " + gemms +
          " would run widened to f32, slower than an f32 executable; "
          "recompile the model with tc-compile --precision=f32, or pass "
          "--allow-slow-bf16 to run it anyway (to check its numerics)";
  return false;
}

} // namespace tc::rt
