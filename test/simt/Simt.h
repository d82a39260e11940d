//===- Simt.h - runs CUDA C++ kernels on the host, for tests ---------------===//
//
// Generated CUDA source compiled as host C++ with this header first: the
// threads of a block are host threads (one block at a time), __syncthreads
// is a barrier of the block's threads, a warp's shuffles exchange values
// through a per-warp slot between two barriers of the warp, __shared__
// variables are statics (shared by the block's threads; blocks do not
// overlap), and CUDA's math builtins map to the C++ library's. Never part
// of the product: it lets a machine without a GPU check generated kernels
// against the interpreter.
//
//   extern "C" void simt_launch(void (*kernel)(void **), unsigned grid,
//                               unsigned block, void **buffers);
//
//===----------------------------------------------------------------------===//

#ifndef TC_TEST_SIMT_SIMT_H
#define TC_TEST_SIMT_SIMT_H

#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
};

inline thread_local dim3 threadIdx, blockIdx;
inline dim3 blockDim, gridDim;

#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static
#define __restrict__

namespace simt {
constexpr unsigned kWarp = 32;
inline std::barrier<> *block; // of the running block
inline std::vector<std::unique_ptr<std::barrier<>>> warps; // one per warp
inline std::vector<uint64_t> slots;                        // one per thread
} // namespace simt

inline void __syncthreads() { simt::block->arrive_and_wait(); }

/// The value `lane ^ laneMask` of the warp holds.
template <typename T>
inline T __shfl_xor_sync(unsigned, T value, int laneMask, int = 32) {
  static_assert(sizeof(T) <= sizeof(uint64_t));
  unsigned thread = threadIdx.x, warp = thread / simt::kWarp;
  std::memcpy(&simt::slots[thread], &value, sizeof(T));
  simt::warps[warp]->arrive_and_wait();
  unsigned partner = (thread ^ unsigned(laneMask));
  T other;
  std::memcpy(&other, &simt::slots[partner], sizeof(T));
  simt::warps[warp]->arrive_and_wait();
  return other;
}

inline float __int_as_float(int bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

extern "C" void simt_launch(void (*kernel)(void **), unsigned grid,
                            unsigned block, void **buffers) {
  gridDim = {grid, 1, 1};
  blockDim = {block, 1, 1};
  for (unsigned b = 0; b < grid; ++b) {
    std::barrier<> barrier(block);
    simt::block = &barrier;
    simt::warps.clear();
    for (unsigned w = 0; w * simt::kWarp < block; ++w)
      simt::warps.push_back(std::make_unique<std::barrier<>>(
          std::min(simt::kWarp, block - w * simt::kWarp)));
    simt::slots.assign(block, 0);
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < block; ++t)
      threads.emplace_back([=] {
        threadIdx = {t, 0, 0};
        blockIdx = {b, 0, 0};
        kernel(buffers);
      });
    for (std::thread &thread : threads)
      thread.join();
  }
}

#endif // TC_TEST_SIMT_SIMT_H
