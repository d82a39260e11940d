// The host prelude, after the common one: dropout masks drawn once per
// step, row caches, and the skeleton macros mapped to OpenMP loops.

#include <algorithm>
#include <cstring>
#include <type_traits>
namespace tc {
// The keep bits of a dropout op, a byte per element, drawn once per step:
// Philox once per 4 elements (not once per element, as dropoutKeeps in a
// loop), and kept for the step's other kernels that apply the same mask
// (the backward, LayerNorms that recompute their input). Called between
// kernels' parallel regions, never inside one. On AVX2 without AVX-512 the
// blocks are drawn 16 at a time in vector lanes (PhiloxAvx2.h).
inline const uint8_t *dropoutMask(uint64_t seed, uint64_t step, uint64_t key,
                                  double rate, int64_t n) {
  struct Mask {
    uint64_t key;
    double rate;
    std::vector<uint8_t> keeps;
  };
  // One process-wide set: every CPU device loading these kernels shares it,
  // so two devices must not run training steps at once (translation, which
  // several devices run at once with tc-run translate --workers, draws none).
  static uint64_t maskSeed = 0, maskStep = 0;
  static std::vector<Mask> masks; // of (maskSeed, maskStep)
  if (seed != maskSeed || step != maskStep) {
    masks.clear();
    maskSeed = seed;
    maskStep = step;
  }
  int64_t blocks = (n + 3) / 4;
  for (const Mask &m : masks)
    if (m.key == key && m.rate == rate && int64_t(m.keeps.size()) == 4 * blocks)
      return m.keeps.data();
  masks.push_back({key, rate, std::vector<uint8_t>(4 * blocks)});
  uint8_t *keeps = masks.back().keeps.data();
  int64_t firstScalar = 0; // blocks before it are drawn in vector lanes
#if defined(__AVX2__) && !defined(__AVX512F__)
  int64_t groups = blocks / kPhiloxAvx2Blocks;
  uint32_t threshold = dropoutThreshold(rate);
#pragma omp parallel for
  for (int64_t g = 0; g < groups; ++g)
    dropoutKeepsAvx2(seed, step, key, g * kPhiloxAvx2Blocks, threshold,
                     keeps + 4 * kPhiloxAvx2Blocks * g);
  firstScalar = groups * kPhiloxAvx2Blocks;
#endif
#pragma omp parallel for
  for (int64_t b = firstScalar; b < blocks; ++b) {
    PhiloxCounter words = dropoutWords(seed, step, key, b);
    for (int l = 0; l < 4; ++l)
      keeps[4 * b + l] = uniformOf(words[l]) >= rate;
  }
  return keeps;
}
// exp(x) for the row kernels' softmaxes, in f32: Cephes' expf (within 2 ulp
// of the exact value; 0 below -87.3, where f32 underflows; NaN for NaN, on
// which log_softmax's max relies), plain arithmetic that loops vectorise,
// where libm's exp is a call per element.
inline float rowExp(double x) {
  float v = float(x);
  float c = v != v ? 0.0f : std::min(std::max(v, -87.3f), 88.0f); // n finite
  float n = std::floor(c * 1.44269504088896341f + 0.5f);
  float r = c - n * 0.693359375f - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  int32_t bits = (int32_t(n) + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return v != v ? v : v < -87.3f ? 0.0f : p * scale; // NaN stays NaN
}
} // namespace tc
// Independent iterations across OpenMP threads.
#define TC_FOR(i, n) _Pragma("omp parallel for") for (int64_t i = 0; i < (n); ++i)
// TC_FOR whose iterations may also run in vector lanes: each reads at i only
// what it writes at i (in place is fine) and nothing another writes. For
// loops over so many pointers that the compiler would not check their
// overlap at run time and stays scalar (Adam's eight: 12.7 -> 3.0 ms a step
// on small, one Zen 5 thread).
#define TC_FOR_LANES(i, n)                                                    \
  _Pragma("omp parallel for simd") for (int64_t i = 0; i < (n); ++i)
// The row skeleton on the host: rows across OpenMP threads, a row in order.
#define TC_ROWS(r) _Pragma("omp parallel for") for (int64_t r = 0; r < rows; ++r)
#define TC_ROW(k) for (int64_t k = 0; k < D; ++k)
// A row loop whose only dependences between iterations are `var op= ...`
// for each of its variables (op + or max): vectorised in partial sums
// (maxima) combined at its end. Not the in-order sum of TC_ROW: the same
// for any thread count, but a double sum may differ from it in its last
// bits.
#define TC_ROW_REDUCE(k, op, ...)                                             \
  _Pragma(TC_STRINGIFY(omp simd reduction(op : __VA_ARGS__)))                 \
  for (int64_t k = 0; k < D; ++k)
#define TC_STRINGIFY(x) #x
#define TC_ROW_SUM(x) (x)
#define TC_ROW_MAX(x) (x)
#define TC_ROW_LEADER if (true)
// The mask of the dropout op with `key` (seed and step in scope) over n
// elements, and whether it keeps element i.
#define TC_DROPOUT_MASK(name, key, rate, n)                                   \
  const uint8_t *name = tc::dropoutMask(seed, step, key, rate, n);
#define TC_KEEPS(name, key, rate, i) (name[i] != 0)
// name(k): `value` (an expression of k) of the row's element k as `type`,
// computed once per row into a buffer of the thread's (the GPU recomputes
// it instead): on its stack for rows of up to 2,048 (attention's rows of
// 32, where a thread-local lookup a row cost more than the row's work),
// else kept between rows and calls.
#define TC_ROW_CACHE(type, name, value)                                       \
  type name##_stack[D <= 2048 ? D : 1];                                       \
  type *name##_row = name##_stack;                                            \
  if constexpr (D > 2048) {                                                   \
    static thread_local std::vector<type> name##_cache;                       \
    name##_cache.resize(D);                                                   \
    name##_row = name##_cache.data();                                         \
  }                                                                           \
  for (int64_t k = 0; k < D; ++k)                                             \
    name##_row[k] = (value);                                                  \
  auto name = [&](int64_t k) { return name##_row[k]; };
// A softmax row's statistics over z (an expression of k): max and sum,
// declared by the caller, become the row's maximum and the sum of
// rowExp(z - max); e(k) is that exponential; total (declared by the caller,
// who may ignore it) the sum of z. Here three passes over the row, the max
// and the sums in vector lanes (the loss and its gradient, 8,000 logits a
// row on small, were scalar: 8 ms a step each on one Zen 5 thread), the
// exponentials cached; on CUDA one pass for both (Cuda.h). The max is a
// comparison that skips a NaN, which the sum then carries (rowExp(NaN) is
// NaN). The max and z - max are in z's own type: for f32 logits, f32 lanes
// and the same bits as in double (a float's difference rounded once from
// double is the float difference: 53 >= 2 x 24 + 2 bits).
#define TC_ROW_SOFTMAX(e, z, rowMax, rowSum, total)                           \
  auto e##_z = [&](int64_t k) { return (z); };                                \
  using e##_z_type = decltype(e##_z(0));                                      \
  static_assert(std::is_floating_point_v<e##_z_type>, "z: float or double");  \
  e##_z_type e##_max = -INFINITY;                                             \
  TC_ROW_REDUCE(k, max, e##_max) {                                            \
    const e##_z_type e##_zk = e##_z(k);                                       \
    e##_max = e##_zk > e##_max ? e##_zk : e##_max;                            \
  }                                                                           \
  rowMax = TC_ROW_MAX(e##_max);                                               \
  TC_ROW_CACHE(float, e, tc::rowExp(e##_z(k) - e##_z_type(rowMax)))           \
  TC_ROW_REDUCE(k, +, rowSum, total) {                                        \
    rowSum += e(k);                                                           \
    total += e##_z(k);                                                        \
  }                                                                           \
  rowSum = TC_ROW_SUM(rowSum);
#define TC_ROW_SOFTMAX_SHORT TC_ROW_SOFTMAX // (Cuda.h)
// Sums across rows, each column in row order: blocks of columns [k0, k1)
// across OpenMP threads, a block's columns side by side in the inner loop
// (vectorised, and the same sums as a column at a time).
// TC_COLUMN_ROWS(r, n): every row r < n, in order; TC_COLUMN_TOTALS, which
// adds the GPU's parts of a column's rows, is the identity here.
#define TC_COLUMN_BLOCK 64
#define TC_COLUMN_BLOCKS(k0, k1)                                              \
  _Pragma("omp parallel for") for (int64_t b = 0; b < (D + 63) / 64; ++b)     \
    for (int64_t k0 = b * 64, k1 = std::min<int64_t>(D, k0 + 64), once = 1;   \
         once; once = 0)
#define TC_COLUMN_ROWS(r, n) for (int64_t r = 0; r < (n); ++r)
#define TC_COLUMN_TOTALS(...) (void)0
#define TC_COLUMN_LEADER if (true)
// total, count: the sum of value(r) over the rows where counted(r), in row
// order; the rows' values in parallel.
#define TC_ORDERED_ROW_SUM(total, count, counted, value)                      \
  std::vector<double> total##_rows(rows);                                     \
  _Pragma("omp parallel for") for (int64_t r = 0; r < rows; ++r)              \
    total##_rows[r] = counted(r) ? value(r) : 0.0;                            \
  double total = 0.0;                                                         \
  int32_t count = 0;                                                          \
  for (int64_t r = 0; r < rows; ++r)                                          \
    if (counted(r)) {                                                         \
      total += total##_rows[r];                                               \
      ++count;                                                                \
    }
#define TC_ORDERED_ROW_SUM_LEADER(total) if (true)
