//===- PreparedGemms.h - weight GEMMs with weights prepared once ----------===//
//
// GEMM blocks whose B is a parameter (activations times a weight) by
// oneDNN's matmul primitive, with the weight block reordered once into the
// layout the primitive prefers (and, by the compute type, converted to bf16
// or quantized to int8) on its first use and kept until clear(): the
// device clears them whenever the parameters may have changed (a write to
// the parameters, a function that updates them). The bias is the
// primitive's bias input and the ReLU its post-op, where sgemm pre-fills C
// with the bias and runs the ReLU as a pass of its own.
//
// int8 (ComputeType::Int8), on a CPU without AVX512-VNNI (the 8-bit form
// is below): each output column of the weight block (a row
// of the stored [out, in] weight) is quantized symmetrically to [-63, 63]
// (7 bits) with the scale max|w| / 63; each row of A at run time with the
// scale max|a| / 63, to [-63, 63], and shifted by 64 to u8 (at most 127).
// vpmaddubsw (u8 x s8 on AVX2, oneDNN 2.6's and tc's panels') sums pairs of
// products in 16 bits that saturate above 32,767: tc's panels add two of
// those pair sums before widening them (PanelGemm.h), 2 x 2 x 127 x 63 =
// 32,004, so both operands are 7-bit (with 8-bit weights oneDNN's single
// pair sums already needed 7-bit activations: full-range u8 gave wrong
// sums there; 7-bit weights are oneDNN's own advice for CPUs without
// VNNI); s8 x s8 runs 3-10x slower there. The demo's test BLEU was 17.58
// with 7-bit weights, 17.57 with 8-bit ones. The s32 sums are exact;
// C = (sum - 64 colsum(w)) sa sw + bias.
//
// Where oneDNN runs AVX512-VNNI (and so AMX: ONEDNN_MAX_CPU_ISA may hold it
// lower) every oneDNN int8
// kernel sums its products in 32 bits (vpdpbusd, AMX's tiles), so there the
// operands take 8 bits (Int8Range::EightBit): weights to [-127, 127] with
// the scale max|w| / 127, activations to [-127, 127] shifted by 128 (u8 up
// to 255), C = (sum - 128 colsum(w)) sa sw + bias, and int8 blocks never
// run on tc's panels. Half the rounding step: on an Intel Xeon with AMX the
// demo model's int8 BLEU over the 1,220 test verses rose from 21.23 to
// 21.27 (f32 21.49), over the 50 verses of the latency bench from 19.78 to
// 21.27 (f32 21.68), at the same speed.
//
// f32 and 7-bit int8 on a CPU with AVX2 and FMA run tc's panel kernels instead
// (PanelGemm.h) wherever oneDNN's primitive would keep the weight in a
// plain layout, which it packs again on every call (at a decoder step's few
// rows that costs more than the product): on AVX2 oneDNN 2.6 has no matmul
// that keeps a packed f32 or int8 weight; with AVX-512 its brgemm matmul
// keeps one (a blocked layout), and runs. int8's quantization and its s32
// sums are the same either way (exact), so are its results.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_PREPAREDGEMMS_H
#define TC_RUNTIME_CPU_PREPAREDGEMMS_H

#include "runtime/cpu/CandidatesBlock.h"
#include "runtime/cpu/ComputeType.h"
#include "runtime/cpu/GemmBlock.h"

#include <cstddef>
#include <memory>
#include <string>

namespace tc::rt {

class PreparedGemms {
public:
  /// Which kernels run f32 and int8 blocks (bf16 ones: oneDNN's always).
  enum class Kernel {
    TcPanels,     ///< tc's panels for every shape (tests)
    OneDnnMatmul, ///< oneDNN's matmul for every shape
    /// tc's panels for a shape whose oneDNN matmul keeps the weight in a
    /// plain layout (repacking it on every call), else oneDNN's
    TcPanelsWhereOneDnnRepacks,
  };
  /// TcPanelsWhereOneDnnRepacks where the CPU runs the panels
  /// (cpuHasPanelKernel()), else OneDnnMatmul.
  static Kernel kernelOfThisCpu();

  /// How many bits int8's operands take (the header's comment).
  enum class Int8Range {
    SevenBit, ///< [-63, 63]: what tc's panels and AVX2's pair sums need
    EightBit, ///< [-127, 127]: oneDNN's VNNI and AMX kernels, 32-bit sums
  };
  /// EightBit where oneDNN runs AVX512-VNNI or AMX (every oneDNN int8 kernel
  /// there sums in 32 bits: vpdpbusd, or AMX's tiles), else SevenBit.
  static Int8Range int8RangeOfThisCpu();

  /// `kernel`'s int8 range: SevenBit on tc's panels, else this CPU's.
  explicit PreparedGemms(ComputeType type, Kernel kernel = kernelOfThisCpu());
  /// With EightBit, int8 blocks run on oneDNN only, whatever `kernel` says.
  PreparedGemms(ComputeType type, Kernel kernel, Int8Range range);

  Int8Range int8Range() const;
  ~PreparedGemms();

  /// Whether run() takes `block` (f32 A, B and C): alpha 1 and beta 0 (a
  /// bias instead of an old C).
  static bool takes(const GemmBlock &block);

  /// Runs `block`, whose B must not have changed since it was prepared
  /// (or since the last clear()), and returns true; false without touching
  /// C when oneDNN makes no primitive for its shape, or, in int8, when a
  /// weight or an activation is NaN or infinite (the caller's sgemm then
  /// shows it in C). Any thread may call it.
  bool run(const GemmBlock &block);

  /// Whether runWithCandidates() takes row blocks of `whole`: run() takes
  /// it, the products are int8 on tc's panels (where the candidates come
  /// from the tiles), and `block` asks for at most kMaxRowCandidates.
  /// Prepares the weight.
  bool takesCandidates(const GemmBlock &whole, const CandidatesBlock &block);
  /// Instead of C, its rows' candidates into `candidates` (RowCandidates.h),
  /// for a row block of a GEMM takesCandidates() took, and true; false
  /// without touching anything where an activation is NaN or infinite, or
  /// the block's shape does not run on the int8 panels (the caller then
  /// computes C in f32 and takes the candidates from it:
  /// candidatesOfRows). Any thread may call it.
  bool runWithCandidates(const GemmBlock &block,
                         const CandidatesBlock &candidates);

  /// Drops every prepared weight (the parameters changed). Not while any
  /// thread runs a block.
  void clear();

  /// The weight blocks prepared since the last clear().
  size_t preparedWeights() const;

  /// oneDNN's implementation for `block` ("gemm:jit"), "tc panels (AVX2)",
  /// or "" when none.
  std::string kernel(const GemmBlock &block);

  /// "weight GEMMs in int8 by oneDNN's matmul, weights prepared once".
  std::string describe() const;

private:
  /// run() itself, on the block's own rows.
  bool runBlock(const GemmBlock &block);

  struct Cache;
  std::unique_ptr<Cache> cache_;
};

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_PREPAREDGEMMS_H
