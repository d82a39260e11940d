//===- PlanOps.cpp - verifiers of the plan dialect's steps ----------------===//

#include "dialects/plan/PlanDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace tc::plan;

#define GET_OP_CLASSES
#include "dialects/plan/PlanOps.cpp.inc"

/// "2x4xf32" for the messages.
static std::string describe(ArrayRef<int64_t> shape, Type elementType) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (int64_t extent : shape)
    os << extent << "x";
  os << elementType;
  return text;
}

/// Whether `buffer` lies in the state of the function holding `op`: an
/// output bound in the inputs space (an input the function updates in
/// place; see tcx.fbs).
static bool isState(Operation *op, BufferAttr buffer) {
  auto function = op->getParentOfType<func::FuncOp>();
  auto outputs =
      function ? function->getAttrOfType<ArrayAttr>(kOutputsAttrName) : nullptr;
  if (!outputs || buffer.getSpace() != Space::inputs)
    return false;
  for (Attribute entry : outputs) {
    auto dict = dyn_cast<DictionaryAttr>(entry);
    auto state = dict ? dict.getAs<BufferAttr>("buffer") : nullptr;
    if (state && state.getSpace() == Space::inputs &&
        state.getOffset() <= buffer.getOffset() &&
        buffer.endOffset() <= state.endOffset())
      return true;
  }
  return false;
}

/// Steps never write the constants or the inputs of a call, but kernel
/// launches may write state (as the runtime's verifier allows).
static LogicalResult verifyWritable(Operation *op, BufferAttr buffer) {
  if (buffer.getSpace() == Space::constants ||
      (buffer.getSpace() == Space::inputs &&
       !(isa<LaunchOp>(op) && isState(op, buffer))))
    return op->emitOpError("writes into the read-only ")
           << stringifySpace(buffer.getSpace()) << " space";
  return success();
}

static bool sameTensor(BufferAttr buffer, Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getShape() == buffer.getShape() &&
         tensor.getElementType() == buffer.getElementType();
}

//===----------------------------------------------------------------------===//
// plan.launch
//===----------------------------------------------------------------------===//

LogicalResult LaunchOp::verify() {
  for (ArrayRef<int64_t> geometry : {getGrid(), getBlock()}) {
    if (geometry.size() != 3 ||
        llvm::any_of(geometry, [](int64_t n) { return n < 1; }))
      return emitOpError("grid and block are three positive extents (x, y, z)");
  }
  for (Attribute attr :
       llvm::concat<const Attribute>(getInputs(), getOutputs()))
    if (!cast<BufferAttr>(attr).isContiguous())
      return emitOpError("kernel buffers must be contiguous, got ") << attr;
  for (Attribute attr : getOutputs())
    if (failed(verifyWritable(*this, cast<BufferAttr>(attr))))
      return failure();
  return success();
}

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto kernel =
      symbols.lookupNearestSymbolFrom<func::FuncOp>(*this, getKernelAttr());
  if (!kernel || !kernel->hasAttr(kKernelAttrName))
    return emitOpError("'")
           << getKernel() << "' is not a kernel function of this module";
  FunctionType type = kernel.getFunctionType();
  if (type.getNumInputs() != getInputs().size() ||
      type.getNumResults() != getOutputs().size())
    return emitOpError("kernel '")
           << getKernel() << "' takes " << type.getNumInputs()
           << " inputs and returns " << type.getNumResults()
           << " results; the launch binds " << getInputs().size() << " and "
           << getOutputs().size();
  auto check = [&](ArrayAttr buffers, TypeRange types,
                   StringRef what) -> LogicalResult {
    for (auto [i, attr, t] : llvm::enumerate(buffers, types)) {
      auto buffer = cast<BufferAttr>(attr);
      if (!sameTensor(buffer, t))
        return emitOpError()
               << what << " " << i << " is "
               << describe(buffer.getShape(), buffer.getElementType())
               << " but kernel '" << getKernel() << "' expects " << t;
    }
    return success();
  };
  return failure(failed(check(getInputs(), type.getInputs(), "input")) ||
                 failed(check(getOutputs(), type.getResults(), "output")));
}

//===----------------------------------------------------------------------===//
// plan.gemm
//===----------------------------------------------------------------------===//

LogicalResult GemmOp::verify() {
  int64_t m = getM(), n = getN(), k = getK();
  if (m < 1 || n < 1 || k < 1)
    return emitOpError("m, n and k must be positive, got ")
           << m << ", " << n << ", " << k;
  size_t rank = getBatch().size();
  if (getLhsBatchStrides().size() != rank ||
      getRhsBatchStrides().size() != rank ||
      getOutBatchStrides().size() != rank)
    return emitOpError("needs one batch stride per batch dimension (")
           << rank << ") for lhs, rhs and out";
  // A row-major matrix's leading dimension is at least its row length.
  int64_t lhsRow = getTransposeLhs() ? m : k;
  int64_t rhsRow = getTransposeRhs() ? k : n;
  if (getLda() < lhsRow || getLdb() < rhsRow || getLdc() < n)
    return emitOpError("leading dimensions (")
           << getLda() << ", " << getLdb() << ", " << getLdc()
           << ") are shorter than the rows (" << lhsRow << ", " << rhsRow
           << ", " << n << ")";
  // f32 x f32 or bf16 x bf16 (mixed precision), summed in f32; TF32 is a
  // way to compute f32 products. bf16 products may store their f32 sums
  // rounded to bf16 (tc-fuse-convert): stored, not added to an old C, and
  // with no bias (the bias is f32, and cuBLASLt adds one to a bf16 D only
  // in bf16).
  Type operand = getLhs().getElementType();
  if (operand != getRhs().getElementType() ||
      !(operand.isF32() || operand.isBF16()))
    return emitOpError("operands must be both f32 or both bf16, got ")
           << operand << " and " << getRhs().getElementType();
  Type out = getOut().getElementType();
  if (!out.isF32() && !(out.isBF16() && operand.isBF16()))
    return emitOpError("GEMMs write f32, or bf16 from bf16 operands, got ")
           << out << " from " << operand;
  if (out.isBF16() && (getBiasAttr() || !getBeta().isZero()))
    return emitOpError("a bf16 result takes no bias and beta 0");
  if (getCompute() == GemmCompute::tf32 && !operand.isF32())
    return emitOpError("tf32 compute needs f32 operands, got ") << operand;
  if (failed(verifyWritable(*this, getOut())))
    return failure();
  if (BufferAttr bias = getBiasAttr()) {
    if (!bias.isContiguous() || bias.numElements() != n ||
        !bias.getElementType().isF32())
      return emitOpError("bias must be ") << n << " contiguous f32 elements";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// plan.copy, plan.allreduce, plan.constant
//===----------------------------------------------------------------------===//

LogicalResult CopyOp::verify() {
  if (getSource().getShape() != getTarget().getShape() ||
      getSource().getElementType() != getTarget().getElementType())
    return emitOpError("copies ")
           << describe(getSource().getShape(), getSource().getElementType())
           << " into "
           << describe(getTarget().getShape(), getTarget().getElementType());
  return verifyWritable(*this, getTarget());
}

LogicalResult AllReduceOp::verify() {
  BufferAttr buffer = getBuffer();
  if (buffer.getSpace() != Space::grads && buffer.getSpace() != Space::arena)
    return emitOpError("sums gradients, a loss or a token count; its buffer "
                       "must be in the grads space or the arena, not ")
           << stringifySpace(buffer.getSpace());
  Type element = buffer.getElementType();
  if (!element.isF32() && !element.isInteger(32))
    return emitOpError("sums f32 or i32 elements, not ") << element;
  if (!buffer.isContiguous())
    return emitOpError("needs a contiguous buffer, got ") << buffer;
  return success();
}

LogicalResult ConstantOp::verify() {
  auto type = dyn_cast<ShapedType>(getValue().getType());
  if (getBuffer().getSpace() != Space::constants || !getBuffer().isContiguous())
    return emitOpError("needs a contiguous buffer of the constants space");
  if (!type ||
      !sameTensor(getBuffer(), RankedTensorType::get(type.getShape(),
                                                     type.getElementType())))
    return emitOpError("value ")
           << getValue().getType() << " does not fill " << getBuffer();
  return success();
}
