//===- MemoryPlan.h - the flat buffers of a function and the arena ---------===//
//
// Places every root of a buffer assignment (compiler/analysis/
// BufferAssignment.h) into one of the executable's flat buffers:
//
//  * params, adam_m, adam_v: the parameters and Adam moments, in argument
//    order, packed without gaps (so adjacent Q/K/V weights are one matrix);
//  * grads: each parameter's gradient at its parameter's offset, written
//    there directly by the GEMM or kernel producing it when that value holds
//    nothing else (else the lowering copies it there);
//    A step that computes the new parameters and moments out of place (no
//    tc.adam) has them copied there at its end (stateUpdates);
//  * param_copies: each parameter's bf16 copy at its parameter's offset in
//    elements (tc-use-param-copies), updated in place by tc.adam;
//  * inputs, outputs, constants: what a call binds, returns, and what the
//    executable stores, each 64-byte aligned;
//  * arena: everything else. Two roots share arena bytes only when their
//    lifetimes (first write to last read, over all their views) do not
//    overlap. Offsets are assigned greedily by size (largest first, lowest
//    offset free for its whole lifetime), the strategy of TFLite's and XLA's
//    heap simulators.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_ANALYSIS_MEMORYPLAN_H
#define TC_COMPILER_ANALYSIS_MEMORYPLAN_H

#include "compiler/analysis/BufferAssignment.h"
#include "dialects/plan/PlanDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tc {

/// The byte alignment of every buffer of the arena, inputs, outputs and
/// constants.
inline constexpr int64_t kBufferAlignment = 64;

struct RootPlacement {
  plan::Space space;
  int64_t offset = 0; ///< bytes
};

struct ArenaBuffer {
  mlir::Value root;
  int64_t size = 0;   ///< bytes, rounded up to kBufferAlignment
  int64_t offset = 0; ///< in the arena
  int64_t first = 0;  ///< index of the first op that writes it
  int64_t last = 0;   ///< index of the last op that reads it
};

/// A named input or output of a call and its place.
struct Binding {
  std::string name;
  mlir::Value value;
  int64_t offset = 0; ///< bytes, in `space`
  /// inputs or outputs; an output updated in place in an input's buffer
  /// (tc.cache_update, tc.beam_history) is bound there: the state a decoder
  /// step keeps. params, adam_m or adam_v for a stateUpdate.
  plan::Space space = plan::Space::outputs;
};

struct MemoryPlan {
  llvm::DenseMap<mlir::Value, RootPlacement> roots;
  std::vector<ArenaBuffer> arena;
  std::vector<Binding> inputs, outputs;
  /// A training step's new parameters and moments ("param.P", "adam_m.P",
  /// "adam_v.P" results) that it computed out of place, as the unfused
  /// update does (tc.adam writes them in place): each copied into its slot
  /// of the params, adam_m or adam_v space (`space`, `offset` in bytes) after
  /// the last step, once nothing reads the old values.
  std::vector<Binding> stateUpdates;
  /// Per gradient operand of tc.adam: its slot in the grads space (bytes).
  std::vector<int64_t> gradientSlots;
  int64_t arenaBytes = 0;   ///< the arena's size: the largest offset + size
  int64_t peakBytes = 0;    ///< the most bytes live at once (a lower bound)
  int64_t noReuseBytes = 0; ///< the sum of all arena buffers without reuse
  int64_t inputBytes = 0, outputBytes = 0, constantBytes = 0;
};

MemoryPlan planMemory(mlir::func::FuncOp function,
                      const BufferAssignment &assignment);

} // namespace tc

#endif // TC_COMPILER_ANALYSIS_MEMORYPLAN_H
