// The CUDA prelude, after the common one: the skeleton macros mapped to
// blocks, threads and warp-shuffle block reductions.

// The row skeleton on the GPU: a block per row (grid-stride over rows), the
// block's threads over the row, block reductions through warp shuffles and
// shared memory (in double, in a fixed order: deterministic).
namespace tc {
template <typename Op> inline double blockReduce(double v, Op op) {
  for (int offset = 16; offset > 0; offset /= 2)
    v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  __shared__ double partial[32];
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  __syncthreads(); // the previous reduction has read partial
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  double total = partial[0];
  for (unsigned w = 1; w < (blockDim.x + 31) / 32; ++w)
    total = op(total, partial[w]);
  return total;
}
inline double blockSum(double v) {
  return blockReduce(v, [](double a, double b) { return a + b; });
}
inline double blockMax(double v) {
  return blockReduce(v, [](double a, double b) { return a < b ? b : a; });
}
// exp(x) for the row kernels' softmaxes, in f32 (the hardware's expf).
inline float rowExp(double x) { return expf(float(x)); }
} // namespace tc
// Independent iterations across all threads of the grid (grid-stride).
#define TC_FOR(i, n)                                                          \
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < (n);    \
       i += int64_t(gridDim.x) * blockDim.x)
#define TC_ROWS(r) for (int64_t r = blockIdx.x; r < rows; r += gridDim.x)
#define TC_ROW(k) for (int64_t k = threadIdx.x; k < D; k += blockDim.x)
#define TC_ROW_SUM(x) tc::blockSum(x)
#define TC_ROW_MAX(x) tc::blockMax(x)
#define TC_ROW_LEADER if (threadIdx.x == 0)
#define TC_GRID_LEADER if (blockIdx.x == 0 && threadIdx.x == 0)
// Dropout masks are drawn where they are used (Philox is cheap on a GPU).
#define TC_DROPOUT_MASK(name, key, rate, n)
#define TC_KEEPS(name, key, rate, i) tc::dropoutKeeps(seed, step, key, i, rate)
#define TC_ROW_CACHE(name, value) auto name = [&](int64_t k) { return double(value); };
// Sums across rows: a thread per column (grid-stride), in row order; the
// ordered sum over rows by one block, a row at a time.
#define TC_COLUMN_BLOCK 1
#define TC_COLUMN_BLOCKS(k0, k1)                                              \
  TC_FOR(k0, D) for (int64_t k1 = k0 + 1, once = 1; once; once = 0)
#define TC_ORDERED_ROW_SUM(total, count, counted, value)                      \
  double total = 0.0;                                                         \
  int32_t count = 0;                                                          \
  if (blockIdx.x == 0)                                                        \
    for (int64_t r = 0; r < rows; ++r)                                        \
      if (counted(r)) {                                                       \
        total += value(r);                                                    \
        ++count;                                                              \
      }
