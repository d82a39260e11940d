//===- MemoryPlan.h - buffers of a function in one arena, by liveness ------===//
//
// Every tensor a kernel or GEMM of a function writes gets a byte range of one
// arena; two tensors share bytes only when their lifetimes do not overlap.
// Views (reshapes, contiguous slices and splits, concatenations of adjacent
// parameters) alias what they view; function arguments (parameters, Adam
// moments, data) live outside the arena, and tc.adam updates them in place;
// constants are stored with the executable.
//
// Offsets are assigned greedily by size (largest first, lowest offset that
// is free for its whole lifetime), the strategy of TFLite's and XLA's heap
// simulators; it is not optimal but within a few percent of the peak on
// Transformer steps.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_ANALYSIS_MEMORYPLAN_H
#define TC_COMPILER_ANALYSIS_MEMORYPLAN_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <vector>

namespace tc {

/// The byte alignment of every buffer in the arena.
inline constexpr int64_t kBufferAlignment = 64;

struct PlannedBuffer {
  mlir::Value value;   ///< the tensor the buffer holds
  int64_t size = 0;    ///< bytes, rounded up to kBufferAlignment
  int64_t offset = 0;  ///< in the arena
  int64_t first = 0;   ///< index of the op that writes it
  int64_t last = 0;    ///< index of the last op that reads it (or a view of it)
};

struct MemoryPlan {
  std::vector<PlannedBuffer> buffers;
  /// Value -> index in `buffers`, for every arena value and every view of one.
  llvm::DenseMap<mlir::Value, size_t> bufferOf;
  int64_t arenaBytes = 0;   ///< the arena's size: the largest offset + size
  int64_t peakBytes = 0;    ///< the most bytes live at once (a lower bound)
  int64_t noReuseBytes = 0; ///< the sum of all buffers: the arena without reuse
};

MemoryPlan planMemory(mlir::func::FuncOp function);

} // namespace tc

#endif // TC_COMPILER_ANALYSIS_MEMORYPLAN_H
