//===- OneDnnThread.h - oneDNN primitives on one OpenMP thread ------------===//
//
// The CPU device spreads a GEMM's blocks over its OpenMP threads itself, so
// each oneDNN primitive it makes or runs gets one thread: inside the
// device's parallel regions that is what it gets anyway (no nesting), and
// outside one it must not take the other cores.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_ONEDNNTHREAD_H
#define TC_RUNTIME_CPU_ONEDNNTHREAD_H

#include <omp.h>
#include <oneapi/dnnl/dnnl.hpp>

namespace tc::rt {

/// Sets this thread's OpenMP thread count to one while it lives (inside a
/// parallel region it changes only this thread's).
class OneOpenMpThread {
public:
  OneOpenMpThread() : saved_(omp_get_max_threads()) { omp_set_num_threads(1); }
  ~OneOpenMpThread() { omp_set_num_threads(saved_); }

private:
  int saved_;
};

/// The CPU engine of every primitive, made once and never destroyed: memory
/// objects of a thread may outlive the caches that made them.
const dnnl::engine &cpuEngine();

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_ONEDNNTHREAD_H
