//===- BufferAssignment.h - which bytes hold each tensor of a function -----===//
//
// Decides, for every tensor value of a function, the buffer ("root") that
// holds it and its strided layout there, and what every op becomes:
//
//  * a view (no step): reshapes, transposes, slices, splits and
//    concatenations whose result is a strided view of their input (numpy's
//    rule), kept only when every consumer can read the strided layout (GEMMs
//    read any layout with one unit-strided dimension in the last two; other
//    kernels read contiguous buffers only);
//  * a folded view (no step): a transpose, reshape or concatenation whose
//    inputs are each written, by the GEMM or kernel that produces them,
//    directly into their place in its result: attention's head merge and
//    the Q/K/V gradient concatenation are strides of the GEMMs' outputs;
//  * a GEMM (tc.matmul, tc.linear) or a generated kernel (everything else).
//
// Roots are function arguments (all parameters share one root, in argument
// order, as do the Adam moments: the flat buffers of the design), constants,
// or results of a GEMM or kernel. tc.adam updates its parameters and moments
// in place, and an op that UpdatesInPlace (tc.cache_update, tc.beam_history)
// its first operand (a decoder step's input).
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_ANALYSIS_BUFFERASSIGNMENT_H
#define TC_COMPILER_ANALYSIS_BUFFERASSIGNMENT_H

#include "compiler/analysis/StridedLayout.h"

#include "dialects/tc/TcDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

namespace tc {

enum class StepKind {
  None,   ///< a view, a folded view, a constant or the return
  Gemm,   ///< one library GEMM call
  Kernel, ///< one generated kernel
  /// tc.all_reduce: sums over the ranks, in place (plan.allreduce steps
  /// and a plan.wait)
  Collective,
};

/// Where a tensor lies: a strided layout (in elements) of a root's buffer.
struct Placement {
  mlir::Value root;
  StridedLayout layout;
};

/// The flat buffer a function argument belongs to.
enum class ArgumentBuffer {
  Params,
  FirstMoments,
  SecondMoments,
  ParamCopies, ///< the parameters' bf16 copies ("bf16.P" inputs)
  Input
};

class BufferAssignment {
public:
  explicit BufferAssignment(mlir::func::FuncOp function);

  StepKind stepOf(mlir::Operation *op) const;
  const Placement &placementOf(mlir::Value value) const;

  /// The roots standing for the flat parameter, moment and bf16 copy
  /// buffers (null when the function has none); their layouts' offsets are
  /// the parameters' offsets in elements, in argument order.
  mlir::Value paramsRoot, firstMomentsRoot, secondMomentsRoot,
      paramCopiesRoot;
  /// Parameter name -> offset in elements in the flat buffers.
  llvm::StringMap<int64_t> paramOffsets;
  int64_t paramElements = 0;

  ArgumentBuffer bufferOf(mlir::BlockArgument argument) const;

private:
  void assignArguments();
  void assignForward(mlir::Operation &op);
  bool consumersAccept(mlir::Value value, const StridedLayout &layout) const;
  std::optional<std::vector<StridedLayout>>
  viewLayouts(mlir::Operation *op, const StridedLayout &input) const;
  /// What folding a view into its consumer changes: the values written in
  /// place (with their new layouts) and the ops that stop running.
  struct Fold {
    std::vector<std::pair<mlir::Value, StridedLayout>> writes;
    std::vector<mlir::Operation *> folded;
  };
  bool canWriteInto(mlir::Value value, const StridedLayout &layout,
                    Fold &fold) const;
  bool canWritePieces(ConcatOp concat, const StridedLayout &layout,
                      Fold &fold) const;
  void foldIntoConsumer(mlir::Operation *op);
  void own(mlir::Value value);

  mlir::func::FuncOp function;
  llvm::DenseMap<mlir::Value, Placement> placements;
  llvm::DenseMap<mlir::Operation *, StepKind> steps;
  llvm::DenseMap<mlir::BlockArgument, ArgumentBuffer> argumentBuffers;
};

} // namespace tc

#endif // TC_COMPILER_ANALYSIS_BUFFERASSIGNMENT_H
