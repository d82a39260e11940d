//===- Bf16Gemm.h - the CPU device's GEMMs of bf16 operands ---------------===//
//
// GEMM blocks of bf16 operands with an f32 C and bias (or a bf16 C and no
// bias), accumulated in f32.
// Where the CPU has bf16 GEMM instructions (Bf16Instructions.h): oneDNN's
// matmul primitive (Bf16Matmuls.h), a batch as one primitive. Elsewhere,
// and for a shape oneDNN has no fast kernel for, the portable path: each
// product's operands are widened to f32 in a scratch of the calling thread
// and sgemm runs them (Sgemm.h).
// A product of two bf16 values is exact in f32 and both paths sum in f32,
// so both compute the same GEMM, up to the order of the f32 additions.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_BF16GEMM_H
#define TC_RUNTIME_CPU_BF16GEMM_H

#include "runtime/cpu/Bf16Matmuls.h"
#include "runtime/cpu/Sgemm.h"

#include <memory>
#include <string>

namespace tc::rt {

class Bf16Gemm {
public:
  enum class Path { OneDnn, Widened };

  /// OneDnn where this CPU has bf16 GEMM instructions, else Widened.
  static Path pathOfThisCpu();

  /// bf16 GEMMs by `path`; the widened ones by `sgemm`'s library.
  Bf16Gemm(SgemmLibrary sgemm, Path path);

  /// Runs `block` on the calling thread; any thread may call it.
  void run(const GemmBlock &block);

  /// Runs `block` with a bf16 C (no bias, beta 0): its f32 sums rounded to
  /// nearest even as they are stored, by oneDNN where it has a kernel, else
  /// through an f32 scratch of the calling thread.
  void runNarrowed(const GemmBlock &block);

  /// oneDNN's implementation for `block` (with a bf16 C when `bf16C`:
  /// runNarrowed's; "brg:avx512_core_bf16"), or "" when it runs widened.
  std::string oneDnnKernel(const GemmBlock &block, bool bf16C = false);

  /// "bf16 GEMMs by oneDNN's matmul", or "bf16 GEMMs widened to f32 for
  /// oneDNN 2.6.3 sgemm", for the device's describe().
  std::string describe() const;

private:
  void runWidened(const GemmBlock &block);

  SgemmLibrary sgemm_;
  std::unique_ptr<Bf16Matmuls> matmuls_; ///< null on the widened path
};

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_BF16GEMM_H
