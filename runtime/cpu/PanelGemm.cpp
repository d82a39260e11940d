//===- PanelGemm.cpp - weight GEMMs on weights packed once into panels ----===//

#include "runtime/cpu/PanelGemm.h"
#include "runtime/cpu/Avx2.h"
#include "runtime/cpu/RowCandidates.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <stdexcept>
#include <vector>

namespace tc::rt {

bool cpuHasPanelKernel() {
  static const bool has =
      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
}

AlignedBytes::AlignedBytes(size_t bytes)
    : data(
          std::aligned_alloc(64, std::max<size_t>((bytes + 63) / 64, 1) * 64)) {
  if (!data)
    throw std::bad_alloc();
}

/// `cols` rounded up to whole panels.
static int64_t paddedCols(int64_t cols) {
  return (cols + kPanelWidth - 1) / kPanelWidth * kPanelWidth;
}

PackedPanels::PackedPanels(const GemmBlock &g)
    : k_(g.k), bytes_(size_t(paddedCols(g.cols) * g.k) * sizeof(float)) {
  const float *b = static_cast<const float *>(g.b);
  float *out = static_cast<float *>(bytes_.data.get());
  for (int64_t p = 0; p * kPanelWidth < g.cols; ++p)
    for (int64_t kk = 0; kk < k_; ++kk)
      for (int64_t c = 0; c < kPanelWidth; ++c, ++out) {
        int64_t j = p * kPanelWidth + c;
        *out = j >= g.cols
                   ? 0.0f
                   : (g.transposeB ? b[j * g.ldb + kk] : b[kk * g.ldb + j]);
      }
}

PackedInt8Panels::PackedInt8Panels(const int8_t *columns, int64_t k,
                                   int64_t cols)
    : quads_((k + 7) / 8 * 2), cols_(cols),
      bytes_(size_t(paddedCols(cols) * quads_ * 4)) {
  for (int64_t i = 0; i < k * cols; ++i)
    if (columns[i] < -kInt8PanelWeightLimit ||
        columns[i] > kInt8PanelWeightLimit)
      throw std::invalid_argument(
          "PackedInt8Panels: a weight of magnitude over 63 (its s16 sums "
          "could saturate)");
  int8_t *out = static_cast<int8_t *>(bytes_.data.get());
  for (int64_t p = 0; p * kPanelWidth < cols; ++p)
    for (int64_t q = 0; q < quads_; ++q)
      for (int64_t c = 0; c < kPanelWidth; ++c)
        for (int64_t t = 0; t < 4; ++t, ++out) {
          int64_t j = p * kPanelWidth + c, kk = 4 * q + t;
          *out = j < cols && kk < k ? columns[j * k + kk] : int8_t(0);
        }
}

namespace {

/// Prefetches into L2 tile `tile`'s share of the f32 panel after the
/// current one (`bytes` long; the rows pass over a panel in `tiles` tiles).
/// The weights come from memory, where a panel's first tile waited on its
/// lines one after the other: on a Zen 3 core, with the weights out of
/// cache, the decoder's 64-row products went 4-9% faster (the demo's f32
/// GEMMs over the test books ~4%, in 3 of 4 interleaved pairs). A panel
/// over 16 KB (k over 256) is not prefetched: it leaves L1 between tiles
/// anyway, and the prefetches only competed with the hardware's. Not the
/// int8 panels: the demo's int8 weights (3 MB) stay in L3, and prefetching
/// them was no faster.
TC_AVX2_INLINE void prefetchShare(const char *next, int64_t bytes, int64_t tile,
                                  int64_t tiles) {
  if (!next || bytes > 16 * 1024)
    return;
  int64_t lines = (bytes + 63) / 64, share = (lines + tiles - 1) / tiles;
  for (int64_t l = tile * share; l < std::min(lines, (tile + 1) * share); ++l)
    _mm_prefetch(next + 64 * l, _MM_HINT_T1);
}

/// Rows rows of op(A) times one panel: row r's A elements are at
/// rows[r] + kk * kStride; out[2r], out[2r + 1] get its 16 sums.
template <int Rows>
TC_AVX2_INLINE void panelTile(const float *const rows[], int64_t kStride,
                              const float *panel, int64_t k, __m256 out[]) {
  __m256 sums[2 * Rows];
#pragma GCC unroll 16
  for (int r = 0; r < 2 * Rows; ++r)
    sums[r] = _mm256_setzero_ps();
  for (int64_t kk = 0; kk < k; ++kk, panel += 16) {
    __m256 b0 = _mm256_load_ps(panel), b1 = _mm256_load_ps(panel + 8);
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
      __m256 x = _mm256_broadcast_ss(rows[r] + kk * kStride);
      sums[2 * r] = _mm256_fmadd_ps(x, b0, sums[2 * r]);
      sums[2 * r + 1] = _mm256_fmadd_ps(x, b1, sums[2 * r + 1]);
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < 2 * Rows; ++r)
    out[r] = sums[r];
}

/// Stores one row of a panel's 16 results (y0, y1) into C at `row`: the
/// first `cols` of them.
TC_AVX2_INLINE void storeRow(float *row, __m256 y0, __m256 y1, int64_t cols) {
  if (cols == kPanelWidth) {
    _mm256_storeu_ps(row, y0);
    _mm256_storeu_ps(row + 8, y1);
    return;
  }
  alignas(32) float padded[16];
  _mm256_store_ps(padded, y0);
  _mm256_store_ps(padded + 8, y1);
  std::memcpy(row, padded, cols * sizeof(float));
}

/// Stores `count` rows of a tile's sums (+ bias, ReLU) into C: `cols` of
/// the panel's 16 columns.
TC_AVX2_INLINE void storeTile(const __m256 *sums, int count, const float *bias,
                              bool relu, float *c, int64_t ldc, int64_t cols) {
  alignas(32) float padded[16] = {};
  __m256 bias0 = _mm256_setzero_ps(), bias1 = _mm256_setzero_ps();
  if (bias) {
    std::memcpy(padded, bias, cols * 4);
    bias0 = _mm256_load_ps(padded);
    bias1 = _mm256_load_ps(padded + 8);
  }
  for (int r = 0; r < count; ++r) {
    __m256 y0 = _mm256_add_ps(sums[2 * r], bias0);
    __m256 y1 = _mm256_add_ps(sums[2 * r + 1], bias1);
    if (relu) {
      y0 = _mm256_max_ps(y0, _mm256_setzero_ps());
      y1 = _mm256_max_ps(y1, _mm256_setzero_ps());
    }
    storeRow(c + r * ldc, y0, y1, cols);
  }
}

/// Rows rows of u8 A times one int8 panel: row r's quads at rows[r];
/// out[2r], out[2r + 1] get its 16 s32 sums. Two quads at a time: each
/// vpmaddubsw gives pair sums in s16, at most 2 x 127 x 63 = 16,002 in
/// magnitude, so two of them add exactly in s16 (32,004 < 32,768) before
/// one vpmaddwd widens them to s32: 3 multiplies per 2 quads and 8 columns
/// where widening each took 4.
template <int Rows>
TC_AVX2_INLINE void int8Tile(const uint8_t *const rows[], const int8_t *panel,
                             int64_t quads, __m256i out[]) {
  const __m256i ones = _mm256_set1_epi16(1);
  __m256i sums[2 * Rows];
#pragma GCC unroll 16
  for (int r = 0; r < 2 * Rows; ++r)
    sums[r] = _mm256_setzero_si256();
  for (int64_t q = 0; q < quads; q += 2, panel += 128) {
    // b[h]: quad q's columns 8h..8h+7; b[h + 2]: quad q + 1's.
    __m256i b[4];
#pragma GCC unroll 4
    for (int v = 0; v < 4; ++v)
      b[v] = _mm256_load_si256(reinterpret_cast<const __m256i *>(panel) + v);
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
      int32_t quad[2];
      std::memcpy(quad, rows[r] + 4 * q, 8);
      __m256i x0 = _mm256_set1_epi32(quad[0]), x1 = _mm256_set1_epi32(quad[1]);
#pragma GCC unroll 2
      for (int h = 0; h < 2; ++h) {
        __m256i pairs = _mm256_add_epi16(_mm256_maddubs_epi16(x0, b[h]),
                                         _mm256_maddubs_epi16(x1, b[h + 2]));
        sums[2 * r + h] =
            _mm256_add_epi32(sums[2 * r + h], _mm256_madd_epi16(pairs, ones));
      }
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < 2 * Rows; ++r)
    out[r] = sums[r];
}

/// The rows of an int8 tile. 2 rows x 16 columns, a panel's 4 vectors of
/// two quads loaded once for both: on a Zen 3 core, with a decoder step's
/// 12 weights (1.8 MB) coming from L3, 115 GMAC/s against 101 for 4 rows
/// one column half at a time (4 rows x 16 columns do not fit 16 registers)
/// and 104 for 3 rows (best of 200 short interleaved runs each).
constexpr int kInt8TileRows = 2;

/// Runs every tile of A over every panel and gives each row's
/// dequantized 16 results to sink(row, first column, columns, y0, y1).
// The dequantization's multiplies and add stay apart (CMakeLists.txt
// compiles this file with -ffp-contract=off: GCC's vector intrinsics are
// plain operators, which it would fuse under target("fma")), as in the
// scalar pass of PreparedGemms.cpp, whose bits these must equal.
template <typename Sink>
TC_AVX2_INLINE void int8Product(const int8_t *panels, int64_t quads,
                                int64_t allCols, const uint8_t *a, int64_t rows,
                                const Int8Dequantization &d, Sink &sink) {
  int64_t ld = quads * 4;
  for (int64_t first = 0; first < allCols; first += kPanelWidth) {
    const int8_t *panel = panels + first / kPanelWidth * quads * 64;
    int cols = int(std::min(kPanelWidth, allCols - first));
    // The panel's columns' terms, zero past its last column.
    alignas(32) int32_t shiftedSums[16] = {};
    alignas(32) float scales[16] = {}, bias[16] = {};
    for (int j = 0; j < cols; ++j) {
      shiftedSums[j] = d.shift * d.columnSums[first + j];
      scales[j] = d.columnScales[first + j];
      bias[j] = d.bias ? d.bias[first + j] : 0.0f;
    }
    __m256i shifted[2];
    __m256 scale[2], add[2];
    for (int h = 0; h < 2; ++h) {
      shifted[h] = _mm256_load_si256(
          reinterpret_cast<const __m256i *>(shiftedSums + 8 * h));
      scale[h] = _mm256_load_ps(scales + 8 * h);
      add[h] = _mm256_load_ps(bias + 8 * h);
    }
    for (int64_t i = 0; i < rows; i += kInt8TileRows) {
      int count = int(std::min<int64_t>(kInt8TileRows, rows - i));
      const uint8_t *tile[kInt8TileRows];
      for (int r = 0; r < kInt8TileRows; ++r)
        tile[r] = a + (i + (r < count ? r : 0)) * ld;
      __m256i got[2 * kInt8TileRows];
      int8Tile<kInt8TileRows>(tile, panel, quads, got);
      for (int r = 0; r < count; ++r) {
        __m256 rowScale = _mm256_set1_ps(d.rowScales[i + r]);
        __m256 y[2];
        for (int h = 0; h < 2; ++h) {
          __m256 x =
              _mm256_cvtepi32_ps(_mm256_sub_epi32(got[2 * r + h], shifted[h]));
          x = _mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(x, rowScale), scale[h]),
                            add[h]);
          // max(0, x) keeps x where it is not below 0 (-0 and NaN too),
          // as std::max(x, 0.0f) does.
          y[h] = d.relu ? _mm256_max_ps(_mm256_setzero_ps(), x) : x;
        }
        sink(i + r, first, cols, y[0], y[1]);
      }
    }
  }
}

/// int8Product's results into C.
struct StoreRows {
  float *c;
  int64_t ldc;
  TC_AVX2_INLINE void operator()(int64_t row, int64_t first, int cols,
                                 __m256 y0, __m256 y1) {
    storeRow(c + row * ldc + first, y0, y1, cols);
  }
};

/// int8Product's results into each row's candidates.
struct TakeCandidates {
  RowCandidates *rows;
  const CandidatesBlock &block;
  TC_AVX2_INLINE void operator()(int64_t row, int64_t first, int cols,
                                 __m256 y0, __m256 y1) {
    rows[row].take(first, cols, y0, y1, block);
  }
};

} // namespace

TC_AVX2 void PackedInt8Panels::product(const uint8_t *a, int64_t rows,
                                       const Int8Dequantization &d, float *c,
                                       int64_t ldc) const {
  StoreRows sink{c, ldc};
  int8Product(static_cast<const int8_t *>(bytes_.data.get()), quads_, cols_, a,
              rows, d, sink);
}

TC_AVX2 void
PackedInt8Panels::productCandidates(const uint8_t *a, int64_t rows,
                                    const Int8Dequantization &d,
                                    const CandidatesBlock &block) const {
  thread_local std::vector<RowCandidates> state;
  state.clear();
  for (int64_t i = 0; i < rows; ++i)
    state.emplace_back(block.k);
  TakeCandidates sink{state.data(), block};
  int8Product(static_cast<const int8_t *>(bytes_.data.get()), quads_, cols_, a,
              rows, d, sink);
  for (int64_t i = 0; i < rows; ++i)
    state[i].finish(block, i);
}

TC_AVX2 void candidatesOfRows(const float *c, int64_t ldc, int64_t rows,
                              const CandidatesBlock &block) {
  for (int64_t i = 0; i < rows; ++i) {
    const float *logits = c + i * ldc;
    // A NaN, +inf, or nothing above -inf makes the generated kernel's sum
    // NaN, and so every candidate: NaN, the first k columns in order.
    float max = -INFINITY;
    bool nan = false;
    for (int64_t j = 0; j < block.columns; ++j) {
      nan |= logits[j] != logits[j];
      max = logits[j] > max ? logits[j] : max;
    }
    if (nan || std::isinf(max)) {
      for (int64_t t = 0; t < block.k; ++t) {
        block.values[i * block.k + t] = NAN;
        block.indices[i * block.k + t] = int32_t(t);
      }
      block.columnValues[i] = NAN;
      continue;
    }
    RowCandidates row(block.k);
    for (int64_t first = 0; first < block.columns; first += kPanelWidth) {
      int cols = int(std::min(kPanelWidth, block.columns - first));
      alignas(32) float chunk[16] = {};
      std::memcpy(chunk, logits + first, cols * sizeof(float));
      row.take(first, cols, _mm256_load_ps(chunk), _mm256_load_ps(chunk + 8),
               block);
    }
    row.finish(block, i);
  }
}

TC_AVX2 void panelGemm(const GemmBlock &g, const PackedPanels &panels) {
  const float *a = static_cast<const float *>(g.a);
  float *c = static_cast<float *>(g.c);
  int64_t rowStride = g.transposeA ? 1 : g.lda;
  int64_t kStride = g.transposeA ? g.lda : 1;
  // Panels outer: each is read from memory once and stays in L1 while
  // every row passes over it, 6 rows at a time (12 accumulators, two B
  // vectors and a broadcast in 16 registers), the last 1..5 rows in tiles
  // of 4 (a tile short of rows repeats its first row in the missing ones
  // and stores only its own).
  for (int64_t first = 0; first < g.cols; first += kPanelWidth) {
    const float *panel = panels.panel(first / kPanelWidth);
    int64_t cols = std::min(kPanelWidth, g.cols - first);
    const float *bias =
        g.bias ? static_cast<const float *>(g.bias) + first : nullptr;
    const char *next =
        first + kPanelWidth < g.cols
            ? reinterpret_cast<const char *>(panel + g.k * kPanelWidth)
            : nullptr;
    for (int64_t i = 0, tile = 0; i < g.rows; ++tile) {
      // (rows + 5) / 6 tiles at least: the last share may be fetched early.
      prefetchShare(next, g.k * kPanelWidth * sizeof(float), tile,
                    (g.rows + 5) / 6);
      int64_t left = g.rows - i;
      int height = left >= 6 && left != 8 ? 6 : 4;
      int count = int(std::min<int64_t>(height, left));
      const float *rows[6];
      for (int r = 0; r < height; ++r)
        rows[r] = a + (i + (r < count ? r : 0)) * rowStride;
      __m256 sums[12];
      if (height == 6)
        panelTile<6>(rows, kStride, panel, g.k, sums);
      else
        panelTile<4>(rows, kStride, panel, g.k, sums);
      storeTile(sums, count, bias, g.relu, c + i * g.ldc + first, g.ldc, cols);
      i += count;
    }
  }
}

} // namespace tc::rt
