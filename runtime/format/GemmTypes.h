//===- GemmTypes.h - a .tcx GEMM's operand and compute types --------------===//
//
// A GEMM step names its operand types (the dtypes of its lhs, rhs and out
// buffers) and its compute type (tcx.fbs `GemmCompute`). Each device lists
// the combinations it runs, dispatches on them, and refuses an executable
// holding another when it opens it (checkGemmTypes), before any step
// runs, rather than running a GEMM in types its code was not written for.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_FORMAT_GEMMTYPES_H
#define TC_RUNTIME_FORMAT_GEMMTYPES_H

#include "tcx_generated.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tc::tcx {

struct GemmTypes {
  DType lhs = DType::F32, rhs = DType::F32, out = DType::F32;
  GemmCompute compute = GemmCompute::F32;
  bool operator==(const GemmTypes &) const = default;
};

/// The types of `gemm` (a bias must be of out's type, and a bf16 out takes
/// no bias and beta 0: checkGemmTypes).
GemmTypes gemmTypesOf(const Gemm &gemm);

/// "f32 x f32 -> f32 with f32 compute", for messages.
std::string describe(const GemmTypes &types);

/// "gemm m=1024 n=256 k=1024 NT lda=1024 ldb=1024 ldc=256 batch=[] +bias,
/// bf16 x bf16 -> f32 with f32 compute": one line a GEMM step, which
/// tc-inspect lists and `tc-run --profile` times under.
std::string describe(const Gemm &gemm);

/// A device's GEMM table is an array of rows, each with a `types` member (and
/// whatever the device calls for them). The row for `types`, or null.
template <typename Row, size_t N>
const Row *rowFor(const Row (&table)[N], const GemmTypes &types) {
  for (const Row &row : table)
    if (row.types == types)
      return &row;
  return nullptr;
}

/// The types of a device's GEMM table, in its order.
template <typename Row, size_t N>
std::vector<GemmTypes> typesOf(const Row (&table)[N]) {
  std::vector<GemmTypes> types;
  for (const Row &row : table)
    types.push_back(row.types);
  return types;
}

/// True when every GEMM of `executable` has types in `runs` (and a bias of
/// its out's type; none, and beta 0, for a bf16 out: its f32 sums are
/// rounded as they are stored); otherwise false with `error` naming the
/// first other one (its function, step, sizes and types) and what `device`
/// runs instead.
bool checkGemmTypes(const Executable &executable, std::string_view device,
                    std::span<const GemmTypes> runs, std::string &error);

} // namespace tc::tcx

#endif // TC_RUNTIME_FORMAT_GEMMTYPES_H
