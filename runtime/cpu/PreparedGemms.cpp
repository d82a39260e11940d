//===- PreparedGemms.cpp - weight GEMMs with weights prepared once --------===//

#include "runtime/cpu/PreparedGemms.h"
#include "runtime/cpu/Bf16BlockRows.h"
#include "runtime/cpu/OneDnnThread.h"
#include "runtime/cpu/PanelGemm.h"
#include "support/Bf16Rounding.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <immintrin.h>
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

namespace tc::rt {
namespace {

using dnnl::memory;
using Type = memory::data_type;

/// What a primitive is made for: everything of a block but its addresses
/// and C's leading dimension (the primitive writes a dense C: make()).
struct Shape {
  bool transposeA, transposeB, relu, bias;
  int64_t rows, cols, k, lda, ldb;
  auto operator<=>(const Shape &) const = default;
};

Shape shapeOf(const GemmBlock &g) {
  return {g.transposeA, g.transposeB, g.relu, g.bias != nullptr, g.rows, g.cols,
          g.k,          g.lda,        g.ldb};
}

/// The int8 operands' ranges (PreparedGemms.h): the weights' levels, and
/// the activations' levels and their shift to u8.
struct Int8Levels {
  float weights, activations;
  int32_t shift;
};

Int8Levels levelsOf(PreparedGemms::Int8Range range) {
  return range == PreparedGemms::Int8Range::EightBit
             ? Int8Levels{127, 127, 128}
             : Int8Levels{kInt8PanelWeightLimit, 63, 64};
}

/// x rounded to the nearest integer, ties to even, as lrintf does in the
/// default rounding mode, for |x| < 2^22 (the quantized values are within
/// 127): adding 1.5 x 2^23 leaves no fraction bits. Plain arithmetic that
/// loops vectorise, where lrintf was a libm call per element (the int8
/// path spent more time in it than in its GEMMs).
constexpr float kRoundingShift = 12582912.0f; // 1.5 x 2^23
inline int32_t roundedToInt(float x) {
  return int32_t((x + kRoundingShift) - kRoundingShift);
}

/// The scale that maps magnitudes up to `largest` onto `levels`: 1 for a
/// block that is all zeros, or too small for 1 / its scale to be finite
/// (largest under ~1.9e-37 at 63 levels, ~3.7e-37 at 127),
/// which then quantizes to zeros instead of converting infinity or NaN to
/// an integer (undefined).
inline float quantizationScale(float largest, float levels) {
  float scale = largest / levels;
  return scale > 0 && std::isfinite(1.0f / scale) ? scale : 1.0f;
}

struct Primitive {
  bool made = false;
  dnnl::matmul matmul;
  memory::desc src, weights, bias, dst, scratchpad;
  std::string kernel;
};

/// A weight block in the primitive's layout (desc, data), or in tc's
/// panels (f32Panels, int8Panels; desc empty); for int8 its scales and the
/// sums of its quantized columns.
struct Weights {
  memory::desc desc;
  /// How the source block was read: one address can hold a weight that one
  /// GEMM reads transposed and another as it is (same dims when square).
  bool transposeB;
  int64_t ldb, k, cols;
  memory data;
  std::optional<PackedPanels> f32Panels;
  std::optional<PackedInt8Panels> int8Panels;
  std::vector<float> scales;
  std::vector<int32_t> sums;
  Int8Levels levels{}; ///< int8: its range, and its activations'
  /// False when a weight is NaN or infinite: int8 cannot carry it, so the
  /// GEMM runs in f32 (sgemm) and the non-finite value shows in C.
  bool finite = true;
};

Type typeOf(ComputeType type) {
  return type == ComputeType::Int8   ? Type::s8
         : type == ComputeType::Bf16 ? Type::bf16
                                     : Type::f32;
}

/// The primitive for `s`: f32 reads A in place; bf16 and int8 read a dense
/// converted copy of op(A). f32 and bf16 write C with the bias and ReLU;
/// int8 writes dense s32 sums that run() turns into C. C is always dense
/// (leading dimension `cols`): a block of some of C's columns (the device
/// splits a decoder step's wide, short products by columns) is written to
/// scratch and copied into place, because with a strided C oneDNN 2.6 has
/// no brgemm matmul, and the gemm it falls back on keeps no packed weight
/// (measured on a Zen 5: the 64 x 128 blocks of a decoder step ran at half
/// the brgemm's rate, on tc's AVX2 panels).
Primitive make(ComputeType type, const Shape &s) {
  Primitive p;
  bool f32 = type == ComputeType::F32, int8 = type == ComputeType::Int8;
  try {
    p.src = f32 ? memory::desc({s.rows, s.k}, Type::f32,
                               s.transposeA ? memory::dims{1, s.lda}
                                            : memory::dims{s.lda, 1})
                : memory::desc({s.rows, s.k}, int8 ? Type::u8 : Type::bf16,
                               memory::dims{s.k, 1});
    memory::desc anyWeights({s.k, s.cols}, typeOf(type),
                            memory::format_tag::any);
    p.dst = int8 ? memory::desc({s.rows, s.cols}, Type::s32,
                                memory::dims{s.cols, 1})
                 : memory::desc({s.rows, s.cols}, Type::f32,
                                memory::dims{s.cols, 1});
    if (s.bias && !int8)
      p.bias = memory::desc({1, s.cols}, Type::f32, memory::dims{s.cols, 1});
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    dnnl::post_ops ops;
    if (s.relu && !int8)
      ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
    attr.set_post_ops(ops);
    OneOpenMpThread oneThread;
    dnnl::matmul::primitive_desc pd(
        dnnl::matmul::desc(p.src, anyWeights, p.bias, p.dst), attr, cpuEngine(),
        /*allow_empty=*/true);
    if (!pd)
      return p;
    p.kernel = pd.impl_info_str();
    p.weights = pd.weights_desc();
    p.scratchpad = pd.scratchpad_desc();
    p.matmul = dnnl::matmul(pd);
    p.made = true;
  } catch (const dnnl::error &) { // a layout oneDNN does not take
    p.made = false;
  }
  return p;
}

/// op(B)'s column j, element kk, of an f32 weight block.
float weightAt(const GemmBlock &g, int64_t kk, int64_t j) {
  const float *b = static_cast<const float *>(g.b);
  return g.transposeB ? b[j * g.ldb + kk] : b[kk * g.ldb + j];
}

/// `g`'s weight block in `p`'s layout (converted or quantized), or in
/// panels when `p` is null.
std::unique_ptr<Weights> prepare(ComputeType type, const Primitive *p,
                                 const GemmBlock &g, Int8Levels levels) {
  auto w = std::make_unique<Weights>();
  w->levels = levels;
  w->transposeB = g.transposeB;
  w->ldb = g.ldb;
  w->k = g.k;
  w->cols = g.cols;
  if (!p && type == ComputeType::F32) {
    w->f32Panels.emplace(g);
    return w;
  }
  const dnnl::engine &engine = cpuEngine();
  dnnl::stream stream(engine);
  OneOpenMpThread oneThread;
  if (p) {
    w->desc = p->weights;
    w->data = memory(p->weights, engine);
  }
  if (type != ComputeType::Int8) {
    memory::desc plain({g.k, g.cols}, Type::f32,
                       g.transposeB ? memory::dims{1, g.ldb}
                                    : memory::dims{g.ldb, 1});
    memory source(plain, engine, const_cast<void *>(g.b));
    dnnl::reorder(source, w->data).execute(stream, source, w->data);
    stream.wait();
    return w;
  }
  // Column by column (op(B)'s columns are the stored weight's rows).
  std::vector<int8_t> quantized(g.k * g.cols);
  w->scales.resize(g.cols);
  w->sums.resize(g.cols);
  for (int64_t j = 0; j < g.cols; ++j) {
    float largest = 0;
    for (int64_t kk = 0; kk < g.k; ++kk) {
      float x = weightAt(g, kk, j);
      w->finite = w->finite && std::isfinite(x);
      largest = std::max(largest, std::fabs(x));
    }
    if (!w->finite)
      return w; // never run: run() leaves the block to sgemm
    float scale = quantizationScale(largest, levels.weights);
    int32_t sum = 0;
    for (int64_t kk = 0; kk < g.k; ++kk) {
      int8_t q = int8_t(roundedToInt(weightAt(g, kk, j) / scale));
      quantized[j * g.k + kk] = q;
      sum += q;
    }
    w->scales[j] = scale;
    w->sums[j] = sum;
  }
  if (!p) {
    w->int8Panels.emplace(quantized.data(), g.k, g.cols);
    return w;
  }
  memory::desc plain({g.k, g.cols}, Type::s8, memory::dims{1, g.k});
  memory source(plain, engine, quantized.data());
  dnnl::reorder(source, w->data).execute(stream, source, w->data);
  stream.wait();
  return w;
}

/// A loop over activations or results outside the GEMM, compiled for
/// AVX-512 and AVX2 beside the baseline (x86-64's SSE2), the one the CPU
/// runs chosen when the program loads: in the baseline, quantizing and
/// dequantizing took twice the time of a decoder step's int8 GEMMs
/// themselves (Zen 5: its largest-magnitude loop has no unsigned max
/// before SSE4.1).
/// The clones round exactly as the baseline because CMakeLists.txt
/// compiles this file without FMA contraction: keep them here.
#if defined(__x86_64__) && defined(__ELF__) // ifunc: chosen at load time
#define TC_VECTOR_CLONES                                                       \
  __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define TC_VECTOR_CLONES
#endif

/// op(A)'s element (i, kk).
float activationAt(const GemmBlock &g, int64_t i, int64_t kk) {
  const float *a = static_cast<const float *>(g.a);
  return g.transposeA ? a[kk * g.lda + i] : a[i * g.lda + kk];
}

/// op(A) as dense bf16, rounded to nearest even (NaN stays NaN).
TC_VECTOR_CLONES
void convertToBf16(const GemmBlock &g, uint16_t *out) {
  for (int64_t i = 0; i < g.rows; ++i)
    for (int64_t kk = 0; kk < g.k; ++kk)
      out[i * g.k + kk] = support::bf16Bits(activationAt(g, i, kk));
}

/// One row of op(A), k values `stride` apart, quantized to u8 at `out`
/// (zeros after them up to `ld`), its scale in `scale`; false when a value
/// is NaN or infinite. The largest magnitude is found on the bits
/// (non-negative floats order as their bits do, and NaN and infinity are
/// the bits from 0x7f800000 up), so that both loops vectorise: found with
/// maxss one element at a time, quantizing was three quarters of the int8
/// path's time outside its GEMMs.
inline bool quantizeRow(const float *x, int64_t stride, int64_t k, uint8_t *out,
                        int64_t ld, const Int8Levels &levels, float &scale) {
  uint32_t largestBits = 0;
  for (int64_t kk = 0; kk < k; ++kk) {
    uint32_t bits;
    std::memcpy(&bits, x + kk * stride, 4);
    largestBits = std::max(largestBits, bits & 0x7fffffffu);
  }
  if (largestBits >= 0x7f800000u)
    return false;
  float largest;
  std::memcpy(&largest, &largestBits, 4);
  scale = quantizationScale(largest, levels.activations);
  float inverse = 1.0f / scale;
  for (int64_t kk = 0; kk < k; ++kk)
    out[kk] = uint8_t(roundedToInt(x[kk * stride] * inverse) + levels.shift);
  std::fill(out + k, out + ld, uint8_t(0));
  return true;
}

/// quantizeRow for a row of stride 1, 16 lanes at a time: the same
/// operations on each element, so the same bits. GCC's AVX-512 clone of
/// quantizeRow kept 8 lanes; this halved the int8 decoder step's
/// quantizing (Intel Xeon).
__attribute__((target("avx512f"))) bool
quantizeRowAvx512(const float *x, int64_t k, uint8_t *out, int64_t ld,
                  const Int8Levels &levels, float &scale) {
  auto lanes = [&](int64_t kk) -> __mmask16 {
    return k - kk >= 16 ? 0xffff : __mmask16((1u << (k - kk)) - 1);
  };
  const __m512i magnitude = _mm512_set1_epi32(0x7fffffff);
  __m512i largest = _mm512_setzero_si512();
  for (int64_t kk = 0; kk < k; kk += 16)
    largest = _mm512_max_epu32(
        largest,
        _mm512_and_si512(_mm512_maskz_loadu_epi32(lanes(kk), x + kk), magnitude));
  uint32_t largestBits = _mm512_reduce_max_epu32(largest);
  if (largestBits >= 0x7f800000u)
    return false;
  float largestValue;
  std::memcpy(&largestValue, &largestBits, 4);
  scale = quantizationScale(largestValue, levels.activations);
  const __m512 inverse = _mm512_set1_ps(1.0f / scale),
               rounding = _mm512_set1_ps(kRoundingShift);
  const __m512i shift = _mm512_set1_epi32(levels.shift);
  for (int64_t kk = 0; kk < k; kk += 16) {
    __mmask16 m = lanes(kk);
    __m512 v = _mm512_mul_ps(_mm512_maskz_loadu_ps(m, x + kk), inverse);
    v = _mm512_sub_ps(_mm512_add_ps(v, rounding), rounding);
    _mm512_mask_cvtepi32_storeu_epi8(
        out + kk, m, _mm512_add_epi32(_mm512_cvttps_epi32(v), shift));
  }
  std::fill(out + k, out + ld, uint8_t(0));
  return true;
}

/// Whether quantizeRowAvx512 runs here.
bool cpuHasAvx512() {
  static const bool has = __builtin_cpu_supports("avx512f");
  return has;
}

/// op(A) quantized per row to u8 (PreparedGemms.h), row i at out + i * ld
/// (zeros after its k values); `scales` gets each row's scale. False, with
/// `out` unfinished, when an activation is NaN or infinite (int8 cannot
/// carry it: the block runs in f32 instead).
TC_VECTOR_CLONES
bool quantizeRows(const GemmBlock &g, const Int8Levels &levels, uint8_t *out,
                  int64_t ld, float *scales) {
  const float *a = static_cast<const float *>(g.a);
  if (!g.transposeA && cpuHasAvx512()) {
    for (int64_t i = 0; i < g.rows; ++i)
      if (!quantizeRowAvx512(a + i * g.lda, g.k, out + i * ld, ld, levels,
                             scales[i]))
        return false;
    return true;
  }
  for (int64_t i = 0; i < g.rows; ++i)
    // Two calls, so that the row of an untransposed A is a stride of 1.
    if (!(g.transposeA ? quantizeRow(a + i, g.lda, g.k, out + i * ld, ld,
                                     levels, scales[i])
                       : quantizeRow(a + i * g.lda, 1, g.k, out + i * ld, ld,
                                     levels, scales[i])))
      return false;
  return true;
}

/// How `g`'s sums become C: (sums - shift colsum) sa sw + bias, then the
/// ReLU, with the rows' scales at `rowScales`.
Int8Dequantization dequantizationOf(const GemmBlock &g, const Weights &w,
                                    const float *rowScales) {
  return {rowScales,
          w.scales.data(),
          w.sums.data(),
          w.levels.shift,
          static_cast<const float *>(g.bias),
          g.relu};
}

/// C from oneDNN's dense s32 sums as Int8Dequantization says (the panels
/// do the same in registers: PanelGemm.cpp).
/// A column tile at a time, every row: the tile's sums, scales and bias
/// stay in L1 while the rows pass (a row at a time, the output
/// projection's 4,000 columns of them came from L2 for every row).
TC_VECTOR_CLONES
void dequantize(const GemmBlock &g, const int32_t *sums,
                const Int8Dequantization &d) {
  constexpr int64_t kTile = 512;
  for (int64_t j0 = 0; j0 < g.cols; j0 += kTile) {
    const int64_t j1 = std::min(g.cols, j0 + kTile);
    for (int64_t i = 0; i < g.rows; ++i) {
      float *c = static_cast<float *>(g.c) + i * g.ldc;
      const int32_t *row = sums + i * g.cols;
      for (int64_t j = j0; j < j1; ++j) {
        float x = float(row[j] - d.shift * d.columnSums[j]) * d.rowScales[i] *
                      d.columnScales[j] +
                  (d.bias ? d.bias[j] : 0.0f);
        c[j] = d.relu ? std::max(x, 0.0f) : x;
      }
    }
  }
}

/// The calling thread's memory objects for `p`'s arguments (of the cache
/// `cacheId`), made on its first run here, their addresses set per call:
/// making one costs about 1 us, and a decoder step's int8 block runs in a
/// few.
std::unordered_map<int, memory> &boundArguments(const Primitive &p,
                                                uint64_t cacheId) {
  thread_local std::map<std::pair<uint64_t, const Primitive *>,
                        std::unordered_map<int, memory>>
      bound;
  auto it = bound.find({cacheId, &p});
  if (it != bound.end())
    return it->second;
  const dnnl::engine &engine = cpuEngine();
  std::unordered_map<int, memory> args{
      {DNNL_ARG_SRC, memory(p.src, engine, nullptr)},
      {DNNL_ARG_WEIGHTS, memory(p.weights, engine, nullptr)},
      {DNNL_ARG_DST, memory(p.dst, engine, nullptr)},
      {DNNL_ARG_SCRATCHPAD, memory(p.scratchpad, engine, nullptr)}};
  if (!p.bias.is_zero())
    args.emplace(DNNL_ARG_BIAS, memory(p.bias, engine, nullptr));
  return bound.emplace(std::pair(cacheId, &p), std::move(args)).first->second;
}

/// A thread's scratch memory, grown as needed.
struct Scratch {
  std::vector<uint8_t> pad, activations, sums, dense;
  std::vector<float> rowScales;
};

Scratch &threadScratch() {
  thread_local Scratch scratch;
  return scratch;
}

template <typename T> T *grow(std::vector<uint8_t> &v, int64_t count) {
  v.resize(std::max<size_t>(v.size(), count * sizeof(T)));
  return reinterpret_cast<T *>(v.data());
}

/// op(A) of an int8 block quantized into `scratch` (rows as w's int8
/// panels read them, else dense), the rows' scales in scratch.rowScales;
/// null where an activation is NaN or infinite.
uint8_t *quantizedActivations(const GemmBlock &g, const Weights &w,
                              Scratch &scratch) {
  int64_t ld = w.int8Panels ? w.int8Panels->paddedK() : g.k;
  uint8_t *out = grow<uint8_t>(scratch.activations, g.rows * ld);
  scratch.rowScales.resize(std::max<size_t>(scratch.rowScales.size(), g.rows));
  return quantizeRows(g, w.levels, out, ld, scratch.rowScales.data())
             ? out
             : nullptr;
}

} // namespace

struct PreparedGemms::Cache {
  const uint64_t id = newPrimitiveCacheId();
  ComputeType type;
  Kernel kernel;
  Int8Range range;
  mutable std::shared_mutex mutex;
  std::map<Shape, Primitive> primitives; // references stay valid
  /// By the weight block's address: one per way of reading it and, with
  /// oneDNN, per layout that primitives want.
  std::map<const void *, std::vector<std::unique_ptr<Weights>>> weights;

  /// Whether `g` runs on tc's panels: where they are chosen, in f32 and
  /// 7-bit int8, when oneDNN's primitive for its shape keeps the weight in a
  /// plain layout (which it packs again on every call: on AVX2, oneDNN 2.6
  /// has no matmul that keeps a packed f32 or int8 weight; with AVX-512 its
  /// brgemm matmul keeps one, and runs).
  bool usesPanels(const Primitive &p) const {
    if (type == ComputeType::Bf16 || kernel == Kernel::OneDnnMatmul ||
        (type == ComputeType::Int8 && range == Int8Range::EightBit))
      return false; // the panels' 16-bit pair sums need 7-bit operands
    bool keepsPacked = p.made && p.weights.data.format_kind == dnnl_blocked &&
                       p.weights.data.format_desc.blocking.inner_nblks > 0;
    return kernel == Kernel::TcPanels || !keepsPacked;
  }

  const Weights *findWeights(const GemmBlock &g, const memory::desc &desc) {
    auto it = weights.find(g.b);
    if (it != weights.end())
      for (const std::unique_ptr<Weights> &w : it->second)
        if (w->desc == desc && w->transposeB == g.transposeB &&
            w->ldb == g.ldb && w->k == g.k && w->cols == g.cols)
          return w.get();
    return nullptr;
  }

  const Primitive &findPrimitive(const Shape &shape) {
    {
      std::shared_lock lock(mutex);
      auto it = primitives.find(shape);
      if (it != primitives.end())
        return it->second;
    }
    std::unique_lock lock(mutex);
    auto [it, added] = primitives.try_emplace(shape);
    if (added)
      it->second = make(type, shape);
    return it->second;
  }

  /// The primitive for `g` (null on panels) and its prepared weights
  /// (null: oneDNN made no primitive).
  std::pair<const Primitive *, const Weights *> find(const GemmBlock &g) {
    const Primitive *p = &findPrimitive(shapeOf(g));
    memory::desc desc; // empty for panels
    if (usesPanels(*p)) {
      p = nullptr;
    } else {
      if (!p->made)
        return {p, nullptr};
      desc = p->weights;
    }
    {
      std::shared_lock lock(mutex);
      if (const Weights *w = findWeights(g, desc))
        return {p, w};
    }
    std::unique_lock lock(mutex);
    if (const Weights *w = findWeights(g, desc))
      return {p, w};
    auto &list = weights[g.b];
    list.push_back(prepare(type, p, g, levelsOf(range)));
    return {p, list.back().get()};
  }
};

PreparedGemms::PreparedGemms(ComputeType type, Kernel kernel)
    : PreparedGemms(type, kernel,
                    kernel == Kernel::TcPanels ? Int8Range::SevenBit
                                               : int8RangeOfThisCpu()) {}

PreparedGemms::PreparedGemms(ComputeType type, Kernel kernel, Int8Range range)
    : cache_(std::make_unique<Cache>()) {
  cache_->type = type;
  cache_->kernel = kernel;
  cache_->range = range;
}

PreparedGemms::Int8Range PreparedGemms::int8RangeOfThisCpu() {
  // oneDNN's ISA, not the CPU's: ONEDNN_MAX_CPU_ISA may hold oneDNN below
  // VNNI, where its int8 kernels' vpmaddubsw saturates 8-bit pair sums. An
  // ISA's value holds the bits of every ISA it extends (AMX's VNNI's).
  static const bool vnni =
      (dnnl_get_effective_cpu_isa() & dnnl_cpu_isa_avx512_core_vnni) ==
      dnnl_cpu_isa_avx512_core_vnni;
  return vnni ? Int8Range::EightBit : Int8Range::SevenBit;
}

PreparedGemms::Int8Range PreparedGemms::int8Range() const {
  return cache_->range;
}

PreparedGemms::Kernel PreparedGemms::kernelOfThisCpu() {
  return cpuHasPanelKernel() ? Kernel::TcPanelsWhereOneDnnRepacks
                             : Kernel::OneDnnMatmul;
}
PreparedGemms::~PreparedGemms() = default;

bool PreparedGemms::takes(const GemmBlock &block) {
  return block.alpha == 1.0f && block.beta == 0.0f;
}

void PreparedGemms::clear() {
  std::unique_lock lock(cache_->mutex);
  cache_->weights.clear();
}

size_t PreparedGemms::preparedWeights() const {
  std::shared_lock lock(cache_->mutex);
  size_t count = 0;
  for (const auto &[b, list] : cache_->weights)
    count += list.size();
  return count;
}

std::string PreparedGemms::kernel(const GemmBlock &block) {
  const Primitive &p = cache_->findPrimitive(shapeOf(block));
  if (cache_->usesPanels(p))
    return "tc panels (AVX2)";
  return p.made ? p.kernel : "";
}

std::string PreparedGemms::describe() const {
  bool eightBit = cache_->type == ComputeType::Int8 &&
                  cache_->range == Int8Range::EightBit;
  return std::string("weight GEMMs in ") + nameOf(cache_->type) +
         (eightBit ? " (8-bit operands)" : "") +
         (cache_->kernel != Kernel::OneDnnMatmul &&
                  cache_->type != ComputeType::Bf16 && !eightBit
              ? " by tc's panel kernels (AVX2) where oneDNN's matmul keeps "
                "no packed weight, else by it"
              : " by oneDNN's matmul") +
         ", weights prepared once";
}

bool PreparedGemms::run(const GemmBlock &g) {
  if (cache_->type == ComputeType::Bf16 && g.rows < kBf16RowsAlwaysKept) {
    // The rows a block of this shape runs with, kept by the thread: asking
    // looks primitives up under the cache's lock.
    thread_local std::map<std::pair<uint64_t, Shape>, int64_t> rowsOf;
    std::pair key(cache_->id, shapeOf(g));
    auto it = rowsOf.find(key);
    if (it == rowsOf.end())
      it = rowsOf
               .emplace(key, bf16BlockRows(g,
                                           [&](const GemmBlock &block) {
                                             return kernel(block);
                                           }))
               .first;
    if (it->second != g.rows)
      return runWithRows(g, it->second, sizeof(float), sizeof(float),
                         [&](const GemmBlock &block) { return runBlock(block); });
  }
  return runBlock(g);
}

bool PreparedGemms::runBlock(const GemmBlock &g) {
  auto [p, w] = cache_->find(g);
  if (!w || !w->finite)
    return false;
  if (w->f32Panels) {
    panelGemm(g, *w->f32Panels);
    return true;
  }
  Scratch &scratch = threadScratch();
  void *src = const_cast<void *>(g.a);
  int32_t *sums = nullptr;
  if (cache_->type == ComputeType::Bf16) {
    src = grow<uint16_t>(scratch.activations, g.rows * g.k);
    convertToBf16(g, static_cast<uint16_t *>(src));
  } else if (cache_->type == ComputeType::Int8) {
    src = quantizedActivations(g, *w, scratch);
    if (!src)
      return false;
    if (w->int8Panels) {
      w->int8Panels->product(static_cast<const uint8_t *>(src), g.rows,
                             dequantizationOf(g, *w, scratch.rowScales.data()),
                             static_cast<float *>(g.c), g.ldc);
      return true;
    }
    sums = grow<int32_t>(scratch.sums, g.rows * g.cols);
  }
  // The primitive writes a dense C (make()): C itself where it is dense.
  float *dense = static_cast<float *>(g.c);
  if (!sums && g.ldc != g.cols && g.rows > 1)
    dense = grow<float>(scratch.dense, g.rows * g.cols);
  std::unordered_map<int, memory> &args = boundArguments(*p, cache_->id);
  args.at(DNNL_ARG_SRC).set_data_handle(src);
  args.at(DNNL_ARG_WEIGHTS).set_data_handle(w->data.get_data_handle());
  args.at(DNNL_ARG_DST).set_data_handle(sums ? (void *)sums : dense);
  args.at(DNNL_ARG_SCRATCHPAD)
      .set_data_handle(grow<uint8_t>(scratch.pad, p->scratchpad.get_size()));
  if (!p->bias.is_zero())
    args.at(DNNL_ARG_BIAS).set_data_handle(const_cast<void *>(g.bias));
  OneOpenMpThread oneThread;
  dnnl::stream &stream = threadStream();
  p->matmul.execute(stream, args);
  stream.wait();
  if (dense != g.c)
    for (int64_t i = 0; i < g.rows; ++i)
      std::memcpy(static_cast<float *>(g.c) + i * g.ldc, dense + i * g.cols,
                  g.cols * sizeof(float));
  if (sums)
    dequantize(g, sums, dequantizationOf(g, *w, scratch.rowScales.data()));
  return true;
}

bool PreparedGemms::takesCandidates(const GemmBlock &whole,
                                    const CandidatesBlock &block) {
  if (cache_->type != ComputeType::Int8 || !takes(whole) || block.k < 1 ||
      block.k > kMaxRowCandidates || block.k > whole.cols || block.column < 0 ||
      block.column >= whole.cols)
    return false;
  auto [p, w] = cache_->find(whole);
  return w && w->finite && w->int8Panels;
}

bool PreparedGemms::runWithCandidates(const GemmBlock &g,
                                      const CandidatesBlock &candidates) {
  // A block's shape is not the whole's: it may run otherwise.
  auto [p, w] = cache_->find(g);
  if (!w || !w->finite || !w->int8Panels)
    return false;
  Scratch &scratch = threadScratch();
  const uint8_t *src = quantizedActivations(g, *w, scratch);
  if (!src)
    return false;
  w->int8Panels->productCandidates(
      src, g.rows, dequantizationOf(g, *w, scratch.rowScales.data()),
      candidates);
  return true;
}

} // namespace tc::rt
