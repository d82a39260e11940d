//===- LoopKernel.cpp - elementwise groups as one loop over their shape ----===//

#include "compiler/codegen/LoopKernel.h"
#include "compiler/codegen/ExpressionEmitter.h"
#include "compiler/codegen/KernelText.h"
#include "support/Broadcast.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace tc::codegen {

/// The index into a reduction's result for element `i` of `shape`: the
/// coordinates of the kept dimensions, row-major.
static std::string reducedIndex(ArrayRef<int64_t> shape,
                                ArrayRef<int64_t> axes) {
  std::string index;
  int64_t stride = 1, outStride = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    bool reduced = llvm::is_contained(axes, int64_t(d));
    if (!reduced) {
      index +=
          llvm::formatv("{0}(i / {1} % {2}) * {3}", index.empty() ? "" : " + ",
                        stride, shape[d], outStride)
              .str();
      outStride *= shape[d];
    }
    stride *= shape[d];
  }
  return index.empty() ? "0" : index;
}

/// The linear index into `shape` of the element with result index `r`
/// (over the dimensions not in `axes`, row-major) and reduced index `j`
/// (over those in `axes`, row-major).
static std::string elementOf(ArrayRef<int64_t> shape, ArrayRef<int64_t> axes) {
  std::string index;
  int64_t stride = 1, keptStride = 1, reducedStride = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    bool reduced = llvm::is_contained(axes, int64_t(d));
    int64_t &within = reduced ? reducedStride : keptStride;
    index +=
        llvm::formatv("{0}({1} / {2} % {3}) * {4}", index.empty() ? "" : " + ",
                      reduced ? "j" : "r", within, shape[d], stride)
            .str();
    within *= shape[d];
    stride *= shape[d];
  }
  return index.empty() ? "0" : index;
}

/// One loop computing `outputs` from `inputs` (the kernel's buffers, in
/// that order) through `ops`: elementwise ops, and reductions as last steps.
/// For the host: a function with an OpenMP loop; for CUDA: a kernel with a
/// grid-stride loop (groups with reductions: not yet).
FailureOr<std::string> emitLoop(ArrayRef<Value> inputs,
                                ArrayRef<Operation *> ops,
                                ArrayRef<Value> outputs, StringRef name,
                                Target target, std::string &error) {
  if (outputs.empty()) {
    error = "the group has no results";
    return failure();
  }
  // The shape the kernel iterates over: every elementwise value's, and every
  // reduction's input's (tc-fuse-elementwise makes them one shape).
  SmallVector<Operation *> reductions;
  for (Operation *op : ops)
    if (op->hasTrait<tc::OpTrait::Reduction>())
      reductions.push_back(op);
  ArrayRef<int64_t> shape = reductions.empty()
                                ? shapeOf(outputs.front())
                                : shapeOf(reductions.front()->getOperand(0));
  // One loop over `shape` computes every value: each elementwise op must
  // have that shape, each reduction read it, each input broadcast to it.
  for (Operation *op : ops) {
    bool reduction = llvm::is_contained(reductions, op);
    ArrayRef<int64_t> computed =
        reduction ? shapeOf(op->getOperand(0)) : shapeOf(op->getResult(0));
    bool scalarConstant = isa<ConstantOp>(op) && computed.empty();
    if (computed != shape && !scalarConstant) {
      error = "'" + op->getName().getStringRef().str() +
              "' computes another shape than the group's";
      return failure();
    }
  }
  for (Value arg : inputs) {
    ArrayRef<int64_t> in = shapeOf(arg);
    std::optional<Shape> joined = broadcastShapes(
        std::span<const int64_t>(in), std::span<const int64_t>(shape));
    bool isRng = llvm::any_of(arg.getUsers(), [&](Operation *user) {
      auto dropout = dyn_cast<DropoutOp>(user);
      return dropout && dropout.getRng() == arg;
    });
    if (!isRng && (!joined || ArrayRef<int64_t>(*joined) != shape)) {
      error = "an input of shape " + formatShape(in) +
              " that does not broadcast to the group's " + formatShape(shape);
      return failure();
    }
  }
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;

  // The RNG state of the group's dropouts: one tensor<2xi64> input.
  std::optional<unsigned> rngArg;
  for (Operation *op : ops)
    if (auto dropout = dyn_cast<DropoutOp>(op)) {
      auto it = llvm::find(inputs, dropout.getRng());
      unsigned index = it - inputs.begin();
      if (it == inputs.end() || (rngArg && *rngArg != index)) {
        error = "dropouts with different RNG states";
        return failure();
      }
      rngArg = index;
    }

  // On CUDA a thread computes one element of the reductions' result: all
  // the elements reduced into it, in order (deterministic, no atomics);
  // sums over the leading dimensions split their rows (gpuColumns, below).
  ArrayRef<int64_t> axes;
  if (!reductions.empty())
    axes = reductions.front()
               ->getAttrOfType<DenseI64ArrayAttr>("axes")
               .asArrayRef();
  bool sameAxes = llvm::all_of(reductions, [&](Operation *r) {
    return r->getAttrOfType<DenseI64ArrayAttr>("axes").asArrayRef() == axes;
  });
  if (target == Target::Cuda && !sameAxes) {
    error = "no CUDA skeleton for reductions over different axes in one group";
    return failure();
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << (target == Target::Cuda ? "extern \"C\" __global__ void "
                                : "extern \"C\" void ")
     << name << "(void **buffers) {\n";
  ExpressionEmitter emitter;
  std::string loads;
  for (auto [k, arg] : llvm::enumerate(inputs)) {
    std::string type =
        cppType(cast<RankedTensorType>(arg.getType()).getElementType());
    if (type.empty()) {
      error = "an input whose element type has no C++ type here";
      return failure();
    }
    os << llvm::formatv(
        "  const {0} *in{1} = static_cast<const {0} *>(buffers[{1}]);\n", type,
        k);
    if (rngArg && k == *rngArg)
      continue;
    loads += llvm::formatv("    const {0} a{1} = in{1}[{2}];\n", type, k,
                           broadcastIndex(shapeOf(arg), shape))
                 .str();
    emitter.bind(arg, "a" + std::to_string(k));
  }
  for (auto [j, result] : llvm::enumerate(outputs))
    os << llvm::formatv(
        "  {0} *out{1} = static_cast<{0} *>(buffers[{2}]);\n",
        cppType(cast<RankedTensorType>(result.getType()).getElementType()), j,
        inputs.size() + j);
  if (rngArg)
    os << llvm::formatv("  const uint64_t seed = in{0}[0], step = in{0}[1];\n",
                        *rngArg);
  for (Operation *op : ops)
    if (auto dropout = dyn_cast<DropoutOp>(op))
      os << llvm::formatv("  TC_DROPOUT_MASK(mask{0}, {0}, {1:e17}, {2})\n",
                          int64_t(dropout.getKey()),
                          dropout.getRate().convertToDouble(), count);

  // Reductions accumulate in double, in element order (one thread: the
  // order of the interpreter); elementwise groups run on every thread.
  std::string finish;       // stores of the reductions, after the loop
  int64_t reducedCount = 1; // elements of the reductions' result
  if (!reductions.empty())
    reducedCount =
        cast<RankedTensorType>(reductions.front()->getResult(0).getType())
            .getNumElements();
  // On the host, sums over the leading dimensions (a bias gradient: one sum
  // per column) go by blocks of columns across threads, rows in order within
  // a block: each column still adds its rows in element order.
  bool leadingAxes =
      !reductions.empty() && !axes.empty() && axes.size() < shape.size() &&
      llvm::all_of(llvm::enumerate(axes),
                   [](auto a) { return a.value() == int64_t(a.index()); }) &&
      llvm::all_of(reductions, [&](Operation *r) {
        return r->getAttrOfType<DenseI64ArrayAttr>("axes").asArrayRef() == axes;
      });
  constexpr int64_t kColumnBlock = 64;
  bool columnBlocks =
      target == Target::Host && leadingAxes && reducedCount >= kColumnBlock;
  // On CUDA such sums go by tiles of columns across blocks, the rows split
  // among groups of a block's threads (the prelude's TC_COLUMN_BLOCKS): a
  // thread per column had a few thousand threads read a whole activation.
  bool gpuColumns = target == Target::Cuda && leadingAxes &&
                    llvm::none_of(reductions, [](Operation *r) {
                      return isa<ReduceMaxOp>(r);
                    });
  // The host does the same, a result element per iteration across threads,
  // for other reductions into several elements (a row's maximum and sum in
  // a log-softmax): each still reduces its elements in element order.
  bool perResult = !reductions.empty() && !gpuColumns &&
                   (target == Target::Cuda ||
                    (sameAxes && !columnBlocks && reducedCount > 1));
  for (auto [j, value] : llvm::enumerate(outputs)) {
    Operation *def = value.getDefiningOp();
    if (def && llvm::is_contained(reductions, def) && !perResult &&
        !columnBlocks && !gpuColumns)
      os << llvm::formatv("  std::vector<double> acc{0}({1}, {2});\n", j,
                          reducedCount,
                          isa<ReduceMaxOp>(def) ? "-INFINITY" : "0.0");
  }
  if (columnBlocks) {
    os << llvm::formatv("#pragma omp parallel for\n"
                        "  for (int64_t b = 0; b < {0}; ++b) {{\n"
                        "  const int64_t k0 = b * {1}, k1 = "
                        "std::min<int64_t>({2}, k0 + {1});\n",
                        (reducedCount + kColumnBlock - 1) / kColumnBlock,
                        kColumnBlock, reducedCount);
    for (auto [j, value] : llvm::enumerate(outputs))
      if (Operation *def = value.getDefiningOp();
          def && llvm::is_contained(reductions, def))
        os << llvm::formatv("  double acc{0}[{1}];\n"
                            "  for (int64_t k = 0; k < {1}; ++k)\n"
                            "    acc{0}[k] = {2};\n",
                            j, kColumnBlock,
                            isa<ReduceMaxOp>(def) ? "-INFINITY" : "0.0");
    os << "  for (int64_t row = 0; row < " << count / reducedCount
       << "; ++row)\n"
       << "  for (int64_t k = k0; k < k1; ++k) {\n"
       << "    const int64_t i = row * " << reducedCount << " + k;\n";
  } else if (gpuColumns) {
    os << "  for (int64_t tile = blockIdx.x; tile * tc::kColumnLanes < "
       << reducedCount << "; tile += gridDim.x) {\n"
       << "  const int64_t k = tile * tc::kColumnLanes + threadIdx.x % "
          "tc::kColumnLanes;\n";
    for (auto [j, value] : llvm::enumerate(outputs))
      if (Operation *def = value.getDefiningOp();
          def && llvm::is_contained(reductions, def))
        os << llvm::formatv("  double acc{0} = 0.0;\n", j);
    os << "  if (k < " << reducedCount << ")\n"
       << "  for (int64_t row = threadIdx.x / tc::kColumnLanes; row < "
       << count / reducedCount << "; row += blockDim.x / tc::kColumnLanes) {\n"
       << "    const int64_t i = row * " << reducedCount << " + k;\n";
  } else if (perResult) {
    os << "  TC_FOR(r, " << reducedCount << ") {\n";
    for (auto [j, value] : llvm::enumerate(outputs))
      if (Operation *def = value.getDefiningOp();
          def && llvm::is_contained(reductions, def))
        os << llvm::formatv("  double acc{0} = {1};\n", j,
                            isa<ReduceMaxOp>(def) ? "-INFINITY" : "0.0");
    os << "  for (int64_t j = 0; j < " << count / reducedCount << "; ++j) {\n"
       << "    const int64_t i = " << elementOf(shape, axes) << ";\n";
  } else if (target == Target::Cuda) {
    os << "  TC_FOR(i, " << count << ") {\n";
  } else {
    os << (reductions.empty() ? "#pragma omp parallel for\n" : "")
       << "  for (int64_t i = 0; i < " << count << "; ++i) {\n";
  }
  os << loads;
  if (failed(emitter.emitOps(ops, "i", os, error)))
    return failure();
  for (auto [j, value] : llvm::enumerate(outputs)) {
    Operation *def = value.getDefiningOp();
    if (def && llvm::is_contained(reductions, def)) {
      auto axes = def->getAttrOfType<DenseI64ArrayAttr>("axes").asArrayRef();
      std::string at = perResult || gpuColumns ? "acc" + std::to_string(j)
                       : columnBlocks ? llvm::formatv("acc{0}[k - k0]", j).str()
                                      : llvm::formatv("acc{0}[{1}]", j,
                                                      reducedIndex(shape, axes))
                                            .str();
      std::string input = emitter.nameOf(def->getOperand(0));
      if (isa<ReduceMaxOp>(def))
        os << llvm::formatv("    {0} = tc::maximum<double>({0}, {1});\n", at,
                            input);
      else
        os << llvm::formatv("    {0} += {1};\n", at, input);
      int64_t size = cast<RankedTensorType>(value.getType()).getNumElements();
      double scale =
          isa<ReduceMeanOp>(def) ? double(size) / double(count) : 1.0;
      finish +=
          perResult
              ? llvm::formatv("    out{0}[r] = acc{0} * {1:e17};\n", j, scale)
                    .str()
          : gpuColumns
              ? llvm::formatv(
                    "  acc{0} = tc::columnTotal(acc{0});\n"
                    "  if (threadIdx.x < tc::kColumnLanes && k < {2})\n"
                    "    out{0}[k] = acc{0} * {1:e17};\n",
                    j, scale, reducedCount)
                    .str()
          : columnBlocks
              ? llvm::formatv("  for (int64_t k = k0; k < k1; ++k)\n"
                              "    out{0}[k] = acc{0}[k - k0] * {1:e17};\n",
                              j, scale)
                    .str()
              : llvm::formatv("  for (int64_t r = 0; r < {0}; ++r)\n"
                              "    out{1}[r] = acc{1}[r] * {2:e17};\n",
                              size, j, scale)
                    .str();
    } else {
      os << llvm::formatv("    out{0}[i] = {1};\n", j, emitter.nameOf(value));
    }
  }
  os << "  }\n"
     << finish << (perResult || columnBlocks || gpuColumns ? "  }\n" : "")
     << "}\n";
  return text;
}

FailureOr<std::string> emitFusedKernel(FusedOp fused, StringRef name,
                                       Target target, std::string &error) {
  Block &body = fused.getBody().front();
  SmallVector<Value> inputs(body.getArguments());
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  SmallVector<Value> outputs(body.getTerminator()->getOperands());
  return emitLoop(inputs, ops, outputs, name, target, error);
}

FailureOr<std::string> emitElementwiseKernel(Operation *op, StringRef name,
                                             Target target,
                                             std::string &error) {
  SmallVector<Value> inputs(op->getOperands());
  SmallVector<Value> outputs(op->getResults());
  return emitLoop(inputs, {op}, outputs, name, target, error);
}

} // namespace tc::codegen
