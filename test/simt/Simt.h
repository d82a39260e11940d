//===- Simt.h - runs CUDA C++ kernels on the host, for tests ---------------===//
//
// Generated CUDA source compiled as host C++ with this header first: the
// threads of a block are fibers on the launching thread (one block at a
// time; Boost.Context switches, each thread running until it waits at a
// barrier or ends, then the next, round robin), __syncthreads is a barrier
// of the block's threads, __syncwarp one of the warp's, a warp's shuffles
// exchange values through a per-warp slot between two barriers of the
// warp, __shared__ variables are
// statics (shared by the block's threads; blocks do not overlap), and
// CUDA's math builtins map to the C++ library's. Fibers, not host threads:
// creating and waking a host thread per CUDA thread cost a hundred times
// the kernels' work. Boost.Context's fcontext, not ucontext: glibc's
// swapcontext sets the signal mask, a system call each way, and switches
// were 60% of the emulated GPU's time (KernelBytesTest's small step:
// 250 s). Never part of the product: it lets a machine without a GPU check
// generated kernels against the interpreter. Link with -lboost_context.
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
// It also counts each thread's accesses to the ranges, one per load or
// store however wide: a launch's longest thread is the chain of accesses no
// parallelism shortens (the embedding gradient's owner of padding's row
// made about three for each of ~12,000 tokens at the paper's batch: 2.15 ms
// on an H200). And it logs them, so that at the block's end the k-th
// accesses of a warp's 32 lanes, one instruction's requests where the lanes
// took the same path, give the 32-byte sectors a GPU would move for them:
// their bytes against the bytes asked for is the kernel's coalescing (1
// where a warp's lanes read adjacent elements, 1/8 where each reads 4 bytes
// of its own row).
//
//   extern "C" void simt_watch(const void *begin, size_t bytes);
//   extern "C" void simt_unwatch_all();
//   extern "C" void simt_take_bytes(uint64_t *read, uint64_t *written);
//   extern "C" uint64_t simt_take_longest_thread();
//   extern "C" void simt_take_sectors(uint64_t *requested, uint64_t *sectors);
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
#include <vector>

#include <boost/context/detail/fcontext.hpp>

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

// The harness's own functions: with SIMT_COUNT_BYTES they would be compiled
// with ThreadSanitizer's hooks like the kernels, and their accesses (the
// barriers' spinning, the shuffles' slots) are none of the kernels' and made
// up most of the hooks' calls. (The standard library's helpers they call
// out of line keep their hooks; those addresses lie outside every watched
// range, so they cost time, not counts.)
#define SIMT_HARNESS __attribute__((no_sanitize_thread))

namespace simt {
constexpr unsigned kWarp = 32;
constexpr size_t kStackBytes = size_t(1) << 18; // a thread's locals

namespace fcontext = boost::context::detail;

/// One CUDA thread of the running block.
struct Fiber {
  fcontext::fcontext_t context = nullptr; // where it resumes
  std::unique_ptr<char[]> stack{new char[kStackBytes]}; // untouched pages
  bool ended = false;
};
inline std::vector<std::unique_ptr<Fiber>> fibers; // kept across blocks
inline fcontext::fcontext_t scheduler; // where simt_launch's loop resumes
inline unsigned running = 0;              // the fiber running now
inline void (*kernel)(void **) = nullptr; // the launch's
inline void **buffers = nullptr;

/// Back to the scheduler, which comes back after the other fibers ran.
SIMT_HARNESS inline void yield() {
  scheduler = fcontext::jump_fcontext(scheduler, nullptr).fctx;
}

/// `count` threads wait until all of them have arrived.
struct Barrier {
  unsigned count = 0, arrived = 0;
  uint64_t generation = 0;
  SIMT_HARNESS void arriveAndWait() {
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

/// A fiber's body: the kernel, then back to the scheduler for good (a
/// context's function must not return).
SIMT_HARNESS inline void fiberMain(fcontext::transfer_t from) {
  scheduler = from.fctx;
  kernel(buffers);
  fibers[running]->ended = true;
  fcontext::jump_fcontext(scheduler, nullptr);
}
} // namespace simt

SIMT_HARNESS inline void __syncthreads() { simt::blockBarrier.arriveAndWait(); }

/// The value `lane ^ laneMask` of the warp holds.
template <typename T>
SIMT_HARNESS inline T __shfl_xor_sync(unsigned, T value, int laneMask,
                                     int = 32) {
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

/// A barrier of the warp's threads (they wait for each other's earlier
/// stores to shared memory).
SIMT_HARNESS inline void __syncwarp(unsigned = 0xffffffffu) {
  simt::warpBarriers[threadIdx.x / simt::kWarp].arriveAndWait();
}

/// A bit per thread of the warp (lane order) where `predicate` holds.
SIMT_HARNESS inline unsigned __ballot_sync(unsigned, bool predicate) {
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
#define SIMT_UNCOUNTED extern "C" SIMT_HARNESS
namespace simt {
/// A watched range, [begin, end), with a bit per byte of it for what the
/// running block has read (bits[0]) and written (bits[1]); calloc'd, so
/// pages no block touches stay unmapped.
struct Range {
  uintptr_t begin = 0, end = 0;
  uint64_t *bits[2] = {};
};
constexpr int kMostRanges = 64;
inline Range ranges[kMostRanges]; // in order of their starts
inline int rangeCount = 0;
inline int lastRange = 0; // the last access's: most follow one there
inline uint64_t bytesRead = 0, bytesWritten = 0;

/// The words of the ranges' bitmaps of one kind (read or written) the
/// running block has set, each once, which endBlockCounts counts and
/// clears. Set bits count each byte once however often it is touched, with
/// no sort of the block's accesses (a qsort of them was a quarter of the
/// counting's time).
struct Coverage {
  int kind; // Range::bits' index
  uint64_t **touched = nullptr; // malloc'd
  size_t count = 0, capacity = 0;
};
inline Coverage blockReads{0}, blockWrites{1};
/// A thread of the running block: its accesses to the ranges in order,
/// each as the first 32-byte sector it touches and how many (packed:
/// sector << 8 | count). The log's length is the thread's accesses; the
/// k-th entries of a warp's lanes are one instruction's requests where the
/// lanes took the same path. (Arrays, not vectors: the hooks call nothing
/// instrumented.)
struct AccessLog {
  uint64_t *entries = nullptr; // malloc'd
  size_t count = 0, capacity = 0;
};
constexpr unsigned kMostThreads = 1024; // a CUDA block's
inline AccessLog threadLogs[kMostThreads];
/// Since the last take: the most accesses one thread made; the bytes the
/// accesses asked for, and the 32-byte sectors their warps' requests
/// touched (each request's distinct sectors: what a GPU moves for it).
inline uint64_t longestThread = 0;
inline uint64_t requestedBytes = 0, sectorsTouched = 0;
} // namespace simt

// The watched ranges are one list in the process (inline variables are
// unique symbols across every kernels.so): an emulated GPU clears it when
// it starts and ends.
SIMT_UNCOUNTED void simt_unwatch_all() {
  simt::blockReads.count = simt::blockWrites.count = 0; // words of the bitmaps
  for (int r = 0; r < simt::rangeCount; ++r)
    for (uint64_t *bits : simt::ranges[r].bits)
      free(bits);
  simt::rangeCount = 0;
}
SIMT_UNCOUNTED void simt_watch(const void *begin, size_t bytes) {
  if (simt::rangeCount == simt::kMostRanges) {
    fputs("simt_watch: more than kMostRanges ranges\n", stderr);
    abort();
  }
  // Kept in order of their starts, for simt_record's binary search.
  int r = simt::rangeCount++;
  for (; r > 0 && simt::ranges[r - 1].begin > uintptr_t(begin); --r)
    simt::ranges[r] = simt::ranges[r - 1];
  simt::Range &range = simt::ranges[r];
  range.begin = uintptr_t(begin);
  range.end = uintptr_t(begin) + bytes;
  for (uint64_t *&bits : range.bits) {
    bits = static_cast<uint64_t *>(calloc((bytes + 63) / 64, sizeof(uint64_t)));
    if (!bits)
      __builtin_trap();
  }
}
/// The bytes read and written since the last call.
SIMT_UNCOUNTED void simt_take_bytes(uint64_t *read, uint64_t *written) {
  *read = simt::bytesRead;
  *written = simt::bytesWritten;
  simt::bytesRead = simt::bytesWritten = 0;
}
/// The most accesses one thread made since the last call.
SIMT_UNCOUNTED uint64_t simt_take_longest_thread() {
  uint64_t longest = simt::longestThread;
  simt::longestThread = 0;
  return longest;
}
/// The bytes the accesses asked for and the sectors their warps' requests
/// touched since the last call.
SIMT_UNCOUNTED void simt_take_sectors(uint64_t *requested, uint64_t *sectors) {
  *requested = simt::requestedBytes;
  *sectors = simt::sectorsTouched;
  simt::requestedBytes = simt::sectorsTouched = 0;
}
/// Marks the access's bytes in `coverage` if a watched range holds it: the
/// last access's range, or the last range that starts at or below it, found
/// by binary search (a scan of every range for each access, most of them
/// outside all, was most of KernelBytesTest's time once the switches were
/// fast).
SIMT_UNCOUNTED void simt_record(const void *address, uint64_t bytes,
                                simt::Coverage *coverage) {
  const uintptr_t at = uintptr_t(address);
  int low = 0, high = simt::rangeCount; // the range is below high
  if (simt::lastRange < high && at >= simt::ranges[simt::lastRange].begin &&
      at < simt::ranges[simt::lastRange].end)
    low = simt::lastRange, high = low + 1;
  while (high - low > 1) {
    int middle = (low + high) / 2;
    if (simt::ranges[middle].begin <= at)
      low = middle;
    else
      high = middle;
  }
  if (low == high || at < simt::ranges[low].begin ||
      at >= simt::ranges[low].end)
    return;
  simt::lastRange = low;
  simt::AccessLog &log = simt::threadLogs[simt::running];
  if (log.count == log.capacity) {
    log.capacity = log.capacity ? 2 * log.capacity : 256;
    log.entries = static_cast<uint64_t *>(
        realloc(log.entries, log.capacity * sizeof(uint64_t)));
    if (!log.entries)
      __builtin_trap();
  }
  const uint64_t firstSector = at / 32, lastSector = (at + bytes - 1) / 32;
  const uint64_t sectors = lastSector - firstSector + 1;
  log.entries[log.count++] = firstSector << 8 | (sectors < 255 ? sectors : 255);
  simt::requestedBytes += bytes;
  const simt::Range &range = simt::ranges[low];
  simt::Coverage &c = *coverage;
  uint64_t *bits = range.bits[c.kind];
  // Only the bytes inside the range: its bitmap ends with it.
  const uint64_t size = range.end - range.begin;
  uint64_t from = at - range.begin;
  const uint64_t to = from + bytes < size ? from + bytes : size;
  while (from < to) {
    const uint64_t first = from % 64,
                   n = 64 - first < to - from ? 64 - first : to - from;
    uint64_t &word = bits[from / 64];
    if (!word) {
      if (c.count == c.capacity) {
        c.capacity = c.capacity ? 2 * c.capacity : 4096;
        c.touched = static_cast<uint64_t **>(
            realloc(c.touched, c.capacity * sizeof(uint64_t *)));
        if (!c.touched)
          __builtin_trap();
      }
      c.touched[c.count++] = &word;
    }
    word |= (n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1) << first;
    from += n;
  }
}
/// The bytes the block touched, each once; clears them.
SIMT_UNCOUNTED uint64_t simt_covered(simt::Coverage *coverage) {
  simt::Coverage &c = *coverage;
  uint64_t bytes = 0;
  for (size_t i = 0; i < c.count; ++i) {
    bytes += uint64_t(__builtin_popcountll(*c.touched[i]));
    *c.touched[i] = 0;
  }
  c.count = 0;
  return bytes;
}
namespace simt {
/// The distinct sectors of the k-th accesses of one warp's lanes (a
/// request), from their logs: an insertion sort of at most two sectors a
/// lane, no library call; an access over more than two (a range) counts
/// all of its own.
SIMT_HARNESS inline uint64_t requestSectors(const AccessLog *lanes, size_t k) {
  uint64_t sectors[2 * kWarp];
  unsigned n = 0;
  uint64_t wide = 0;
  for (unsigned lane = 0; lane < kWarp; ++lane) {
    if (k >= lanes[lane].count)
      continue;
    const uint64_t entry = lanes[lane].entries[k];
    const uint64_t first = entry >> 8, count = entry & 255;
    if (count > 2) {
      wide += count;
      continue;
    }
    for (uint64_t s = first; s < first + count; ++s) {
      unsigned at = n++;
      for (; at > 0 && sectors[at - 1] > s; --at)
        sectors[at] = sectors[at - 1];
      sectors[at] = s;
    }
  }
  uint64_t distinct = wide;
  for (unsigned i = 0; i < n; ++i)
    distinct += i == 0 || sectors[i] != sectors[i - 1];
  return distinct;
}

/// Adds the block that ended to the counts.
SIMT_HARNESS inline void endBlockCounts() {
  bytesRead += simt_covered(&blockReads);
  bytesWritten += simt_covered(&blockWrites);
  for (unsigned warp = 0; warp < kMostThreads / kWarp; ++warp) {
    const AccessLog *lanes = threadLogs + warp * kWarp;
    size_t most = 0;
    for (unsigned lane = 0; lane < kWarp; ++lane)
      most = std::max(most, lanes[lane].count);
    longestThread = std::max<uint64_t>(longestThread, most);
    for (size_t k = 0; k < most; ++k)
      sectorsTouched += requestSectors(lanes, k);
  }
  for (AccessLog &log : threadLogs)
    log.count = 0;
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

extern "C" SIMT_HARNESS void simt_launch(void (*kernel)(void **),
                                         unsigned grid, unsigned block,
                                         void **buffers) {
  gridDim = {grid, 1, 1};
  blockDim = {block, 1, 1};
  simt::kernel = kernel;
  simt::buffers = buffers;
  std::vector<std::unique_ptr<simt::Fiber>> &fibers = simt::fibers;
#ifdef SIMT_COUNT_BYTES
  if (block > simt::kMostThreads) {
    fputs("simt_launch: a block of more than 1024 threads\n", stderr);
    abort();
  }
  // Accesses made outside a block (the host's) belong to no thread.
  for (simt::AccessLog &log : simt::threadLogs)
    log.count = 0;
#endif
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
      // The stack's top: it grows down.
      f.context = simt::fcontext::make_fcontext(
          f.stack.get() + simt::kStackBytes, simt::kStackBytes,
          simt::fiberMain);
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
        fibers[t]->context =
            simt::fcontext::jump_fcontext(fibers[t]->context, nullptr).fctx;
      }
    }
#ifdef SIMT_COUNT_BYTES
    simt::endBlockCounts();
#endif
  }
}


#endif // TC_TEST_SIMT_SIMT_H
