//===- LoopKernel.cpp - elementwise groups as one loop over their shape ----===//

#include "compiler/codegen/LoopKernel.h"
#include "compiler/codegen/ElementTypes.h"
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

namespace {

/// How the loop goes over the group's elements.
enum class Skeleton {
  /// Each element in turn: across threads (an OpenMP loop, or CUDA's
  /// TC_FOR) unless the host accumulates reductions, in element order.
  Elements,
  /// The host's sums over the leading dimensions (a bias gradient: one sum
  /// per column): blocks of columns across threads, rows in order within a
  /// block, so each column still adds its rows in element order.
  ColumnBlocks,
  /// CUDA's: tiles of columns across blocks, the rows split among groups of
  /// a block's threads (the prelude's TC_COLUMN_BLOCKS); a thread per column
  /// had a few thousand threads read a whole activation. Few tiles (a bias
  /// gradient of 512 columns: 16) split the rows into `rowParts` parts too,
  /// a block each, whose sums the last block of each tile to finish adds
  /// (the prelude's tc::columnTotals, as the row kernels' column sums): 64
  /// blocks took 60 us over 4096 x 512 on an H100, 20x their bytes, and the
  /// grid's last block adding every column's 64 parts in turn, 4.3x.
  GpuColumns,
  /// A result element of the reductions per iteration, across threads, all
  /// the elements reduced into it in order (deterministic, no atomics).
  PerResult,
  /// CUDA's reductions of contiguous rows, or into few results: a block per
  /// result element (grid-stride), its threads over the elements reduced
  /// into it, then a block reduction in a fixed order (deterministic). A
  /// thread per result ran a gradient norm's sum over a million elements on
  /// one thread: 32 ms of a 122 ms step. A long row is split into `rowParts`
  /// parts, a block each, whose totals the last block to finish combines in
  /// part order (one block over a million elements took 1.6 ms).
  GpuRows,
};

constexpr int64_t kColumnBlock = 64;
/// GpuRows for rows at least a warp long, when the rows are contiguous (the
/// last dimension is reduced) or the results too few to fill a GPU with a
/// thread each.
constexpr int64_t kGpuRowMinLength = 32;
constexpr int64_t kGpuFewResults = 4096;
/// A GpuRows row is split into parts of at least this many elements (16 a
/// thread of a 256-thread block), into at most kGpuRowsBlocks blocks in all.
constexpr int64_t kGpuRowPart = 4096;
constexpr int64_t kGpuRowsBlocks = 1024;
/// A GpuColumns part holds about this many rows (32 for each of a
/// 256-thread block's 8 groups of tc::kColumnLanes; the rows over it,
/// rounded up, are the parts), and the parts of all
/// tiles make at most kGpuRowsBlocks blocks.
constexpr int64_t kGpuColumnPartRows = 256;
/// The CUDA prelude's tc::kColumnLanes, for choosing the parts only (the
/// kernels count tiles with the prelude's).
constexpr int64_t kGpuColumnLanes = 32;

/// What one loop computes: the group's values, the shape it iterates over
/// and how its reductions go.
struct Group {
  ArrayRef<Value> inputs;
  ArrayRef<Operation *> ops;
  ArrayRef<Value> outputs;
  SmallVector<Operation *> reductions;
  ArrayRef<int64_t> shape; // every elementwise value's, each reduction's input
  int64_t count = 1;       // elements of `shape`
  std::optional<unsigned> rngArg; // the dropouts' tensor<2xi64> RNG state
  ArrayRef<int64_t> axes;         // the first reduction's
  bool sameAxes = true;           // every reduction's are `axes`
  int64_t reducedCount = 1;       // elements of the reductions' result
  Skeleton skeleton = Skeleton::Elements;
  /// GpuRows: the blocks a row is split among; GpuColumns: the blocks a
  /// tile's rows are split among.
  int64_t rowParts = 1;
  /// The host's Elements loop as rows of the shape's last dimension, an
  /// outer loop across threads and an inner one over a row (chooseRows).
  bool inRows = false;

  /// The reduction computing `output`, or null.
  Operation *reductionOf(Value output) const {
    Operation *def = output.getDefiningOp();
    return def && llvm::is_contained(reductions, def) ? def : nullptr;
  }
};

/// The shape the group iterates over (tc-fuse-elementwise makes its values
/// one shape), checking that one loop over it computes every value: each
/// elementwise op has that shape, each reduction reads it, each input
/// broadcasts to it.
LogicalResult findShape(Group &group, std::string &error) {
  for (Operation *op : group.ops)
    if (op->hasTrait<tc::OpTrait::Reduction>())
      group.reductions.push_back(op);
  group.shape = group.reductions.empty()
                    ? shapeOf(group.outputs.front())
                    : shapeOf(group.reductions.front()->getOperand(0));
  for (Operation *op : group.ops) {
    bool reduction = llvm::is_contained(group.reductions, op);
    ArrayRef<int64_t> computed =
        reduction ? shapeOf(op->getOperand(0)) : shapeOf(op->getResult(0));
    bool scalarConstant = isa<ConstantOp>(op) && computed.empty();
    if (computed != group.shape && !scalarConstant) {
      error = "'" + op->getName().getStringRef().str() +
              "' computes another shape than the group's";
      return failure();
    }
  }
  for (Value arg : group.inputs) {
    ArrayRef<int64_t> in = shapeOf(arg);
    std::optional<Shape> joined = broadcastShapes(
        std::span<const int64_t>(in), std::span<const int64_t>(group.shape));
    bool isRng = llvm::any_of(arg.getUsers(), [&](Operation *user) {
      auto dropout = dyn_cast<DropoutOp>(user);
      return dropout && dropout.getRng() == arg;
    });
    if (!isRng && (!joined || ArrayRef<int64_t>(*joined) != group.shape)) {
      error = "an input of shape " + formatShape(in) +
              " that does not broadcast to the group's " +
              formatShape(group.shape);
      return failure();
    }
  }
  for (int64_t d : group.shape)
    group.count *= d;
  return success();
}

/// The input holding the RNG state of the group's dropouts (one for all).
LogicalResult findRngState(Group &group, std::string &error) {
  for (Operation *op : group.ops)
    if (auto dropout = dyn_cast<DropoutOp>(op)) {
      auto it = llvm::find(group.inputs, dropout.getRng());
      unsigned index = it - group.inputs.begin();
      if (it == group.inputs.end() ||
          (group.rngArg && *group.rngArg != index)) {
        error = "dropouts with different RNG states";
        return failure();
      }
      group.rngArg = index;
    }
  return success();
}

/// How the reductions of the group go on `target`.
LogicalResult chooseSkeleton(Group &group, Target target, std::string &error) {
  if (group.reductions.empty())
    return success();
  auto axesOf = [](Operation *r) {
    return r->getAttrOfType<DenseI64ArrayAttr>("axes").asArrayRef();
  };
  group.axes = axesOf(group.reductions.front());
  group.sameAxes = llvm::all_of(
      group.reductions, [&](Operation *r) { return axesOf(r) == group.axes; });
  if (target == Target::Cuda && !group.sameAxes) {
    error = "no CUDA skeleton for reductions over different axes in one group";
    return failure();
  }
  group.reducedCount =
      cast<RankedTensorType>(group.reductions.front()->getResult(0).getType())
          .getNumElements();
  bool leadingAxes =
      !group.axes.empty() && group.axes.size() < group.shape.size() &&
      llvm::all_of(llvm::enumerate(group.axes),
                   [](auto a) { return a.value() == int64_t(a.index()); }) &&
      group.sameAxes;
  bool maxima = llvm::any_of(group.reductions,
                             [](Operation *r) { return isa<ReduceMaxOp>(r); });
  if (target == Target::Host && leadingAxes &&
      group.reducedCount >= kColumnBlock)
    group.skeleton = Skeleton::ColumnBlocks;
  else if (target == Target::Cuda && leadingAxes && !maxima) {
    group.skeleton = Skeleton::GpuColumns;
    int64_t rows = group.count / group.reducedCount;
    int64_t tiles = (group.reducedCount + kGpuColumnLanes - 1) / kGpuColumnLanes;
    group.rowParts = std::max<int64_t>(
        1, std::min((rows + kGpuColumnPartRows - 1) / kGpuColumnPartRows,
                    kGpuRowsBlocks / tiles));
  }
  else if (target == Target::Cuda &&
           group.count / group.reducedCount >= kGpuRowMinLength &&
           (llvm::is_contained(group.axes, int64_t(group.shape.size()) - 1) ||
            group.reducedCount <= kGpuFewResults)) {
    group.skeleton = Skeleton::GpuRows;
    int64_t row = group.count / group.reducedCount;
    group.rowParts = std::max<int64_t>(
        1, std::min((row + kGpuRowPart - 1) / kGpuRowPart,
                    kGpuRowsBlocks / group.reducedCount));
  }
  // The host reduces into several elements a result element per iteration
  // too (a row's maximum and sum in a log-softmax).
  else if (target == Target::Cuda || (group.sameAxes && group.reducedCount > 1))
    group.skeleton = Skeleton::PerResult;
  return success();
}

/// The shortest row worth a loop of its own, and the fewest rows: only the
/// rows go across threads (a [1, V] group would run on one).
constexpr int64_t kShortestRow = 16;
constexpr int64_t kFewestRows = 8;

/// Whether the host loops over the group's elements in rows: where an
/// input is broadcast, its index in one flat loop divides the element index
/// by the extents (`i / 1 % 4000` for a bias of a [64, 4000] sum), which
/// keeps the loop from vectorising (a decoder step's [64, 4000] mask add
/// took 68 us on two Zen 5 threads; in rows, 9 us).
void chooseRows(Group &group, Target target) {
  if (target != Target::Host || group.skeleton != Skeleton::Elements ||
      !group.reductions.empty() || group.shape.size() < 2 ||
      group.shape.back() < kShortestRow ||
      group.count / group.shape.back() < kFewestRows)
    return;
  for (auto [k, arg] : llvm::enumerate(group.inputs)) {
    std::string index = broadcastIndex(shapeOf(arg), group.shape);
    if (!(group.rngArg && k == *group.rngArg) && index != "i" && index != "0")
      group.inRows = true;
  }
}

/// Reduction `def`'s step adding `value` into accumulator `at` (of type
/// `acc`), a statement.
std::string accumulate(Operation *def, StringRef at, StringRef value,
                       StringRef acc) {
  return isa<ReduceMaxOp>(def)
             ? llvm::formatv("{0} = tc::maximum<{2}>({0}, {1});", at, value,
                             acc)
                   .str()
             : llvm::formatv("{0} += {1};", at, value).str();
}

/// Accumulator element `acc{j}{at}`, scaled, as an element of `value`.
std::string scaledResult(const TargetBackend &backend, Value value, size_t j,
                         StringRef at, double scale) {
  return backend.stored(
      value, llvm::formatv("acc{0}{1} * {2:e17}", j, at, scale).str());
}

/// The initial value of the accumulator of `reduction`.
const char *accumulatorStart(Operation *reduction) {
  return isa<ReduceMaxOp>(reduction) ? "-INFINITY" : "0.0";
}

/// The buffer pointers, the dropout masks and the RNG seed; the loads of
/// the inputs (into locals of their compute type, which bind them in
/// `emitter`) go to `loads`.
LogicalResult declareBuffers(const Group &group, const TargetBackend &backend,
                             ExpressionEmitter &emitter, llvm::raw_ostream &os,
                             std::string &loads, std::string &error) {
  for (auto [k, arg] : llvm::enumerate(group.inputs)) {
    std::optional<std::string> type = backend.spell(arg);
    if (!type) {
      error = "an input whose element type has no C++ type here";
      return failure();
    }
    os << inputDeclaration(*type, k);
    if (group.rngArg && k == *group.rngArg)
      continue;
    loads += llvm::formatv("    const {0} a{1} = in{1}[{2}];\n",
                           *backend.spellCompute(arg), k,
                           broadcastIndex(shapeOf(arg), group.shape,
                                          group.inRows))
                 .str();
    emitter.bind(arg, "a" + std::to_string(k));
  }
  for (auto [j, result] : llvm::enumerate(group.outputs)) {
    std::optional<std::string> type = backend.spell(result);
    if (!type) {
      error = "a result whose element type has no C++ type here";
      return failure();
    }
    os << outputDeclaration(*type, j, group.inputs.size() + j);
  }
  if (group.rngArg)
    os << llvm::formatv("  const uint64_t seed = in{0}[0], step = in{0}[1];\n",
                        *group.rngArg);
  for (Operation *op : group.ops)
    if (auto dropout = dyn_cast<DropoutOp>(op))
      os << llvm::formatv("  TC_DROPOUT_MASK(mask{0}, {0}, {1:e17}, {2})\n",
                          int64_t(dropout.getKey()),
                          dropout.getRate().convertToDouble(), group.count);
  return success();
}

/// The reductions of the group.
int64_t reductionCount(const Group &group) {
  return llvm::count_if(group.outputs,
                        [&](Value v) { return group.reductionOf(v); });
}

/// A split reduction's (rowParts > 1) sums of each part: GpuRows', part by
/// part for each result element, and the count of blocks done
/// (combineParts); GpuColumns', tc::columnTotals's scratch and a count per
/// tile.
void declareParts(const Group &group, StringRef acc, llvm::raw_ostream &os) {
  if (group.rowParts == 1)
    return;
  if (group.skeleton == Skeleton::GpuColumns) {
    os << llvm::formatv(
        "  static double tc_column_scratch[{0}];\n"
        "  static unsigned tc_column_arrived[({1} + tc::kColumnLanes - 1) / "
        "tc::kColumnLanes];\n",
        reductionCount(group) * group.rowParts * group.reducedCount,
        group.reducedCount);
    return;
  }
  for (auto [j, value] : llvm::enumerate(group.outputs))
    if (group.reductionOf(value))
      os << llvm::formatv("  static {1} part{0}[{2}];\n", j, acc,
                          group.reducedCount * group.rowParts);
  os << "  static unsigned arrived;\n";
}

/// The head of the loop, with the accumulators of the reductions (`acc`
/// spells their type), up to its element index `i`.
void openLoop(const Group &group, Target target, StringRef acc,
              llvm::raw_ostream &os) {
  auto forEachReduction = [&](auto declare) {
    for (auto [j, value] : llvm::enumerate(group.outputs))
      if (Operation *def = group.reductionOf(value))
        declare(j, def);
  };
  int64_t count = group.count, reduced = group.reducedCount;
  switch (group.skeleton) {
  case Skeleton::ColumnBlocks:
    os << llvm::formatv("#pragma omp parallel for\n"
                        "  for (int64_t b = 0; b < {0}; ++b) {{\n"
                        "  const int64_t k0 = b * {1}, k1 = "
                        "std::min<int64_t>({2}, k0 + {1});\n",
                        (reduced + kColumnBlock - 1) / kColumnBlock,
                        kColumnBlock, reduced);
    forEachReduction([&](size_t j, Operation *def) {
      os << llvm::formatv("  {3} acc{0}[{1}];\n"
                          "  for (int64_t k = 0; k < {1}; ++k)\n"
                          "    acc{0}[k] = {2};\n",
                          j, kColumnBlock, accumulatorStart(def), acc);
    });
    os << "  for (int64_t row = 0; row < " << count / reduced << "; ++row)\n"
       << "  for (int64_t k = k0; k < k1; ++k) {\n"
       << "    const int64_t i = row * " << reduced << " + k;\n";
    return;
  case Skeleton::GpuColumns: {
    // Block `t` sums part t % parts of the rows (every parts-th group of
    // them) of tile t / parts.
    int64_t parts = group.rowParts;
    declareParts(group, acc, os);
    os << "  for (int64_t t = blockIdx.x; t < (" << reduced
       << " + tc::kColumnLanes - 1) / tc::kColumnLanes * " << parts
       << "; t += gridDim.x) {\n"
       << "  const int64_t tile = t / " << parts << ", part = t % " << parts
       << ";\n"
       << "  const int64_t k = tile * tc::kColumnLanes + threadIdx.x % "
          "tc::kColumnLanes;\n";
    forEachReduction([&](size_t j, Operation *) {
      os << llvm::formatv("  {1} acc{0}[1] = {{0.0};\n", j, acc);
    });
    os << "  if (k < " << reduced << ")\n"
       << "  for (int64_t row = part * (blockDim.x / tc::kColumnLanes) + "
          "threadIdx.x / tc::kColumnLanes; row < "
       << count / reduced << "; row += " << parts
       << " * (blockDim.x / tc::kColumnLanes)) {\n"
       << "    const int64_t i = row * " << reduced << " + k;\n";
    return;
  }
  case Skeleton::GpuRows: {
    // Block `t` reduces part t % parts of row t / parts.
    int64_t parts = group.rowParts;
    declareParts(group, acc, os);
    os << "  for (int64_t t = blockIdx.x; t < " << reduced * parts
       << "; t += gridDim.x) {\n"
       << "  const int64_t r = t / " << parts << ", part = t % " << parts
       << ";\n";
    forEachReduction([&](size_t j, Operation *def) {
      os << llvm::formatv("  {2} acc{0} = {1};\n", j, accumulatorStart(def),
                          acc);
    });
    os << "  for (int64_t j = part * blockDim.x + threadIdx.x; j < "
       << count / reduced << "; j += " << parts << " * blockDim.x) {\n"
       << "    const int64_t i = " << elementOf(group.shape, group.axes)
       << ";\n";
    return;
  }
  case Skeleton::PerResult:
    os << "  TC_FOR(r, " << reduced << ") {\n";
    forEachReduction([&](size_t j, Operation *def) {
      os << llvm::formatv("  {2} acc{0} = {1};\n", j, accumulatorStart(def),
                          acc);
    });
    os << "  for (int64_t j = 0; j < " << count / reduced << "; ++j) {\n"
       << "    const int64_t i = " << elementOf(group.shape, group.axes)
       << ";\n";
    return;
  case Skeleton::Elements:
    // The host's reductions accumulate into one array each, in element
    // order (one thread: the order of the interpreter).
    forEachReduction([&](size_t j, Operation *def) {
      os << llvm::formatv("  std::vector<{3}> acc{0}({1}, {2});\n", j, reduced,
                          accumulatorStart(def), acc);
    });
    if (target == Target::Cuda)
      os << "  TC_FOR(i, " << count << ") {\n";
    else if (group.inRows)
      os << "#pragma omp parallel for\n"
         << "  for (int64_t o = 0; o < " << count / group.shape.back()
         << "; ++o)\n"
         << "  for (int64_t k = 0; k < " << group.shape.back() << "; ++k) {\n"
         << "    const int64_t i = o * " << group.shape.back() << " + k;\n";
    else
      os << (group.reductions.empty() ? "#pragma omp parallel for\n" : "")
         << "  for (int64_t i = 0; i < " << count << "; ++i) {\n";
    return;
  }
}

/// Where reduction `def` into output `j` accumulates element `i`.
std::string accumulator(const Group &group, size_t j, Operation *def) {
  switch (group.skeleton) {
  case Skeleton::PerResult:
  case Skeleton::GpuRows:
    return "acc" + std::to_string(j);
  case Skeleton::GpuColumns:
    return llvm::formatv("acc{0}[0]", j).str();
  case Skeleton::ColumnBlocks:
    return llvm::formatv("acc{0}[k - k0]", j).str();
  case Skeleton::Elements:
    break;
  }
  auto axes = def->getAttrOfType<DenseI64ArrayAttr>("axes").asArrayRef();
  return llvm::formatv("acc{0}[{1}]", j, reducedIndex(group.shape, axes)).str();
}

/// The stores of reduction `def` into output `j` (`value`, `size`
/// elements), after the loop over the elements reduced into them.
std::string storeReduction(const Group &group, const TargetBackend &backend,
                           size_t j, Operation *def, Value value, int64_t size,
                           double scale) {
  auto result = [&](StringRef at) {
    return scaledResult(backend, value, j, at, scale);
  };
  switch (group.skeleton) {
  case Skeleton::PerResult:
    return llvm::formatv("    out{0}[r] = {1};\n", j, result("")).str();
  case Skeleton::GpuRows:
    return llvm::formatv("  acc{0} = tc::block{1}(acc{0});\n"
                         "  if (threadIdx.x == 0)\n"
                         "    {2} = {3};\n",
                         j, isa<ReduceMaxOp>(def) ? "Maximum" : "Sum",
                         group.rowParts > 1 ? "part" + std::to_string(j) + "[t]"
                                            : "out" + std::to_string(j) + "[r]",
                         group.rowParts > 1 ? "acc" + std::to_string(j)
                                            : result(""))
        .str();
  case Skeleton::GpuColumns: // after columnTotals (columnTotalsCall)
    return llvm::formatv("  if (tc_column_store)\n"
                         "    out{0}[k] = {1};\n",
                         j, result("[0]"))
        .str();
  case Skeleton::ColumnBlocks:
    return llvm::formatv("  for (int64_t k = k0; k < k1; ++k)\n"
                         "    out{0}[k] = {1};\n",
                         j, result("[k - k0]"))
        .str();
  case Skeleton::Elements:
    break;
  }
  return llvm::formatv("  for (int64_t r = 0; r < {0}; ++r)\n"
                       "    out{1}[r] = {2};\n",
                       size, j, result("[r]"))
      .str();
}

/// The totals of a GpuColumns group's sums, before their stores: whether
/// this thread stores them (tc_column_store).
std::string columnTotalsCall(const Group &group) {
  std::string sums;
  for (auto [j, value] : llvm::enumerate(group.outputs))
    if (group.reductionOf(value))
      sums += ", acc" + std::to_string(j);
  bool split = group.rowParts > 1;
  return llvm::formatv(
             "  const bool tc_column_store = tc::columnTotals<{0}>(tile, part, "
             "{1}, k, {2}, {3}, {4}{5});\n",
             reductionCount(group), group.rowParts, group.reducedCount,
             split ? "tc_column_scratch" : "nullptr",
             split ? "tc_column_arrived" : "nullptr", sums)
      .str();
}

/// A split GpuRows reduction's stores, after every block's loop: the last
/// block to finish combines each result's parts in order.
std::string combineParts(const Group &group, const TargetBackend &backend,
                         size_t j, Operation *def, Value value, double scale,
                         StringRef acc) {
  return llvm::formatv(
             "  for (int64_t r = threadIdx.x; r < {0}; r += blockDim.x) {{\n"
             "    {1} acc{2} = {3};\n"
             "    for (int64_t part = 0; part < {4}; ++part) {{\n"
             "      const {1} v = *static_cast<volatile {1} *>(&part{2}[r * "
             "{4} + part]);\n"
             "      {5}\n"
             "    }\n"
             "    out{2}[r] = {6};\n"
             "  }\n",
             group.reducedCount, acc, j, accumulatorStart(def), group.rowParts,
             accumulate(def, "acc" + std::to_string(j), "v", acc),
             scaledResult(backend, value, j, "", scale))
      .str();
}

/// Each output's step for element `i`: a store, or a reduction's
/// accumulation (whose stores go to `finish`, at the end of the loop over
/// the elements reduced into them, and `after`, after the whole loop).
void writeOutputs(const Group &group, const TargetBackend &backend,
                  const ExpressionEmitter &emitter, StringRef acc,
                  llvm::raw_ostream &os, std::string &finish,
                  std::string &after) {
  if (group.skeleton == Skeleton::GpuColumns)
    finish += columnTotalsCall(group);
  for (auto [j, value] : llvm::enumerate(group.outputs)) {
    Operation *def = group.reductionOf(value);
    if (!def) {
      os << llvm::formatv("    out{0}[i] = {1};\n", j,
                          emitter.storedValueOf(value));
      continue;
    }
    std::string at = accumulator(group, j, def);
    std::string input = emitter.nameOf(def->getOperand(0));
    os << "    " << accumulate(def, at, input, acc) << "\n";
    int64_t size = cast<RankedTensorType>(value.getType()).getNumElements();
    double scale =
        isa<ReduceMeanOp>(def) ? double(size) / double(group.count) : 1.0;
    finish += storeReduction(group, backend, j, def, value, size, scale);
    if (group.skeleton == Skeleton::GpuRows && group.rowParts > 1)
      after += combineParts(group, backend, j, def, value, scale, acc);
  }
}

} // namespace

/// One loop computing `outputs` from `inputs` (the kernel's buffers, in
/// that order) through `ops`: elementwise ops, and reductions as last steps.
FailureOr<std::string> emitLoop(ArrayRef<Value> inputs,
                                ArrayRef<Operation *> ops,
                                ArrayRef<Value> outputs, StringRef name,
                                const TargetBackend &backend,
                                std::string &error) {
  if (outputs.empty()) {
    error = "the group has no results";
    return failure();
  }
  Group group{inputs, ops, outputs};
  if (failed(findShape(group, error)) || failed(findRngState(group, error)) ||
      failed(chooseSkeleton(group, backend.target(), error)))
    return failure();
  chooseRows(group, backend.target());
  std::string body, loads, finish, after;
  llvm::raw_string_ostream os(body);
  ExpressionEmitter emitter(backend);
  if (failed(declareBuffers(group, backend, emitter, os, loads, error)))
    return failure();
  std::string acc = *backend.spell(kAccumulatorType);
  openLoop(group, backend.target(), acc, os);
  os << loads;
  if (failed(emitter.emitOps(ops, "i", os, error)))
    return failure();
  writeOutputs(group, backend, emitter, acc, os, finish, after);
  os << "  }\n"
     << finish << (group.skeleton == Skeleton::Elements ? "" : "  }\n");
  if (!after.empty())
    os << "  if (tc::lastBlockToArrive(&arrived))\n  {\n" << after << "  }\n";
  return backend.kernel(name, body);
}

FailureOr<std::string> emitFusedKernel(FusedOp fused, StringRef name,
                                       const TargetBackend &backend,
                                       std::string &error) {
  Block &body = fused.getBody().front();
  SmallVector<Value> inputs(body.getArguments());
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  SmallVector<Value> outputs(body.getTerminator()->getOperands());
  return emitLoop(inputs, ops, outputs, name, backend, error);
}

FailureOr<std::string> emitElementwiseKernel(Operation *op, StringRef name,
                                             const TargetBackend &backend,
                                             std::string &error) {
  SmallVector<Value> inputs(op->getOperands());
  SmallVector<Value> outputs(op->getResults());
  return emitLoop(inputs, {op}, outputs, name, backend, error);
}

} // namespace tc::codegen
