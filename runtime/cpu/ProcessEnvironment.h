//===- ProcessEnvironment.h - settings OpenBLAS and OpenMP read at load ----===//
//
// Two libraries read their settings from the environment when they load,
// before main() runs, so a tool that needs other settings sets them and
// re-executes itself once:
//
//  * OpenBLAS picks its kernels from the CPUID model. Debian 12's 0.3.21
//    does not know recent Xeons (a virtualised "Intel(R) Xeon(R) Processor"
//    with AVX-512) and falls back to its SSE3 "Prescott" kernels, about 2x
//    slower here: OPENBLAS_CORETYPE=SkylakeX (or Haswell) when it does.
//  * libgomp's threads spin-wait 300,000 times before sleeping. When other
//    processes want the cores, that spinning starves everyone: 200 steps of
//    the copy task took 206 s on this 2-core machine with two other busy
//    processes, 15.6 s with GOMP_SPINCOUNT=10000 (5.4 s with 1000); alone,
//    2.6 s by default, 3.2 s with 10000 (3.7 s with 1000). tc-run sets
//    GOMP_SPINCOUNT=10000 unless the user chose (GOMP_SPINCOUNT or
//    OMP_WAIT_POLICY set).
//  * libgomp starts a thread per core. Several ranks of an mpirun job on
//    one host would each start that many: unless OMP_NUM_THREADS is set, a
//    rank gets the cores it is bound to, or its share of the host's.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_PROCESSENVIRONMENT_H
#define TC_RUNTIME_CPU_PROCESSENVIRONMENT_H

namespace tc::rt {

/// Sets what is missing of the above and re-executes the program (argv)
/// once; returns when nothing had to change (or the re-execution failed).
void configureProcessEnvironment(char **argv);

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_PROCESSENVIRONMENT_H
