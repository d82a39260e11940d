//===- KernelCount.h - how many kernels a function becomes, and their traffic -===//
//
// The cost model behind `tc-compile --stats`: every op of a function becomes a
// library GEMM call, one generated kernel, or nothing (a view), as the buffer
// assignment decides (compiler/analysis/BufferAssignment.h). The bytes that
// generated kernels read and write measure the memory traffic fusion removes.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_ANALYSIS_KERNELCOUNT_H
#define TC_COMPILER_ANALYSIS_KERNELCOUNT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cstdint>
#include <map>
#include <string>

namespace tc {

/// The bytes of a tensor value (at least one byte per element).
int64_t bytesOf(mlir::Value v);

/// The bytes a step moves: each operand and result once, at its own size
/// (a cache update: its new values read and written, not the whole cache).
int64_t trafficBytes(mlir::Operation *op);

/// The FLOPs of a GEMM step (tc.matmul, tc.linear): 2 m n k per batch entry,
/// plus tc.linear's bias and ReLU, one per output each. The model FLOPs of
/// MFU are these.
int64_t gemmFlops(mlir::Operation *op);

/// A rough count of a generated kernel's arithmetic: per element of its
/// largest operand or result, the ops of a fused body, or a count of what
/// the named op's kernel computes (RowKernels.cpp, OpKernels.cpp). The
/// kernels are memory-bound on every GPU and CPU tc targets, so the count
/// only has to be of the right order.
int64_t kernelFlops(mlir::Operation *op);

struct KernelCount {
  int64_t generated = 0;
  int64_t gemm = 0;
  /// Bytes read and written by the generated kernels: each operand and result
  /// once, at its own size.
  int64_t nonGemmBytes = 0;
  /// nonGemmBytes by op name ("tc.fused", "tc.transpose", ...).
  std::map<std::string, int64_t> bytesByOp;
};

KernelCount countKernels(mlir::func::FuncOp function);

} // namespace tc

#endif // TC_COMPILER_ANALYSIS_KERNELCOUNT_H
