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
// A tc.reduce_max's block-wide total (LoopKernel's GpuRows): NaN propagates.
inline double blockMaximum(double v) {
  return blockReduce(v, [](double a, double b) { return maximum(a, b); });
}
// exp(x) for the row kernels' softmaxes, in f32 (the hardware's expf).
inline float rowExp(double x) { return expf(float(x)); }
// Sums across rows (TC_COLUMN_BLOCKS): the threads of a block are groups of
// kColumnLanes, a lane per column of the block's tile, the groups over the
// rows; the total of a column adds the groups' partial sums in group order
// and is valid in the first group (deterministic for a block size).
// A warp's lanes, so that a warp reads 128 contiguous bytes of one row: with
// 8 it read 32 bytes of each of four rows, and base_paper's ReLU gradients
// with their bias sums took 3.1x their bytes' time on an H200.
constexpr int kColumnLanes = 32;
inline double columnTotal(double v) {
  __shared__ double partial[1024];
  __syncthreads(); // the previous total has read partial
  partial[threadIdx.x] = v;
  __syncthreads();
  double total = 0.0;
  if (threadIdx.x < kColumnLanes)
    for (unsigned g = 0; g < blockDim.x / kColumnLanes; ++g)
      total += partial[g * kColumnLanes + threadIdx.x];
  return total;
}
// Whether this block is the last of `blocks` to arrive here (the same
// answer in all its threads), after which their earlier writes to global
// memory are visible to it; `arrived` (zero before the launch) is zero again
// after it.
inline bool lastToArrive(unsigned *arrived, unsigned blocks) {
  __shared__ bool last;
  __threadfence(); // this block's writes before its arrival
  __syncthreads();
  if (threadIdx.x == 0) {
    // Fences on both sides of the count in the thread that makes it: the
    // block's writes (ordered before it by the barrier) are released with
    // it, and the last block's reads acquire the others'.
    __threadfence();
    last = atomicAdd(arrived, 1u) == blocks - 1;
    __threadfence();
    if (last)
      *arrived = 0; // every other block has arrived: the next launch's
  }
  __syncthreads();
  if (!last)
    return false;
  __threadfence();
  return true;
}
// lastToArrive of the grid's blocks.
inline bool lastBlockToArrive(unsigned *arrived) {
  return lastToArrive(arrived, gridDim.x);
}
// How many parts a column sum over `rows` rows splits them into: enough for
// the tiles and parts to fill a GPU's blocks (about 1,024 pairs: on an
// H100, base_paper's LayerNorm gradients, 64 tiles over 24,576 rows in 64
// blocks, took 11x their bytes), at least 256 rows a part.
constexpr int64_t kColumnSums = 2; // the most sums TC_COLUMN_TOTALS takes
constexpr int64_t columnParts(int64_t rows, int64_t tiles) {
  int64_t parts = (1024 + tiles - 1) / tiles, most = rows / 256;
  parts = parts < most ? parts : most;
  return parts < 1 ? 1 : parts;
}
// The column sums `sums` (arrays of one element) of one (tile, part): the
// groups' sums added (columnTotal); with several parts, each part's
// published in `scratch` ([sum][part][column], room for ScratchSums sums)
// and the last block of the tile to arrive (`arrived`, a count per tile,
// zero again after) adds them. Whether this thread stores the totals: the
// first group of the block that holds them. The row kernels' column sums
// (TC_COLUMN_TOTALS) and the fused loops' (LoopKernel.cpp) both end here.
template <int64_t ScratchSums, typename... Sums>
inline bool columnTotals(int64_t tile, int64_t part, int64_t parts, int64_t k0,
                         int64_t D, double *scratch, unsigned *arrived,
                         Sums &...sums) {
  static_assert(sizeof...(Sums) <= ScratchSums, "scratch too small");
  ((sums[0] = columnTotal(sums[0])), ...);
  bool leader = threadIdx.x < kColumnLanes && k0 < D;
  if (parts == 1)
    return leader;
  int64_t s = 0;
  if (leader)
    ((scratch[(s++ * parts + part) * D + k0] = sums[0]), ...);
  if (!lastToArrive(&arrived[tile], unsigned(parts)))
    return false;
  // Every group of the last block adds a share of the parts (group g parts
  // g, g + groups, ...), then columnTotal adds the groups' sums in group
  // order: a chain of parts / groups + groups loads and adds, where the
  // first group alone added them in turn (64 parts of the plain bias sums
  // at kColumnLanes 32: 4.3x their bytes' time on an H200).
  const int64_t group = threadIdx.x / kColumnLanes,
                groups = blockDim.x / kColumnLanes;
  s = 0;
  auto total = [&](int64_t sum) {
    double t = 0.0;
    if (k0 < D)
      for (int64_t p = group; p < parts; p += groups)
        t += *static_cast<volatile double *>(&scratch[(sum * parts + p) * D + k0]);
    return columnTotal(t);
  };
  ((sums[0] = total(s++)), ...);
  return leader;
}
} // namespace tc
// Independent iterations across all threads of the grid (grid-stride).
#define TC_FOR(i, n)                                                          \
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < (n);    \
       i += int64_t(gridDim.x) * blockDim.x)
#define TC_FOR_LANES(i, n) TC_FOR(i, n) // (Host.h)
#define TC_ROWS(r) for (int64_t r = blockIdx.x; r < rows; r += gridDim.x)
#define TC_ROW(k) for (int64_t k = threadIdx.x; k < D; k += blockDim.x)
#define TC_ROW_REDUCE(k, op, ...) TC_ROW(k)
#define TC_ROW_SUM(x) tc::blockSum(x)
#define TC_ROW_MAX(x) tc::blockMax(x)
#define TC_ROW_LEADER if (threadIdx.x == 0)
// Dropout masks are drawn where they are used (Philox is cheap on a GPU).
#define TC_DROPOUT_MASK(name, key, rate, n)
#define TC_KEEPS(name, key, rate, i) tc::dropoutKeeps(seed, step, key, i, rate)
#define TC_ROW_CACHE(type, name, value)                                       \
  auto name = [&](int64_t k) { return type(value); };
// A softmax row's statistics (Host.h says what they are) in one pass over
// the row rather than two: each thread keeps its running maximum and its
// sum scaled to it (rescaled when the maximum rises), then the block's
// maximum and the sums rescaled to it are combined ("online softmax",
// Milakov and Gimelshein 2018). The loss and its gradient read rows of the
// whole vocabulary, beyond what L1 holds: each pass is a read of the logits
// from L2 or memory. The sum differs from the two-pass one in its last
// bits (terms rounded to f32 against another maximum).
// A NaN stays in the sum, a -inf adds nothing, and a row of -inf alone sums
// to NaN, as the two passes give.
#define TC_ROW_SOFTMAX(e, z, max, sum, total)                                 \
  TC_ROW(k) {                                                                 \
    const double tc_z = double(z);                                            \
    if (tc_z > max) {                                                         \
      sum *= std::exp(max - tc_z); /* 0 while max is -inf */                  \
      max = tc_z;                                                             \
    }                                                                         \
    if (tc_z != -INFINITY)                                                    \
      sum += tc::rowExp(tc_z - max);                                          \
    total += tc_z;                                                            \
  }                                                                           \
  {                                                                           \
    const double tc_max = TC_ROW_MAX(max);                                    \
    sum = TC_ROW_SUM(sum == 0.0 ? 0.0 : sum * std::exp(max - tc_max));        \
    if (tc_max == -INFINITY)                                                  \
      sum = std::numeric_limits<double>::quiet_NaN();                         \
    max = tc_max;                                                             \
  }                                                                           \
  TC_ROW_CACHE(float, e, tc::rowExp((z) - max))
// TC_ROW_SOFTMAX for rows that stay in L1 (attention's): two passes, a max
// then the sums, where the online pass would add an exp a rise of the max.
#define TC_ROW_SOFTMAX_SHORT(e, z, max, sum, total)                           \
  TC_ROW(k) {                                                                 \
    const double tc_z = double(z);                                            \
    max = tc_z > max ? tc_z : max;                                            \
  }                                                                           \
  max = TC_ROW_MAX(max);                                                      \
  TC_ROW_CACHE(float, e, tc::rowExp((z) - max))                               \
  TC_ROW(k) {                                                                 \
    sum += e(k);                                                              \
    total += (z);                                                             \
  }                                                                           \
  sum = TC_ROW_SUM(sum);
// Sums across rows: tiles of kColumnLanes columns, each tile's rows split
// into tc::columnParts parts, a (tile, part) pair per block (grid-stride);
// a thread a column [k0, k1) of its tile (empty past D) and the rows of its
// part TC_COLUMN_ROWS gives its group. TC_COLUMN_TOTALS adds the groups'
// sums, then the last block of a tile to finish adds its parts'
// (columnTotals); TC_COLUMN_LEADER (that block's first group) stores them. The
// parts' buffer and counts are the kernel's, not the launch's: launches of
// one kernel must not overlap (one stream). TC_COLUMN_ROWS takes the
// kernel's `rows`, which its parts divide.
#define TC_COLUMN_BLOCK 1
#define TC_COLUMN_BLOCKS(k0, k1)                                              \
  constexpr int64_t tc_column_tiles =                                         \
      (D + tc::kColumnLanes - 1) / tc::kColumnLanes;                          \
  constexpr int64_t tc_column_parts = tc::columnParts(rows, tc_column_tiles); \
  constexpr int64_t tc_column_chunk =                                         \
      (rows + tc_column_parts - 1) / tc_column_parts;                         \
  static double tc_column_scratch[tc::kColumnSums * tc_column_parts * D];     \
  static unsigned tc_column_arrived[tc_column_tiles];                         \
  for (int64_t tc_pair = blockIdx.x;                                          \
       tc_pair < tc_column_tiles * tc_column_parts; tc_pair += gridDim.x)     \
    for (int64_t tile = tc_pair % tc_column_tiles,                            \
                 part = tc_pair / tc_column_tiles,                            \
                 k0 = tile * tc::kColumnLanes + threadIdx.x % tc::kColumnLanes, \
                 k1 = std::min<int64_t>(k0 + 1, D), once = 1;                 \
         once; once = 0)
#define TC_COLUMN_ROWS(r, n)                                                  \
  for (int64_t r = part * tc_column_chunk + threadIdx.x / tc::kColumnLanes;   \
       r < std::min<int64_t>((n), (part + 1) * tc_column_chunk);              \
       r += blockDim.x / tc::kColumnLanes)
#define TC_COLUMN_TOTALS(...)                                                 \
  const bool tc_column_store = tc::columnTotals<tc::kColumnSums>(           \
      tile, part, tc_column_parts, k0, D, tc_column_scratch,                  \
      tc_column_arrived, __VA_ARGS__)
#define TC_COLUMN_LEADER if (tc_column_store)
// total, count: the sum of value(r) over the rows where counted(r). Each
// block computes its rows' values (a block per row, grid-stride) into a
// buffer of the kernel's in global memory; the last block to finish adds
// them, thread t rows t, t + blockDim.x, ..., then the threads' sums in
// order (deterministic), and only its TC_ORDERED_ROW_SUM_LEADER stores them.
// The buffer and the count are the kernel's, not the launch's: launches of
// one kernel must not overlap (the CUDA device runs a function's kernels in
// order on one stream).
#define TC_ORDERED_ROW_SUM(total, count, counted, value)                      \
  static double total##_rows[rows];                                           \
  static unsigned total##_arrived;                                            \
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x)                      \
    if (counted(r)) {                                                         \
      double v = value(r);                                                    \
      if (threadIdx.x == 0)                                                   \
        total##_rows[r] = v;                                                  \
    }                                                                         \
  const bool total##_last = tc::lastBlockToArrive(&total##_arrived);         \
  double total = 0.0;                                                         \
  int32_t count = 0;                                                          \
  if (total##_last) {                                                         \
    double part = 0.0, parts = 0.0;                                           \
    for (int64_t r = threadIdx.x; r < rows; r += blockDim.x)                  \
      if (counted(r)) {                                                       \
        part += *static_cast<volatile double *>(&total##_rows[r]);            \
        parts += 1.0;                                                         \
      }                                                                       \
    total = tc::blockSum(part);                                               \
    count = int32_t(tc::blockSum(parts));                                     \
  }
#define TC_ORDERED_ROW_SUM_LEADER(total) if (total##_last && threadIdx.x == 0)
