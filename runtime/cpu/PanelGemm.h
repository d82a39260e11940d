//===- PanelGemm.h - f32 weight GEMMs on weights packed once into panels --===//
//
// A decoder step multiplies a few rows (4 per sentence at beam 4) by each
// weight. oneDNN's f32 matmul and sgemm pack B into their own layout on
// every call, and on a CPU without AVX-512 oneDNN 2.6 has no matmul that
// keeps a packed B (its "any" layout is the plain one): at 4 rows the
// packing costs more than the product (4x256x256 took 30 us, 17 GFLOP/s,
// on a Zen 3). Here op(B) is packed once, when its weight is first used,
// into panels of 16 columns (panel p holds columns 16p..16p+15 of every
// k, zero past the last column), and an AVX2+FMA kernel runs each panel
// over all rows while it sits in L1, 4 rows at a time (8 accumulators,
// FMA's latency times its two pipes), then adds the bias and the ReLU.
//
// Each C element is sum_k a(i, k) b(k, j) by fused multiply-adds in k's
// order, then + bias: the same arithmetic whichever rows, row count or
// column split the block has, so a sentence's numbers do not depend on
// its batch.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_PANELGEMM_H
#define TC_RUNTIME_CPU_PANELGEMM_H

#include "runtime/cpu/GemmBlock.h"

#include <cstdint>
#include <cstdlib>
#include <memory>

namespace tc::rt {

/// Whether this CPU runs the panel kernel (AVX2 and FMA); decided once.
bool cpuHasPanelKernel();

/// op(B) of an f32 block, k x cols, in panels of 16 columns.
class PackedPanels {
public:
  static constexpr int64_t kWidth = 16;

  /// Packs op(B) of `block` (its transposeB, b, ldb, k and cols).
  explicit PackedPanels(const GemmBlock &block);

  /// Whether these are op(B) of `block` read as it reads it (a square
  /// weight can be read transposed by one GEMM and as it is by another).
  bool packedFrom(const GemmBlock &block) const {
    return block.transposeB == transposeB_ && block.ldb == ldb_ &&
           block.k == k_ && block.cols == cols_;
  }
  /// Panel p: k rows of kWidth floats, 64-byte aligned.
  const float *panel(int64_t p) const { return data_.get() + p * k_ * kWidth; }

private:
  struct Free {
    void operator()(float *p) const { std::free(p); }
  };
  bool transposeB_;
  int64_t ldb_, k_, cols_;
  std::unique_ptr<float[], Free> data_;
};

/// C = act(op(A) op(B) + bias) for `block` (f32; alpha 1, beta 0), op(B)
/// read from `panels` (packed from this block's op(B)). Needs
/// cpuHasPanelKernel(). Runs on the calling thread.
void panelGemm(const GemmBlock &block, const PackedPanels &panels);

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_PANELGEMM_H
