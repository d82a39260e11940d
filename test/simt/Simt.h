//===- Simt.h - runs CUDA C++ kernels on the host, for tests ---------------===//
//
// Generated CUDA source compiled as host C++ with this header first: the
// threads of a block are fibers on the launching thread (one block at a
// time; ucontext switches, each thread running until it waits at a barrier
// or ends, then the next, round robin), __syncthreads is a barrier of the
// block's threads, a warp's shuffles exchange values through a per-warp
// slot between two barriers of the warp, __shared__ variables are statics
// (shared by the block's threads; blocks do not overlap), and CUDA's math
// builtins map to the C++ library's. Fibers, not host threads: creating
// and waking a host thread per CUDA thread cost a hundred times the
// kernels' work. Never part of the product: it lets a machine without a GPU
// check generated kernels against the interpreter.
//
//   extern "C" void simt_launch(void (*kernel)(void **), unsigned grid,
//                               unsigned block, void **buffers);
//
// Compiled with -DSIMT_COUNT_BYTES and -fsanitize=thread (compile only, no
// ThreadSanitizer runtime linked), it also counts the bytes the kernels
// load and store in "global memory": the compiler calls a hook before each
// access (__tsan_read4, __tsan_write8, ...), and the hooks below add its
// size when the address lies in a range the caller watches (the emulated
// GPU's spaces), so the stack, the fibers and __shared__ statics are not
// counted, nor are the kernels' own global statics (the column sums' parts
// and counts, the ordered row sum's rows: small beside their buffers), nor
// a library call's accesses (the kernels make none: compileSimt checks). A
// block's bytes are counted once each however often its threads
// touch them (the bytes read, then those written): what each block would
// fetch and store if its cache held everything it touched. Re-reading a
// row within a block is free here, as L1 makes it on a GPU for short rows;
// every block scanning the same ids is not. A kernel that passes several
// times over rows longer than L1 (the loss over the vocabulary) is not seen.
//
//   extern "C" void simt_watch(const void *begin, size_t bytes);
//   extern "C" void simt_unwatch_all();
//   extern "C" void simt_take_bytes(uint64_t *read, uint64_t *written);
//
//===----------------------------------------------------------------------===//

#ifndef TC_TEST_SIMT_SIMT_H
#define TC_TEST_SIMT_SIMT_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <ucontext.h>
#include <vector>

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
};

// Set for each fiber as it is switched to.
inline dim3 threadIdx, blockIdx;
inline dim3 blockDim, gridDim;

#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static
#define __restrict__

namespace simt {
constexpr unsigned kWarp = 32;
constexpr size_t kStackBytes = size_t(1) << 18; // a thread's locals

/// One CUDA thread of the running block.
struct Fiber {
  ucontext_t context;
  std::unique_ptr<char[]> stack{new char[kStackBytes]}; // untouched pages
  bool ended = false;
};
inline std::vector<std::unique_ptr<Fiber>> fibers; // kept across blocks
inline ucontext_t scheduler;              // simt_launch's loop over the fibers
inline unsigned running = 0;              // the fiber running now
inline void (*kernel)(void **) = nullptr; // the launch's
inline void **buffers = nullptr;

/// Back to the scheduler, which comes back after the other fibers ran.
inline void yield() { swapcontext(&fibers[running]->context, &scheduler); }

/// `count` threads wait until all of them have arrived.
struct Barrier {
  unsigned count = 0, arrived = 0;
  uint64_t generation = 0;
  void arriveAndWait() {
    uint64_t mine = generation;
    if (++arrived == count) {
      arrived = 0;
      ++generation;
      return;
    }
    while (generation == mine)
      yield();
  }
};
inline Barrier blockBarrier;              // the running block's
inline std::vector<Barrier> warpBarriers; // one per warp
inline std::vector<uint64_t> slots;       // one per thread

/// A fiber's body: the kernel, then back to the scheduler (uc_link).
inline void fiberMain() {
  kernel(buffers);
  fibers[running]->ended = true;
}
} // namespace simt

inline void __syncthreads() { simt::blockBarrier.arriveAndWait(); }

/// The value `lane ^ laneMask` of the warp holds.
template <typename T>
inline T __shfl_xor_sync(unsigned, T value, int laneMask, int = 32) {
  static_assert(sizeof(T) <= sizeof(uint64_t));
  unsigned thread = threadIdx.x, warp = thread / simt::kWarp;
  std::memcpy(&simt::slots[thread], &value, sizeof(T));
  simt::warpBarriers[warp].arriveAndWait();
  unsigned partner = (thread ^ unsigned(laneMask));
  T other;
  std::memcpy(&other, &simt::slots[partner], sizeof(T));
  simt::warpBarriers[warp].arriveAndWait();
  return other;
}

/// A bit per thread of the warp (lane order) where `predicate` holds.
inline unsigned __ballot_sync(unsigned, bool predicate) {
  unsigned thread = threadIdx.x, warp = thread / simt::kWarp;
  simt::slots[thread] = predicate;
  simt::warpBarriers[warp].arriveAndWait();
  unsigned bits = 0, first = warp * simt::kWarp;
  for (unsigned lane = 0; first + lane < blockDim.x && lane < simt::kWarp;
       ++lane)
    bits |= unsigned(simt::slots[first + lane] != 0) << lane;
  simt::warpBarriers[warp].arriveAndWait();
  return bits;
}

/// The position (from 1) of the lowest set bit, 0 for none.
inline int __ffs(int x) { return x ? __builtin_ctz(unsigned(x)) + 1 : 0; }

// Blocks run one at a time and a block's threads take turns: plain memory
// is already ordered, and an atomic is a plain read and write.
inline void __threadfence() {}
inline unsigned atomicAdd(unsigned *address, unsigned value) {
  unsigned old = *address;
  *address = old + value;
  return old;
}

inline float __int_as_float(int bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

#ifdef SIMT_COUNT_BYTES
// The hooks run uninstrumented and call nothing that is instrumented.
#define SIMT_UNCOUNTED extern "C" __attribute__((no_sanitize_thread))
namespace simt {
constexpr int kMostRanges = 64;
inline uintptr_t watchedBegin[kMostRanges], watchedEnd[kMostRanges];
inline int watchedRanges = 0;
inline uint64_t bytesRead = 0, bytesWritten = 0;
} // namespace simt

// The watched ranges are one list in the process (inline variables are
// unique symbols across every kernels.so): an emulated GPU clears it when
// it starts and ends.
SIMT_UNCOUNTED void simt_unwatch_all() { simt::watchedRanges = 0; }
SIMT_UNCOUNTED void simt_watch(const void *begin, size_t bytes) {
  if (simt::watchedRanges == simt::kMostRanges) {
    fputs("simt_watch: more than kMostRanges ranges\n", stderr);
    abort();
  }
  simt::watchedBegin[simt::watchedRanges] = uintptr_t(begin);
  simt::watchedEnd[simt::watchedRanges++] = uintptr_t(begin) + bytes;
}
/// The bytes read and written since the last call.
SIMT_UNCOUNTED void simt_take_bytes(uint64_t *read, uint64_t *written) {
  *read = simt::bytesRead;
  *written = simt::bytesWritten;
  simt::bytesRead = simt::bytesWritten = 0;
}
namespace simt {
/// One access in a watched range: bytes [begin, end).
struct Access {
  uintptr_t begin, end;
};
/// The running block's accesses, merged into bytes when it ends
/// (endBlockCounts). Plain malloc'd arrays: nothing here is instrumented.
struct Accesses {
  Access *at = nullptr;
  size_t count = 0, capacity = 0;
};
inline Accesses blockReads, blockWrites;
} // namespace simt
SIMT_UNCOUNTED void simt_record(const void *address, uint64_t bytes,
                                simt::Accesses *accesses) {
  for (int r = 0; r < simt::watchedRanges; ++r)
    if (uintptr_t(address) >= simt::watchedBegin[r] &&
        uintptr_t(address) < simt::watchedEnd[r]) {
      simt::Accesses &a = *accesses;
      if (a.count == a.capacity) {
        a.capacity = a.capacity ? 2 * a.capacity : 4096;
        a.at = static_cast<simt::Access *>(
            realloc(a.at, a.capacity * sizeof(simt::Access)));
        if (!a.at)
          __builtin_trap();
      }
      a.at[a.count++] = {uintptr_t(address), uintptr_t(address) + bytes};
      return;
    }
}
SIMT_UNCOUNTED int simt_by_begin(const void *a, const void *b) {
  uintptr_t x = static_cast<const simt::Access *>(a)->begin,
            y = static_cast<const simt::Access *>(b)->begin;
  return x < y ? -1 : x > y;
}
/// The bytes the block's accesses cover, each once; clears them.
SIMT_UNCOUNTED uint64_t simt_covered(simt::Accesses *accesses) {
  simt::Accesses &a = *accesses;
  qsort(a.at, a.count, sizeof(simt::Access), simt_by_begin);
  uint64_t bytes = 0;
  uintptr_t reached = 0; // the end of what is counted so far
  for (size_t i = 0; i < a.count; ++i) {
    uintptr_t from = a.at[i].begin > reached ? a.at[i].begin : reached;
    if (a.at[i].end > from)
      bytes += a.at[i].end - from;
    if (a.at[i].end > reached)
      reached = a.at[i].end;
  }
  a.count = 0;
  return bytes;
}
namespace simt {
/// Adds the block that ended to the counts.
__attribute__((no_sanitize_thread)) inline void endBlockCounts() {
  bytesRead += simt_covered(&blockReads);
  bytesWritten += simt_covered(&blockWrites);
}
} // namespace simt
#define SIMT_ACCESS_HOOKS(size)                                               \
  SIMT_UNCOUNTED void __tsan_read##size(void *a) {                            \
    simt_record(a, size, &simt::blockReads);                                  \
  }                                                                           \
  SIMT_UNCOUNTED void __tsan_write##size(void *a) {                           \
    simt_record(a, size, &simt::blockWrites);                                 \
  }                                                                           \
  SIMT_UNCOUNTED void __tsan_unaligned_read##size(void *a) {                  \
    simt_record(a, size, &simt::blockReads);                                  \
  }                                                                           \
  SIMT_UNCOUNTED void __tsan_unaligned_write##size(void *a) {                 \
    simt_record(a, size, &simt::blockWrites);                                 \
  }
SIMT_ACCESS_HOOKS(1)
SIMT_ACCESS_HOOKS(2)
SIMT_ACCESS_HOOKS(4)
SIMT_ACCESS_HOOKS(8)
SIMT_ACCESS_HOOKS(16)
SIMT_UNCOUNTED void __tsan_read_range(void *a, unsigned long size) {
  simt_record(a, size, &simt::blockReads);
}
SIMT_UNCOUNTED void __tsan_write_range(void *a, unsigned long size) {
  simt_record(a, size, &simt::blockWrites);
}
SIMT_UNCOUNTED void __tsan_init() {}
SIMT_UNCOUNTED void __tsan_func_entry(void *) {}
SIMT_UNCOUNTED void __tsan_func_exit() {}
#endif // SIMT_COUNT_BYTES

extern "C" void simt_launch(void (*kernel)(void **), unsigned grid,
                            unsigned block, void **buffers) {
  gridDim = {grid, 1, 1};
  blockDim = {block, 1, 1};
  simt::kernel = kernel;
  simt::buffers = buffers;
  std::vector<std::unique_ptr<simt::Fiber>> &fibers = simt::fibers;
  while (fibers.size() < block)
    fibers.push_back(std::make_unique<simt::Fiber>());
  // Every other launch runs the blocks last to first: a GPU runs them in no
  // set order, so no kernel may depend on one.
  static unsigned launches = 0;
  bool reversed = launches++ % 2 == 1;
  for (unsigned n = 0; n < grid; ++n) {
    unsigned b = reversed ? grid - 1 - n : n;
    blockIdx = {b, 0, 0};
    simt::blockBarrier = simt::Barrier{block};
    simt::warpBarriers.clear();
    for (unsigned w = 0; w * simt::kWarp < block; ++w)
      simt::warpBarriers.push_back(
          simt::Barrier{std::min(simt::kWarp, block - w * simt::kWarp)});
    simt::slots.assign(block, 0);
    for (unsigned t = 0; t < block; ++t) {
      simt::Fiber &f = *fibers[t];
      getcontext(&f.context);
      f.context.uc_stack.ss_sp = f.stack.get();
      f.context.uc_stack.ss_size = simt::kStackBytes;
      f.context.uc_link = &simt::scheduler;
      makecontext(&f.context, simt::fiberMain, 0);
      f.ended = false;
    }
    // Round robin until every thread has ended.
    for (unsigned ended = 0; ended < block;) {
      ended = 0;
      for (unsigned t = 0; t < block; ++t) {
        if (fibers[t]->ended) {
          ++ended;
          continue;
        }
        simt::running = t;
        threadIdx = {t, 0, 0};
        swapcontext(&simt::scheduler, &fibers[t]->context);
      }
    }
#ifdef SIMT_COUNT_BYTES
    simt::endBlockCounts();
#endif
  }
}


#endif // TC_TEST_SIMT_SIMT_H
