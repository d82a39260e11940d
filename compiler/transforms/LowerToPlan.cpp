//===- LowerToPlan.cpp - tc functions -> plan functions --------------------===//
//
// Every op of a function is a view (nothing to run), a GEMM or a generated
// kernel (compiler/analysis/BufferAssignment.h); every tensor lies in a flat
// buffer (compiler/analysis/MemoryPlan.h). This pass writes that down as a
// plan function: one step per GEMM and kernel, buffers as #plan.buf views,
// and the kernels as functions of the module holding their one tc op.
//
//===----------------------------------------------------------------------===//

#include "compiler/analysis/BufferAssignment.h"
#include "compiler/analysis/MemoryPlan.h"
#include "compiler/codegen/TargetBackend.h"
#include "compiler/transforms/Passes.h"
#include "compiler/transforms/TransformUtils.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

namespace tc {
#define GEN_PASS_DEF_TCLOWERTOPLAN
#include "compiler/transforms/Passes.h.inc"
} // namespace tc

using namespace mlir;
using namespace tc;

namespace {

/// Lowers the functions of one module, sharing kernels and constants.
class Lowering {
public:
  Lowering(ModuleOp module, int64_t bucketBytes, support::Precision precision)
      : module(module), b(module.getContext()), bucketBytes(bucketBytes),
        precision(precision) {}

  LogicalResult lower(func::FuncOp function);
  void finish() {
    if (params)
      module->setAttr(plan::kParamsAttrName, params);
    module->setAttr(plan::kParamBytesAttrName, b.getI64IntegerAttr(paramBytes));
    if (readsParamCopies) // bf16: half the bytes of the f32 parameters
      module->setAttr(plan::kParamCopyBytesAttrName,
                      b.getI64IntegerAttr(paramBytes / 2));
  }

private:
  plan::BufferAttr bufferOf(Value value) const;
  plan::BufferAttr contiguousBuffer(plan::Space space, int64_t offset,
                                    Value like) const;
  StringRef kernelFor(Operation *op);
  LogicalResult emitGemm(Operation *op);
  LogicalResult recordParams(func::FuncOp function);
  void emitLaunch(mlir::Operation *op, llvm::ArrayRef<mlir::Attribute> inputs);
  void emitAdam(AdamOp adam);
  LogicalResult emitAllReduce(
      AllReduceOp reduce,
      const llvm::DenseMap<mlir::Value, mlir::Operation *> &lastWrites);

  ModuleOp module;
  OpBuilder b;
  int64_t bucketBytes;
  support::Precision precision;               ///< the module's tc.precision
  llvm::StringMap<std::string> kernelsByText; // printed kernel -> its name
  int64_t constantBytes = 0;                  // of the whole executable
  ArrayAttr params;
  int64_t paramBytes = 0;
  bool readsParamCopies = false; ///< some function has a param_copies root
  // Of the function being lowered.
  const BufferAssignment *assignment = nullptr;
  const MemoryPlan *memory = nullptr;
  int64_t constantBase = 0;
  std::string functionName;
  int kernelIndex = 0;
};

plan::BufferAttr Lowering::bufferOf(Value value) const {
  const Placement &placement = assignment->placementOf(value);
  const RootPlacement &root = memory->roots.lookup(placement.root);
  auto type = cast<RankedTensorType>(value.getType());
  int64_t elementBytes =
      std::max<int64_t>(type.getElementType().getIntOrFloatBitWidth() / 8, 1);
  int64_t offset = root.offset + placement.layout.offset * elementBytes;
  if (root.space == plan::Space::constants)
    offset += constantBase;
  // Extent-1 dimensions take their row-major stride, so that equal views
  // compare equal and print without strides.
  SmallVector<int64_t> strides(placement.layout.strides.begin(),
                               placement.layout.strides.end());
  SmallVector<int64_t> dense =
      plan::BufferAttr::contiguousStrides(placement.layout.shape);
  for (size_t d = 0; d < strides.size(); ++d)
    if (placement.layout.shape[d] == 1)
      strides[d] = dense[d];
  return plan::BufferAttr::get(b.getContext(), root.space, offset,
                               placement.layout.shape, strides,
                               type.getElementType());
}

plan::BufferAttr Lowering::contiguousBuffer(plan::Space space, int64_t offset,
                                            Value like) const {
  auto type = cast<RankedTensorType>(like.getType());
  return plan::BufferAttr::get(
      b.getContext(), space, offset, type.getShape(),
      plan::BufferAttr::contiguousStrides(type.getShape()),
      type.getElementType());
}

/// The kernel function computing `op` on its operands: one per distinct op
/// (same text, types and attributes), shared by every launch.
StringRef Lowering::kernelFor(Operation *op) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  auto kernel = func::FuncOp::create(
      b, op->getLoc(), "kernel",
      b.getFunctionType(op->getOperandTypes(), op->getResultTypes()));
  Block *entry = kernel.addEntryBlock();
  b.setInsertionPointToStart(entry);
  // One argument per operand position, even when a value is passed twice.
  Operation *clone = b.clone(*op);
  clone->setOperands(entry->getArguments());
  func::ReturnOp::create(b, op->getLoc(), clone->getResults());
  kernel->setAttr(plan::kKernelAttrName, b.getUnitAttr());
  kernel.setPrivate();

  std::string text;
  llvm::raw_string_ostream os(text);
  kernel.print(os, OpPrintingFlags().useLocalScope().enableDebugInfo(false));
  auto [it, added] = kernelsByText.try_emplace(text);
  if (!added) {
    kernel.erase();
    return it->second;
  }
  do // a name no function of the module has
    it->second = functionName + "_k" + std::to_string(kernelIndex++);
  while (SymbolTable::lookupSymbolIn(module, it->second));
  kernel.setSymName(it->second);
  return it->second;
}

LogicalResult Lowering::emitGemm(Operation *op) {
  Value lhs, rhs, bias, out = op->getResult(0);
  bool transposeLhs = false, transposeRhs = false, relu = false;
  if (auto matmul = dyn_cast<MatmulOp>(op)) {
    lhs = matmul.getLhs();
    rhs = matmul.getRhs();
    transposeLhs = matmul.getTransposeLhs();
    transposeRhs = matmul.getTransposeRhs();
  } else {
    auto linear = cast<LinearOp>(op);
    lhs = linear.getInput();
    rhs = linear.getWeight();
    bias = linear.getBias();
    transposeRhs = true; // x W^T with W [out, in]
    relu = linear.getRelu();
  }
  const StridedLayout &a = assignment->placementOf(lhs).layout;
  const StridedLayout &w = assignment->placementOf(rhs).layout;
  const StridedLayout &c = assignment->placementOf(out).layout;
  std::optional<MatrixLayout> ma = matrixLayout(a), mb = matrixLayout(w),
                              mc = matrixLayout(c);
  if (!ma || !mb || !mc)
    return op->emitError("internal error: a GEMM operand has no unit-strided "
                         "dimension among its last two");
  size_t rank = c.shape.size();
  int64_t m = c.shape[rank - 2], n = c.shape[rank - 1];
  int64_t k = transposeLhs ? a.shape[a.shape.size() - 2] : a.shape.back();
  bool transA = transposeLhs != ma->transposed;
  bool transB = transposeRhs != mb->transposed;
  int64_t lda = ma->ld, ldb = mb->ld, ldc = mc->ld;

  // Batch dimensions of the result; operands broadcast (stride 0).
  SmallVector<int64_t> batch(c.shape.begin(), c.shape.end() - 2);
  auto batchStrides = [&](const StridedLayout &layout) {
    SmallVector<int64_t> strides;
    size_t skip = rank - layout.shape.size();
    for (size_t d = 0; d + 2 < rank; ++d) {
      bool present = d >= skip && layout.shape[d - skip] != 1;
      strides.push_back(present ? layout.strides[d - skip] : 0);
    }
    return strides;
  };
  SmallVector<int64_t> sa = batchStrides(a), sb = batchStrides(w),
                       sc = batchStrides(c);
  bool swapped = mc->transposed; // C is column-major: compute C^T = B^T A^T
  if (swapped) {
    if (bias)
      return op->emitError("internal error: a bias epilogue into a "
                           "column-major output");
    std::swap(m, n);
    std::swap(transA, transB);
    transA = !transA;
    transB = !transB;
    std::swap(lda, ldb);
    std::swap(sa, sb);
  }
  // Shared weights: fold the innermost batch dimensions into the rows.
  while (!batch.empty() && sb.back() == 0 && !transA && sa.back() == m * lda &&
         sc.back() == m * ldc) {
    m *= batch.back();
    batch.pop_back();
    sa.pop_back();
    sb.pop_back();
    sc.pop_back();
  }
  plan::BufferAttr lhsBuffer = bufferOf(swapped ? rhs : lhs);
  plan::BufferAttr rhsBuffer = bufferOf(swapped ? lhs : rhs);
  // TF32 is a way to compute f32 GEMMs; bf16 operands compute in f32.
  bool tf32 = precision == support::Precision::TF32 &&
              typeOf(lhs).getElementType().isF32() &&
              typeOf(rhs).getElementType().isF32();
  plan::GemmOp::create(b, op->getLoc(), lhsBuffer, rhsBuffer, bufferOf(out),
                       bias ? bufferOf(bias) : plan::BufferAttr(), uint64_t(m),
                       uint64_t(n), uint64_t(k), transA, transB, uint64_t(lda),
                       uint64_t(ldb), uint64_t(ldc), batch, sa, sb, sc,
                       APFloat(1.0f), APFloat(0.0f), relu,
                       tf32 ? plan::GemmCompute::tf32 : plan::GemmCompute::f32);
  return success();
}

/// A launch of the kernel computing `op` on `inputs`, writing its results.
void Lowering::emitLaunch(Operation *op, ArrayRef<Attribute> inputs) {
  SmallVector<Attribute> outputs;
  for (Value result : op->getResults())
    outputs.push_back(bufferOf(result));
  // The CUDA target's geometry, in the plan of both targets (the host's
  // kernels run once and ignore it).
  auto [grid, block] = codegen::targetBackend(Target::Cuda).launchGeometry(op);
  plan::LaunchOp::create(b, op->getLoc(), kernelFor(op), b.getArrayAttr(inputs),
                         b.getArrayAttr(outputs),
                         SmallVector<int64_t>{grid, 1, 1},
                         SmallVector<int64_t>{block, 1, 1});
}

/// Adam reads the gradients from the grads buffer: those not written there
/// by their producer are copied first.
void Lowering::emitAdam(AdamOp adam) {
  SmallVector<Attribute> inputs;
  size_t n = adam.getParams().size();
  for (auto [i, operand] : llvm::enumerate(adam.getOperands())) {
    plan::BufferAttr buffer = bufferOf(operand);
    if (i >= n && i < 2 * n) { // a gradient
      plan::BufferAttr slot = contiguousBuffer(
          plan::Space::grads, memory->gradientSlots[i - n], operand);
      if (buffer != slot)
        plan::CopyOp::create(b, adam.getLoc(), buffer, slot);
      buffer = slot;
    }
    inputs.push_back(buffer);
  }
  emitLaunch(adam, inputs);
}

/// The inputs of `reduce` in the grads space, cut into buckets of adjacent
/// gradients of at least bucketBytes, each reduced after the last step
/// writing one of its gradients; the other inputs here, then the wait.
LogicalResult
Lowering::emitAllReduce(AllReduceOp reduce,
                        const llvm::DenseMap<Value, Operation *> &lastWrites) {
  struct Piece {
    plan::BufferAttr buffer;
    Operation *lastWrite;
  };
  SmallVector<Piece> gradients;
  for (Value input : reduce.getInputs()) {
    plan::BufferAttr buffer = bufferOf(input);
    if (!buffer.isContiguous())
      return reduce.emitError("tc-lower-to-plan: input ")
             << buffer << " of a tc.all_reduce is not contiguous";
    if (buffer.getSpace() == plan::Space::grads) {
      gradients.push_back(
          {buffer, lastWrites.lookup(assignment->placementOf(input).root)});
      continue;
    }
    if (buffer.getSpace() != plan::Space::arena)
      return reduce.emitError("tc-lower-to-plan: a tc.all_reduce input lies "
                              "in the ")
             << plan::stringifySpace(buffer.getSpace())
             << " space; only gradients and values computed by the function "
                "are reduced";
    plan::AllReduceOp::create(b, reduce.getLoc(), buffer);
  }
  plan::WaitOp::create(b, reduce.getLoc());
  llvm::sort(gradients, [](const Piece &x, const Piece &y) {
    return x.buffer.getOffset() < y.buffer.getOffset();
  });
  // Buckets in the order of the grads space; a bucket is started after its
  // last write, or at the start of the function when nothing writes it.
  llvm::DenseMap<Operation *, Operation *> lastStartedAfter;
  Block *body = b.getInsertionBlock();
  for (size_t first = 0; first < gradients.size();) {
    int64_t begin = gradients[first].buffer.getOffset();
    int64_t end = gradients[first].buffer.endOffset();
    Operation *after = gradients[first].lastWrite;
    size_t next = first + 1;
    while (next < gradients.size() && end - begin < bucketBytes &&
           gradients[next].buffer.getOffset() == end) {
      end = gradients[next].buffer.endOffset();
      Operation *write = gradients[next].lastWrite;
      if (write && (!after || after->isBeforeInBlock(write)))
        after = write;
      ++next;
    }
    OpBuilder::InsertionGuard guard(b);
    Operation *&previous = lastStartedAfter[after];
    if (previous)
      b.setInsertionPointAfter(previous);
    else if (after)
      b.setInsertionPointAfter(after);
    else
      b.setInsertionPointToStart(body);
    Type f32 = b.getF32Type();
    previous = plan::AllReduceOp::create(
        b, reduce.getLoc(),
        plan::BufferAttr::get(b.getContext(), plan::Space::grads, begin,
                              {(end - begin) / 4}, {1}, f32));
    first = next;
  }
  return success();
}

/// The parameter table of the executable, the same for every function.
LogicalResult Lowering::recordParams(func::FuncOp function) {
  SmallVector<Attribute> table;
  int64_t bytes = 0;
  for (BlockArgument arg : function.getArguments()) {
    if (assignment->bufferOf(arg) != ArgumentBuffer::Params)
      continue;
    NamedAttrList entry;
    entry.set("name", function.getArgAttr(arg.getArgNumber(), kParamAttrName));
    entry.set("buffer", bufferOf(arg));
    if (Attribute init = function.getArgAttr(arg.getArgNumber(), kInitAttrName))
      entry.set("init", init);
    table.push_back(entry.getDictionary(b.getContext()));
    bytes = bufferOf(arg).endOffset();
  }
  if (table.empty())
    return success();
  ArrayAttr attr = b.getArrayAttr(table);
  if (params && params != attr)
    return function.emitError("the parameters of '")
           << function.getSymName()
           << "' differ from those of the functions before it; an executable "
              "has one parameter table";
  params = attr;
  paramBytes = bytes;
  return success();
}

LogicalResult Lowering::lower(func::FuncOp function) {
  BufferAssignment buffers(function);
  MemoryPlan plan = planMemory(function, buffers);
  assignment = &buffers;
  memory = &plan;
  functionName = function.getSymName().str();
  kernelIndex = 0;
  constantBase = constantBytes;
  constantBytes += plan.constantBytes;
  if (failed(recordParams(function)))
    return failure();
  readsParamCopies |= bool(buffers.paramCopiesRoot);

  b.setInsertionPoint(function);
  auto lowered = func::FuncOp::create(
      b, function.getLoc(), functionName + ".plan", b.getFunctionType({}, {}));
  auto dictionaries = [&](ArrayRef<Binding> bindings) {
    SmallVector<Attribute> list;
    for (const Binding &binding : bindings)
      list.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("name", b.getStringAttr(binding.name)),
           b.getNamedAttr("buffer",
                          contiguousBuffer(binding.space, binding.offset,
                                           binding.value))}));
    return b.getArrayAttr(list);
  };
  lowered->setAttr(plan::kArenaBytesAttrName,
                   b.getI64IntegerAttr(plan.arenaBytes));
  lowered->setAttr(plan::kInputsAttrName, dictionaries(plan.inputs));
  lowered->setAttr(plan::kOutputsAttrName, dictionaries(plan.outputs));

  // Constants, at module level.
  b.setInsertionPointToEnd(module.getBody());
  llvm::DenseSet<Value> storedConstants;
  for (ConstantOp constant : function.getOps<ConstantOp>()) {
    Value root = buffers.placementOf(constant.getResult()).root;
    if (root == constant.getResult() && plan.roots.count(root))
      plan::ConstantOp::create(b, constant.getLoc(), bufferOf(root),
                               constant.getValue());
  }

  Block *body = lowered.addEntryBlock();
  b.setInsertionPointToStart(body);
  // The last step writing each root's buffer, for placing the reductions.
  llvm::DenseMap<Value, Operation *> lastWrites;
  SmallVector<AllReduceOp> reductions;
  for (Operation &op : function.getBody().front()) {
    switch (buffers.stepOf(&op)) {
    case StepKind::None:
      continue;
    case StepKind::Gemm:
      if (failed(emitGemm(&op)))
        return failure();
      break;
    case StepKind::Kernel: {
      if (auto adam = dyn_cast<AdamOp>(op)) {
        emitAdam(adam);
        break;
      }
      SmallVector<Attribute> inputs;
      for (Value operand : op.getOperands())
        inputs.push_back(bufferOf(operand));
      emitLaunch(&op, inputs);
      break;
    }
    case StepKind::Collective:
      if (failed(emitAllReduce(cast<AllReduceOp>(op), lastWrites)))
        return failure();
      continue; // its results are its inputs' buffers: nothing written
    }
    for (Value result : op.getResults())
      lastWrites[buffers.placementOf(result).root] = &body->back();
  }
  for (const Binding &output :
       llvm::concat<const Binding>(plan.outputs, plan.stateUpdates)) {
    plan::BufferAttr slot =
        contiguousBuffer(output.space, output.offset, output.value);
    if (bufferOf(output.value) != slot)
      plan::CopyOp::create(b, function.getLoc(), bufferOf(output.value), slot);
  }
  func::ReturnOp::create(b, function.getLoc());

  function.erase();
  lowered.setSymName(functionName);
  return success();
}

struct LowerToPlan : public tc::impl::TcLowerToPlanBase<LowerToPlan> {
  using TcLowerToPlanBase::TcLowerToPlanBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<support::Precision> precision = precisionOf(module);
    if (!precision) {
      module.emitError() << "tc-lower-to-plan: " << kPrecisionAttrName << " "
                         << module->getAttr(kPrecisionAttrName)
                         << " is not a precision; expected "
                         << support::precisionChoices();
      return signalPassFailure();
    }
    Lowering lowering(module, bucketBytes, *precision);
    SmallVector<func::FuncOp> functions;
    for (func::FuncOp function : module.getOps<func::FuncOp>())
      if (!function.isExternal() && !function->hasAttr(plan::kKernelAttrName))
        functions.push_back(function);
    for (func::FuncOp function : functions) {
      StringRef name = function.getSymName();
      bool wanted = this->functions.empty() ||
                    llvm::any_of(this->functions, [&](const std::string &p) {
                      return name.starts_with(p);
                    });
      if (!wanted) {
        function.erase();
        continue;
      }
      if (failed(lowering.lower(function)))
        return signalPassFailure();
    }
    lowering.finish();
  }
};

} // namespace
