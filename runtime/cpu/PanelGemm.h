//===- PanelGemm.h - weight GEMMs on weights packed once into panels ------===//
//
// A decoder step multiplies a few rows (4 per sentence at beam 4) by each
// weight. oneDNN's f32 matmul and sgemm pack B into their own layout on
// every call, and on a CPU without AVX-512 oneDNN 2.6 has no matmul that
// keeps a packed B (its "any" layout is the plain one): at 4 rows the
// packing costs more than the product (4x256x256 took 30 us, 17 GFLOP/s,
// on a Zen 3). Here op(B) is packed once, when its weight is first used,
// into panels of 16 columns (panel p holds columns 16p..16p+15 of every
// k, zero past the last column), and an AVX2+FMA kernel runs each panel
// over all rows while it sits in L1, 6 rows at a time (12 accumulators,
// two B vectors and a broadcast in 16 registers; the last 1..5 rows in
// tiles of 4), then adds the bias and the ReLU.
//
// Each C element is sum_k a(i, k) b(k, j) by fused multiply-adds in k's
// order, then + bias: the same arithmetic whichever rows, row count or
// column split the block has, so where the panels run for every row count
// (oneDNN's ISA AVX2: PreparedGemms.h) a sentence's numbers do not depend
// on its batch.
//
// int8 (PackedInt8Panels): the same layout for a weight quantized to s8
// within [-63, 63] (PreparedGemms.h says how), 4 k values of each of 16
// columns in 64 bytes, so that vpmaddubsw multiplies 4 u8 values of a row,
// broadcast, with them; the s32 sums are exact, the same as oneDNN's
// u8s8s32 matmul gives (which, like its f32 one, repacks the weight on
// every call on AVX2). Each tile's sums are dequantized into C while they
// are in registers (Int8Dequantization), in the order of PreparedGemms.cpp's
// pass over oneDNN's sums, so both give the same bits. (Written to memory
// and dequantized in a pass of its own, the sums cost the demo decoder's
// int8 GEMMs 17% more time on a Zen 3.)
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_PANELGEMM_H
#define TC_RUNTIME_CPU_PANELGEMM_H

#include "runtime/cpu/CandidatesBlock.h"
#include "runtime/cpu/GemmBlock.h"

#include <cstdint>
#include <cstdlib>
#include <memory>

namespace tc::rt {

/// Whether this CPU runs the panel kernels (AVX2 and FMA); decided once.
bool cpuHasPanelKernel();

/// The columns of a panel, f32 or int8: two AVX2 vectors of f32 or s32.
constexpr int64_t kPanelWidth = 16;

/// 64-byte aligned memory for a panel layout.
struct AlignedBytes {
  struct Free {
    void operator()(void *p) const { std::free(p); }
  };
  explicit AlignedBytes(size_t bytes);
  std::unique_ptr<void, Free> data;
};

/// op(B) of an f32 block, k x cols, in panels of 16 columns.
class PackedPanels {
public:
  /// Packs op(B) of `block` (its transposeB, b, ldb, k and cols).
  explicit PackedPanels(const GemmBlock &block);

  /// Panel p: k rows of kPanelWidth floats.
  const float *panel(int64_t p) const {
    return static_cast<const float *>(bytes_.data.get()) + p * k_ * kPanelWidth;
  }

private:
  int64_t k_;
  AlignedBytes bytes_;
};

/// C = act(op(A) op(B) + bias) for `block` (f32; alpha 1, beta 0), op(B)
/// read from `panels` (packed from this block's op(B)). Needs
/// cpuHasPanelKernel(). Runs on the calling thread.
void panelGemm(const GemmBlock &block, const PackedPanels &panels);

/// How an int8 block's exact sums become C: element (i, j) is
///   float(sum - shift * columnSums[j]) * rowScales[i] * columnScales[j]
///     + bias[j] (0 without a bias),
/// then max(0, that) with relu, each step rounded to f32 in this order.
struct Int8Dequantization {
  const float *rowScales, *columnScales;
  const int32_t *columnSums;
  int32_t shift;
  const float *bias; ///< or null
  bool relu;
};

/// The largest weight magnitude the int8 panels take: 2 x 127 x 63 fits
/// twice in s16, so the kernel adds two of vpmaddubsw's pair sums before
/// widening them (PanelGemm.cpp's int8Tile).
constexpr int kInt8PanelWeightLimit = 63;

/// A quantized weight block, op(B) as s8 within +-kInt8PanelWeightLimit,
/// in panels of 16 columns whose k is padded with zeros to whole pairs of
/// quads: a panel's quad q is 64 bytes, column c's values k = 4q..4q+3 at
/// bytes 4c..4c+3 (what AVX2's vpmaddubsw multiplies with 4 bytes of a row
/// broadcast to every column).
class PackedInt8Panels {
public:
  /// `columns`: op(B)'s cols columns of k values each, one after the other;
  /// throws std::invalid_argument where one is out of range.
  PackedInt8Panels(const int8_t *columns, int64_t k, int64_t cols);

  /// k rounded up to whole pairs of quads: the row length A must have.
  int64_t paddedK() const { return quads_ * 4; }

  /// C = dequantized(A op(B)), from the exact s32 sums of A op(B): A is
  /// rows x paddedK() u8 (row i at a + i * paddedK(); the values past k
  /// are not read into the sums: the padding of B is zero), each at most
  /// 127 (7 bits: the sum of two of vpmaddubsw's pair sums must fit in
  /// s16); C is rows x cols at c with leading dimension ldc. Needs
  /// cpuHasPanelKernel(). Runs on the calling thread.
  void product(const uint8_t *a, int64_t rows,
               const Int8Dequantization &dequantization, float *c,
               int64_t ldc) const;
  /// The same products' rows' candidates into `block` (RowCandidates.h),
  /// C never stored. block.k is at most kMaxRowCandidates.
  void productCandidates(const uint8_t *a, int64_t rows,
                         const Int8Dequantization &dequantization,
                         const CandidatesBlock &block) const;

private:
  int64_t quads_, cols_;
  AlignedBytes bytes_;
};

/// The candidates of `rows` stored rows of logits (row i at c + i * ldc)
/// into `block`, as productCandidates gives them: where an int8 block's
/// rows could not be quantized (RowCandidates.h). A row with a NaN or +inf
/// logit, or none above -inf, gets the generated kernel's NaNs. Needs
/// cpuHasPanelKernel().
void candidatesOfRows(const float *c, int64_t ldc, int64_t rows,
                      const CandidatesBlock &block);

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_PANELGEMM_H
