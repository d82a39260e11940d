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

#include <cstdint>
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

/// The calling thread's stream on cpuEngine(), made on its first use
/// (making one per call cost an allocation a GEMM block).
dnnl::stream &threadStream();

/// A number no primitive cache of this process had before: the key, with
/// a shape, of a cache's entries in a thread's own tables (of memory
/// objects bound once), so that a cache made later at the same address
/// does not find an earlier one's.
uint64_t newPrimitiveCacheId();

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_ONEDNNTHREAD_H
