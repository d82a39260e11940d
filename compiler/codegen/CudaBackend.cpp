//===- CudaBackend.cpp - CUDA C++ for NVRTC ---------------------------------===//
//
// CUDA kernels are `__global__` functions that NVRTC compiles (compiler/
// export/CudaCompiler.cpp); the runtime launches each with the geometry the
// plan records (launchGeometry, below).
//
//===----------------------------------------------------------------------===//

#include "compiler/codegen/OpKernels.h"
#include "compiler/codegen/Preludes.h"
#include "compiler/codegen/TargetBackend.h"
#include "dialects/tc/TcDialect.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

namespace tc::codegen {
namespace {

const char kCudaPrelude[] =
#include "compiler/codegen/preludes/Cuda.inc"
    ;

/// Threads per block of a launch.
constexpr int64_t kBlockThreads = 256;
/// The most blocks of a launch over elements: its loops are grid-stride, and
/// this many blocks of kBlockThreads fill the largest GPUs (132 SMs of 2048
/// threads) several times over, where one block per 256 elements made a
/// multi-tensor Adam run 74000 blocks through each of its tensors.
constexpr int64_t kMaxElementBlocks = 4096;
/// The blocks of tc.embedding_grad, each of which reads every id to find
/// the tokens of its rows: about two per SM of the largest GPUs, so that
/// the ids are read 256 times, not once per 256 table elements (4096 blocks
/// read 400 MB of ids for base_paper's 24,576 tokens, 5x its table;
/// KernelBytesTest counts it).
constexpr int64_t kEmbeddingGradBlocks = 256;

class CudaBackend final : public TargetBackend {
public:
  Target target() const override { return Target::Cuda; }

  std::string prelude() const override {
    return commonPrelude() + kCudaPrelude;
  }

  /// One block per row of the first operand for the row-wise ops
  /// (tc.cross_entropy too, whose result is a scalar), a block per table
  /// row up to kEmbeddingGradBlocks for tc.embedding_grad(_add), a block of
  /// one warp per (row, head) for tc.cached_attention up to
  /// kMaxElementBlocks (a thread per (row, head) where its scores do not fit
  /// shared memory: cachedAttentionOnWarps), else one thread per
  /// element of the largest operand or result (a sum over rows reads more
  /// than it writes), up to kMaxElementBlocks blocks.
  std::pair<int64_t, int64_t>
  launchGeometry(mlir::Operation *op) const override {
    if (op->hasTrait<tc::OpTrait::RowWise>()) {
      auto input =
          mlir::cast<mlir::RankedTensorType>(op->getOperand(0).getType());
      int64_t row = std::max<int64_t>(input.getShape().back(), 1);
      return {std::max<int64_t>(input.getNumElements() / row, 1),
              std::min<int64_t>((row + 31) / 32 * 32, kBlockThreads)};
    }
    if (mlir::isa<tc::EmbeddingGradOp, tc::EmbeddingGradAddOp>(op)) {
      int64_t rows =
          mlir::cast<mlir::RankedTensorType>(op->getResult(0).getType())
              .getDimSize(0);
      return {std::clamp<int64_t>(rows, 1, kEmbeddingGradBlocks),
              kBlockThreads};
    }
    if (auto attention = mlir::dyn_cast<tc::CachedAttentionOp>(op)) {
      int64_t tasks =
          mlir::cast<mlir::RankedTensorType>(attention.getQuery().getType())
              .getDimSize(0) *
          attention.getHeads();
      if (!cachedAttentionOnWarps(attention))
        return {(tasks + 31) / 32, 32};
      return {std::min(tasks, kMaxElementBlocks), 32};
    }
    int64_t elements = 1;
    for (mlir::Type type : llvm::concat<const mlir::Type>(op->getOperandTypes(),
                                                          op->getResultTypes()))
      if (auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type))
        elements = std::max(elements, tensor.getNumElements());
    return {std::min((elements + kBlockThreads - 1) / kBlockThreads,
                     kMaxElementBlocks),
            kBlockThreads};
  }

protected:
  std::string_view declarationHead() const override {
    return "extern \"C\" __global__ void ";
  }
  std::string_view
  tableSpelling(const support::ElementTypeInfo &row) const override {
    return row.cudaType;
  }
};

} // namespace

const TargetBackend &cudaBackend() {
  static const CudaBackend backend;
  return backend;
}

} // namespace tc::codegen
