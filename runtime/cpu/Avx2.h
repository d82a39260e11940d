//===- Avx2.h - functions compiled for AVX2 and FMA whatever the target --===//
//
// The panel kernels and their epilogues are compiled for AVX2 and FMA
// whatever the build's target; they run only where cpuHasPanelKernel()
// (PanelGemm.h) says so.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_AVX2_H
#define TC_RUNTIME_CPU_AVX2_H

#define TC_AVX2 __attribute__((target("avx2,fma")))
#define TC_AVX2_INLINE __attribute__((target("avx2,fma"), always_inline)) inline

#endif // TC_RUNTIME_CPU_AVX2_H
