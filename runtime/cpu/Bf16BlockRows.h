//===- Bf16BlockRows.h - the rows a bf16 GEMM block runs with on oneDNN ---===//
//
// A sentence's translation must not depend on the sentences decoded beside
// it, so a row's f32 sums must not depend on the height of the block it is
// in. oneDNN 2.6's bf16 matmul breaks that twice: it sums a lone row in
// another order than blocks of 2 or more, and on a CPU with AMX it gives
// short, narrow blocks (4 rows of 16 or 64 columns: the decoder step of one
// sentence) its avx512_core_bf16 kernel, whose order is not AMX's (found on
// an Intel Xeon: scores moved in their last digits with --batch-sentences
// 1; test/Runtime/translate-determinism-bf16.test). So a bf16 block runs
// with at least 2 rows, and, where its own kernel is not AMX, with the
// fewest of 2 and 33 rows (past oneDNN's rule for short blocks) that AMX
// runs: its rows, then zeros, the extra rows of C dropped. Both of the CPU
// device's bf16 paths follow it: weight GEMMs with --compute-type bf16
// (PreparedGemms) and a bf16 executable's GEMMs (Bf16Matmuls).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_CPU_BF16BLOCKROWS_H
#define TC_RUNTIME_CPU_BF16BLOCKROWS_H

#include "runtime/cpu/GemmBlock.h"

#include <cstdint>
#include <functional>
#include <string>

namespace tc::rt {

/// Blocks of at least these rows run as they are (past oneDNN 2.6's rule
/// for short blocks, AMX takes every shape tc has).
constexpr int64_t kBf16RowsAlwaysKept = 33;

/// The rows `block` (rank 0) runs with, given `kernelOf`, the name of the
/// oneDNN kernel that would run a block ("" when none): its own where
/// oneDNN has no kernel for the padded shapes. Asks kernelOf nothing for a
/// block of kBf16RowsAlwaysKept rows or more (or none). Callers keep the
/// answer per shape: each question may make a primitive.
int64_t bf16BlockRows(
    const GemmBlock &block,
    const std::function<std::string(const GemmBlock &)> &kernelOf);

/// Runs `block` (rank 0; A's and C's elements `sizeA` and `sizeC` bytes) as
/// `rows` rows by `run`: op(A)'s rows, then zeros, into a dense A (so the
/// block given to `run` has an untransposed A with lda = k), C's rows into a
/// dense C first where beta is not 0 (the padding rows of C zeros); then
/// C's first block.rows rows back.
/// Returns what `run` returns (C untouched when false).
bool runWithRows(const GemmBlock &block, int64_t rows, int64_t sizeA,
                 int64_t sizeC,
                 const std::function<bool(const GemmBlock &)> &run);

} // namespace tc::rt

#endif // TC_RUNTIME_CPU_BF16BLOCKROWS_H
