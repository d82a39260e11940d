//===- Bf16Matmuls.cpp - bf16 GEMM blocks by oneDNN's matmul primitive ----===//

#include "runtime/cpu/Bf16Matmuls.h"
#include "runtime/cpu/Bf16BlockRows.h"
#include "runtime/cpu/OneDnnThread.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

namespace tc::rt {
namespace {

using dnnl::memory;

/// What a primitive is made for: everything of a block but its addresses.
struct Shape {
  bool transposeA, transposeB, relu;
  bool bf16C; ///< C is bf16 (the f32 sums rounded), else f32
  bool bias; ///< the primitive adds the bias itself
  int64_t rows, cols, k, lda, ldb, ldc;
  float alpha, beta; ///< beta after the bias where addBiasBeforeProduct adds it
  GemmBatch batch;
  auto operator<=>(const Shape &) const = default;
};

/// Whether `g`'s bias goes to the primitive, which adds it to the product
/// as it stores C: one pass over C, where adding it first writes C and the
/// sum post-op reads it again (a 1024 x 1024 feed-forward product ran at
/// 320 GFLOP/s with its bias added first, against 470 without a bias, on
/// one Zen 5 thread). oneDNN scales the bias with the product, so a scaled
/// product (alpha != 1) keeps the bias added first; a batch's bias too
/// (addBiasBeforeProduct fills one product).
bool primitiveAddsBias(const GemmBlock &g) {
  return g.bias && g.alpha == 1.0f && g.batch.rank == 0;
}

Shape shapeOf(const GemmBlock &g, bool bf16C) {
  bool ownBias = primitiveAddsBias(g);
  return {g.transposeA,
          g.transposeB,
          g.relu,
          bf16C,
          ownBias,
          g.rows,
          g.cols,
          g.k,
          g.lda,
          g.ldb,
          g.ldc,
          g.alpha,
          g.bias && !ownBias ? 1.0f : g.beta,
          g.batch};
}

/// The memory descriptor of a batch of `rows` x `cols` matrices of `type`,
/// the batch's dimensions first, with these strides in elements.
memory::desc batchOf(const GemmBatch &batch, const int64_t *batchStrides,
                     int64_t rows, int64_t cols, memory::data_type type,
                     int64_t rowStride, int64_t colStride) {
  memory::dims extents(batch.extent, batch.extent + batch.rank),
      strides(batchStrides, batchStrides + batch.rank);
  extents.insert(extents.end(), {rows, cols});
  strides.insert(strides.end(), {rowStride, colStride});
  return memory::desc(extents, type, strides);
}

/// A primitive and the layouts it was made for; `made` is false when
/// oneDNN has no fast kernel for the shape.
struct Primitive {
  bool made = false;
  bool addsBias = false; ///< else added first (addBiasBeforeProduct)
  dnnl::matmul matmul;
  memory::desc a, b, c, bias, scratchpad;
  std::string kernel;
};

Primitive makeExactly(const dnnl::engine &engine, const Shape &s) {
  using Type = memory::data_type;
  Primitive p;
  p.addsBias = s.bias;
  try {
    // op(A) is rows x k and op(B) is k x cols: a transposed operand is the
    // stored matrix read by columns.
    const GemmBatch &batch = s.batch;
    p.a = batchOf(batch, batch.strideA, s.rows, s.k, Type::bf16,
                  s.transposeA ? 1 : s.lda, s.transposeA ? s.lda : 1);
    p.b = batchOf(batch, batch.strideB, s.k, s.cols, Type::bf16,
                  s.transposeB ? 1 : s.ldb, s.transposeB ? s.ldb : 1);
    p.c = batchOf(batch, batch.strideC, s.rows, s.cols,
                  s.bf16C ? Type::bf16 : Type::f32, s.ldc, 1);
    if (s.bias) // one row, broadcast over C's rows
      p.bias = memory::desc({1, s.cols}, Type::f32, {s.cols, 1});
    // C = relu(alpha AB + bias + beta C): the output scale applies to the
    // product, the primitive's bias is added to it, then the sum adds the
    // old C, then the ReLU.
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    if (s.alpha != 1.0f)
      attr.set_output_scales(0, {s.alpha});
    dnnl::post_ops ops;
    if (s.beta != 0.0f)
      ops.append_sum(s.beta);
    if (s.relu)
      ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
    attr.set_post_ops(ops);
    OneOpenMpThread oneThread;
    dnnl::matmul::primitive_desc pd(
        s.bias ? dnnl::matmul::desc(p.a, p.b, p.bias, p.c)
               : dnnl::matmul::desc(p.a, p.b, p.c),
        attr, engine, /*allow_empty=*/true);
    if (!pd)
      return p;
    p.kernel = pd.impl_info_str();
    if (p.kernel.starts_with("ref"))
      return p;
    p.scratchpad = pd.scratchpad_desc();
    p.matmul = dnnl::matmul(pd);
    p.made = true;
  } catch (const dnnl::error &) { // a layout oneDNN does not take
    p.made = false;
  }
  return p;
}

/// The primitive for `s`; where oneDNN makes none that adds the bias, one
/// for the bias added first, as for a scaled product.
Primitive make(const dnnl::engine &engine, const Shape &s) {
  Primitive p = makeExactly(engine, s);
  if (!p.made && s.bias) {
    Shape biasFirst = s;
    biasFirst.bias = false;
    biasFirst.beta = 1.0f;
    p = makeExactly(engine, biasFirst);
  }
  return p;
}

} // namespace

const dnnl::engine &cpuEngine() {
  static const auto *engine = new dnnl::engine(dnnl::engine::kind::cpu, 0);
  return *engine;
}

dnnl::stream &threadStream() {
  thread_local dnnl::stream stream(cpuEngine());
  return stream;
}

uint64_t newPrimitiveCacheId() {
  static std::atomic<uint64_t> next{0};
  return next++;
}

/// A thread's arguments for one primitive: memory objects made once, their
/// addresses set per call (making one costs about 1 us, setting an address
/// 15 ns: an attention block's whole product takes 20 us), and its
/// scratchpad.
struct Bound {
  const Primitive *primitive = nullptr;
  std::unordered_map<int, memory> args;
  std::vector<uint8_t> scratchpad;
  /// The rows a block of this shape runs with (Bf16BlockRows.h); -1 until
  /// a block of rank 0 asks.
  int64_t rows = -1;
};

struct Bf16Matmuls::Cache {
  const uint64_t id = newPrimitiveCacheId();
  std::shared_mutex mutex;
  std::map<Shape, Primitive> primitives; // references stay valid

  const Primitive &find(const Shape &shape) {
    {
      std::shared_lock lock(mutex);
      auto it = primitives.find(shape);
      if (it != primitives.end())
        return it->second;
    }
    std::unique_lock lock(mutex);
    auto [it, added] = primitives.try_emplace(shape);
    if (added)
      it->second = make(cpuEngine(), shape);
    return it->second;
  }

  /// The calling thread's arguments for `shape`'s primitive: the shared
  /// table is locked only the first time a thread runs a shape.
  Bound &bind(const Shape &shape) {
    thread_local std::map<std::pair<uint64_t, Shape>, Bound> bound;
    auto [it, added] = bound.try_emplace({id, shape});
    Bound &b = it->second;
    if (!added)
      return b;
    const Primitive &p = find(shape);
    b.primitive = &p;
    if (!p.made)
      return b;
    const dnnl::engine &engine = cpuEngine();
    b.args = {{DNNL_ARG_SRC, memory(p.a, engine, nullptr)},
              {DNNL_ARG_WEIGHTS, memory(p.b, engine, nullptr)},
              {DNNL_ARG_DST, memory(p.c, engine, nullptr)}};
    if (p.addsBias)
      b.args.emplace(DNNL_ARG_BIAS, memory(p.bias, engine, nullptr));
    b.scratchpad.resize(p.scratchpad.get_size());
    if (!b.scratchpad.empty())
      b.args.emplace(DNNL_ARG_SCRATCHPAD,
                     memory(p.scratchpad, engine, b.scratchpad.data()));
    return b;
  }
};

Bf16Matmuls::Bf16Matmuls() : cache_(std::make_unique<Cache>()) {}
Bf16Matmuls::~Bf16Matmuls() = default;

std::string Bf16Matmuls::kernel(const GemmBlock &block, bool bf16C) {
  const Primitive &p = cache_->find(shapeOf(block, bf16C));
  return p.made ? p.kernel : "";
}

bool Bf16Matmuls::run(const GemmBlock &g, bool bf16C) {
  // A row's sums must not depend on its block.
  if (g.batch.rank == 0 && g.rows < kBf16RowsAlwaysKept) {
    Bound &b = cache_->bind(shapeOf(g, bf16C));
    if (b.rows < 0)
      b.rows = bf16BlockRows(
          g, [&](const GemmBlock &block) { return kernel(block, bf16C); });
    if (b.rows != g.rows)
      return runWithRows(
          g, b.rows, sizeof(uint16_t), bf16C ? sizeof(uint16_t) : sizeof(float),
          [&](const GemmBlock &block) { return runBlock(block, bf16C); });
  }
  return runBlock(g, bf16C);
}

bool Bf16Matmuls::runBlock(const GemmBlock &g, bool bf16C) {
  if (g.bias && g.batch.rank > 0) // addBiasBeforeProduct fills one product
    return false;
  if (bf16C && (g.bias || g.beta != 0.0f)) // neither added first into bf16
    return false;
  Bound &b = cache_->bind(shapeOf(g, bf16C));
  const Primitive &p = *b.primitive;
  if (!p.made)
    return false;
  if (!p.addsBias)
    addBiasBeforeProduct(g); // the primitive's beta is the one this leaves
  try {
    if (p.addsBias)
      b.args.at(DNNL_ARG_BIAS).set_data_handle(const_cast<void *>(g.bias));
    b.args.at(DNNL_ARG_SRC).set_data_handle(const_cast<void *>(g.a));
    b.args.at(DNNL_ARG_WEIGHTS).set_data_handle(const_cast<void *>(g.b));
    b.args.at(DNNL_ARG_DST).set_data_handle(g.c);
    OneOpenMpThread oneThread;
    dnnl::stream &stream = threadStream();
    p.matmul.execute(stream, b.args);
    stream.wait();
  } catch (const dnnl::error &e) { // the primitive was made for this shape
    std::fprintf(stderr,
                 "tc-run: internal error: oneDNN's bf16 matmul %s failed on "
                 "%lld %lldx%lldx%lld products: %s\n",
                 p.kernel.c_str(), (long long)g.batch.count(),
                 (long long)g.rows, (long long)g.cols, (long long)g.k,
                 e.what());
    std::abort();
  }
  return true;
}

} // namespace tc::rt
