//===- Bf16Matmuls.cpp - bf16 GEMM blocks by oneDNN's matmul primitive ----===//

#include "runtime/cpu/Bf16Matmuls.h"

#include <omp.h>
#include <oneapi/dnnl/dnnl.hpp>

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
  int64_t rows, cols, k, lda, ldb, ldc;
  float alpha, beta; ///< beta after the bias (addBiasBeforeProduct)
  auto operator<=>(const Shape &) const = default;
};

Shape shapeOf(const GemmBlock &g) {
  return {g.transposeA,
          g.transposeB,
          g.relu,
          g.rows,
          g.cols,
          g.k,
          g.lda,
          g.ldb,
          g.ldc,
          g.alpha,
          g.bias ? 1.0f : g.beta};
}

/// A primitive and the layouts it was made for; `made` is false when
/// oneDNN has no fast kernel for the shape.
struct Primitive {
  bool made = false;
  dnnl::matmul matmul;
  memory::desc a, b, c, scratchpad;
  std::string kernel;
};

/// oneDNN threads a primitive's work with OpenMP. Made and run with one
/// thread: inside the device's parallel regions that is what it gets
/// anyway (no nesting), and outside one it must not take the other cores.
/// Setting the count inside a parallel region changes only this thread's.
class OneOpenMpThread {
public:
  OneOpenMpThread() : saved_(omp_get_max_threads()) { omp_set_num_threads(1); }
  ~OneOpenMpThread() { omp_set_num_threads(saved_); }

private:
  int saved_;
};

Primitive make(const dnnl::engine &engine, const Shape &s) {
  using Type = memory::data_type;
  Primitive p;
  try {
    // op(A) is rows x k and op(B) is k x cols: a transposed operand is the
    // stored matrix read by columns.
    p.a = memory::desc({s.rows, s.k}, Type::bf16,
                       s.transposeA ? memory::dims{1, s.lda}
                                    : memory::dims{s.lda, 1});
    p.b = memory::desc({s.k, s.cols}, Type::bf16,
                       s.transposeB ? memory::dims{1, s.ldb}
                                    : memory::dims{s.ldb, 1});
    p.c = memory::desc({s.rows, s.cols}, Type::f32, memory::dims{s.ldc, 1});
    // C = relu(alpha AB + beta C): the output scale applies to the
    // product, then the sum adds the old C, then the ReLU.
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
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(p.a, p.b, p.c), attr,
                                    engine, /*allow_empty=*/true);
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

} // namespace

struct Bf16Matmuls::Cache {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
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
      it->second = make(engine, shape);
    return it->second;
  }
};

Bf16Matmuls::Bf16Matmuls() : cache_(std::make_unique<Cache>()) {}
Bf16Matmuls::~Bf16Matmuls() = default;

std::string Bf16Matmuls::kernel(const GemmBlock &block) {
  const Primitive &p = cache_->find(shapeOf(block));
  return p.made ? p.kernel : "";
}

bool Bf16Matmuls::run(const GemmBlock &g) {
  const Primitive &p = cache_->find(shapeOf(g));
  if (!p.made)
    return false;
  addBiasBeforeProduct(g); // the shape's beta is the one this leaves
  const dnnl::engine &engine = cache_->engine;
  thread_local std::vector<uint8_t> scratchpad;
  scratchpad.resize(p.scratchpad.get_size());
  std::unordered_map<int, memory> args = {
      {DNNL_ARG_SRC, memory(p.a, engine, const_cast<void *>(g.a))},
      {DNNL_ARG_WEIGHTS, memory(p.b, engine, const_cast<void *>(g.b))},
      {DNNL_ARG_DST, memory(p.c, engine, g.c)}};
  if (!scratchpad.empty())
    args.emplace(DNNL_ARG_SCRATCHPAD,
                 memory(p.scratchpad, engine, scratchpad.data()));
  try {
    OneOpenMpThread oneThread;
    dnnl::stream stream(engine);
    p.matmul.execute(stream, args);
    stream.wait();
  } catch (const dnnl::error &e) { // the primitive was made for this shape
    std::fprintf(stderr,
                 "tc-run: internal error: oneDNN's bf16 matmul %s failed on a "
                 "%lldx%lldx%lld product: %s\n",
                 p.kernel.c_str(), (long long)g.rows, (long long)g.cols,
                 (long long)g.k, e.what());
    std::abort();
  }
  return true;
}

} // namespace tc::rt
