//===- OpenMpThreads.h - the CPU device's threads, per calling thread ------===//
//
// The CPU device's kernels and GEMMs split their work among the calling
// thread's OpenMP threads. Callers that run several devices at once
// (tc-run translate --workers) share the cores out among them here, so that
// nothing above the CPU device needs OpenMP.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_OPENMPTHREADS_H
#define TC_RUNTIME_CPU_OPENMPTHREADS_H

namespace tc::rt {

/// The OpenMP threads the calling thread's parallel work would use.
int openMpThreads();

/// Sets the OpenMP threads of the calling thread's parallel work.
void setOpenMpThreads(int threads);

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_OPENMPTHREADS_H
