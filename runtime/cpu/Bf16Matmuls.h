//===- Bf16Matmuls.h - bf16 GEMM blocks by oneDNN's matmul primitive ------===//
//
// bf16 x bf16 -> f32 (or bf16) GEMM blocks with f32 accumulation by
// oneDNN's matmul primitive (Debian's libdnnl 2.6): one primitive per shape
// of block (its transposes, sizes, leading dimensions, batch, alpha, beta,
// ReLU and C's type), made on its first use and kept, since making one
// costs far more than running it. A batch runs as one primitive:
// attention's products are a call each otherwise (16 x 16 x 64 in
// base_short), 2-3% of a bf16 step on a Zen 5. Each is made and run with
// one OpenMP thread, as the device's sgemm calls are (it spreads the blocks
// over its threads itself), with memory objects and a scratchpad of the
// calling thread, so that any thread runs any of them and a call only sets
// the block's addresses. A shape oneDNN has no kernel for, or only its
// reference implementation (far slower than widening the operands to f32),
// is left to the caller.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_BF16MATMULS_H
#define TC_RUNTIME_CPU_BF16MATMULS_H

#include "runtime/cpu/GemmBlock.h"

#include <memory>
#include <string>

namespace tc::rt {

class Bf16Matmuls {
public:
  Bf16Matmuls();
  ~Bf16Matmuls();

  /// Runs `block` (bf16 A and B, an f32 C and bias; with `bf16C` a bf16 C,
  /// the f32 sums rounded to nearest even) and returns true, or returns
  /// false without touching C when oneDNN has no fast kernel for its shape,
  /// when it is a batch with a bias, or a bf16 C with a bias or a beta.
  /// A block of one product runs with the rows Bf16BlockRows.h gives. Any
  /// thread may call it.
  bool run(const GemmBlock &block, bool bf16C = false);

  /// The oneDNN implementation made for `block`'s shape (with a bf16 C
  /// when `bf16C`; "brg:avx512_core_bf16"), or "" when none is; run() may
  /// run a block of few rows padded, as another shape.
  std::string kernel(const GemmBlock &block, bool bf16C = false);

private:
  /// run() itself, on the block's own rows.
  bool runBlock(const GemmBlock &block, bool bf16C);

  struct Cache;
  std::unique_ptr<Cache> cache_;
};

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_BF16MATMULS_H
