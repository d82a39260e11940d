//===- BufferAssignment.cpp - which bytes hold each tensor of a function ---===//

#include "compiler/analysis/BufferAssignment.h"
#include "dialects/tc/TcDialect.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace tc {
namespace {

std::vector<int64_t> shapeOf(Value v) {
  ArrayRef<int64_t> shape = cast<RankedTensorType>(v.getType()).getShape();
  return {shape.begin(), shape.end()};
}

bool isViewOp(Operation *op) { return op->hasTrait<tc::OpTrait::View>(); }

/// Same elements at the same places (strides of extent-1 dimensions and
/// the offsets of empty tensors do not matter).
bool sameLayout(const StridedLayout &a, const StridedLayout &b) {
  if (a.shape != b.shape)
    return false;
  if (a.numElements() == 0)
    return true;
  if (a.offset != b.offset)
    return false;
  for (size_t d = 0; d < a.shape.size(); ++d)
    if (a.shape[d] != 1 && a.strides[d] != b.strides[d])
      return false;
  return true;
}

/// The layout of the input of a transpose or reshape whose result has
/// `result`: the inverse of the view; none when the input is not strided.
std::optional<StridedLayout> inverseViewLayout(Operation *view,
                                               const StridedLayout &result) {
  if (auto transpose = dyn_cast<TransposeOp>(view)) {
    ArrayRef<int64_t> permutation = transpose.getPermutation();
    return inverseTransposeLayout(result,
                                  {permutation.begin(), permutation.end()});
  }
  if (auto reshape = dyn_cast<ReshapeOp>(view))
    return reshapeLayout(result, shapeOf(reshape.getInput()));
  return std::nullopt;
}

} // namespace

BufferAssignment::BufferAssignment(func::FuncOp function) : function(function) {
  if (function.isExternal())
    return;
  assignArguments();
  for (Operation &op : function.getBody().front())
    assignForward(op);
  // From the last op up, so that a chain of folds (concat <- reshape <-
  // GEMM) is seen from its outermost consumer.
  for (Operation &op :
       llvm::make_early_inc_range(llvm::reverse(function.getBody().front())))
    if (steps.lookup(&op) == StepKind::Kernel &&
        isa<TransposeOp, ReshapeOp, ConcatOp>(op))
      foldIntoConsumer(&op);
}

StepKind BufferAssignment::stepOf(Operation *op) const {
  return steps.lookup(op);
}

const Placement &BufferAssignment::placementOf(Value value) const {
  auto it = placements.find(value);
  assert(it != placements.end() && "a value of another function");
  return it->second;
}

ArgumentBuffer BufferAssignment::bufferOf(BlockArgument argument) const {
  return argumentBuffers.lookup(argument);
}

void BufferAssignment::own(Value value) {
  placements[value] = {value, StridedLayout::contiguous(shapeOf(value))};
}

void BufferAssignment::assignArguments() {
  for (BlockArgument arg : function.getArguments()) {
    auto name = function.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                      kParamAttrName);
    if (!name)
      continue;
    if (!paramsRoot)
      paramsRoot = arg;
    paramOffsets[name.getValue()] = paramElements;
    placements[arg] = {paramsRoot,
                       StridedLayout::contiguous(shapeOf(arg), paramElements)};
    argumentBuffers[arg] = ArgumentBuffer::Params;
    paramElements += cast<RankedTensorType>(arg.getType()).getNumElements();
  }
  for (BlockArgument arg : function.getArguments()) {
    if (placements.count(arg))
      continue;
    auto name = function.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                      kInputAttrName);
    StringRef input = name ? name.getValue() : "";
    for (auto [prefix, root, kind] :
         {std::tuple(kFirstMomentPrefix, &firstMomentsRoot,
                     ArgumentBuffer::FirstMoments),
          std::tuple(kSecondMomentPrefix, &secondMomentsRoot,
                     ArgumentBuffer::SecondMoments),
          std::tuple(kParamCopyPrefix, &paramCopiesRoot,
                     ArgumentBuffer::ParamCopies)}) {
      if (!input.starts_with(prefix))
        continue;
      auto offset = paramOffsets.find(input.drop_front(prefix.size()));
      if (offset == paramOffsets.end())
        continue;
      if (!*root)
        *root = arg;
      placements[arg] = {
          *root, StridedLayout::contiguous(shapeOf(arg), offset->second)};
      argumentBuffers[arg] = kind;
    }
    if (!placements.count(arg)) {
      own(arg);
      argumentBuffers[arg] = ArgumentBuffer::Input;
    }
  }
}

std::optional<std::vector<StridedLayout>>
BufferAssignment::viewLayouts(Operation *op, const StridedLayout &input) const {
  return TypeSwitch<Operation *, std::optional<std::vector<StridedLayout>>>(op)
      .Case<ReshapeOp>(
          [&](ReshapeOp reshape) -> std::optional<std::vector<StridedLayout>> {
            if (auto layout =
                    reshapeLayout(input, shapeOf(reshape.getResult())))
              return std::vector{*layout};
            return std::nullopt;
          })
      .Case<TransposeOp>([&](TransposeOp transpose) {
        ArrayRef<int64_t> permutation = transpose.getPermutation();
        return std::vector{
            transposeLayout(input, {permutation.begin(), permutation.end()})};
      })
      .Case<SliceOp>([&](SliceOp slice) {
        ArrayRef<int64_t> offsets = slice.getOffsets();
        return std::vector{sliceLayout(input, {offsets.begin(), offsets.end()},
                                       shapeOf(slice.getResult()))};
      })
      .Case<SplitOp>([&](SplitOp split) {
        std::vector<StridedLayout> pieces;
        std::vector<int64_t> offsets(input.shape.size(), 0);
        for (Value piece : split.getResults()) {
          pieces.push_back(sliceLayout(input, offsets, shapeOf(piece)));
          offsets[split.getAxis()] += shapeOf(piece)[split.getAxis()];
        }
        return pieces;
      })
      .Default([](Operation *) { return std::nullopt; });
}

bool BufferAssignment::consumersAccept(Value value,
                                       const StridedLayout &layout) const {
  if (layout.isContiguous())
    return true;
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    bool accepted =
        TypeSwitch<Operation *, bool>(user)
            .Case<MatmulOp>([&](auto) { return bool(matrixLayout(layout)); })
            .Case<LinearOp>([&](LinearOp linear) {
              return use.get() != linear.getBias() &&
                     bool(matrixLayout(layout));
            })
            .Case<ReshapeOp, TransposeOp, SliceOp, SplitOp>([&](Operation *) {
              auto results = viewLayouts(user, layout);
              if (!results)
                return false;
              for (auto [result, resultLayout] :
                   llvm::zip(user->getResults(), *results))
                if (!consumersAccept(result, resultLayout))
                  return false;
              return true;
            })
            .Case<func::ReturnOp>([](auto) { return true; }) // copied out
            .Default([](Operation *) { return false; });
    if (!accepted)
      return false;
  }
  return true;
}

void BufferAssignment::assignForward(Operation &op) {
  if (isa<func::ReturnOp>(op)) {
    steps[&op] = StepKind::None;
    return;
  }
  if (isa<ConstantOp>(op)) {
    steps[&op] = StepKind::None;
    own(op.getResult(0));
    return;
  }
  if (isa<MatmulOp, LinearOp>(op)) {
    steps[&op] = StepKind::Gemm;
    own(op.getResult(0));
    return;
  }
  if (auto adam = dyn_cast<AdamOp>(op)) { // in place
    steps[&op] = StepKind::Kernel;
    size_t n = adam.getParams().size();
    for (auto [i, result] : llvm::enumerate(adam.getResults())) {
      OperandRange updated = i < n       ? adam.getParams()
                             : i < 2 * n ? adam.getFirstMoments()
                             : i < 3 * n ? adam.getSecondMoments()
                                         : adam.getParamCopies();
      Placement inPlace = placementOf(updated[i % n]); // a copy: may rehash
      placements[result] = std::move(inPlace);
    }
    return;
  }
  if (auto reduce = dyn_cast<AllReduceOp>(op)) { // in place
    steps[&op] = StepKind::Collective;
    for (auto [input, result] :
         llvm::zip(reduce.getInputs(), reduce.getResults())) {
      Placement inPlace = placementOf(input); // a copy: may rehash
      placements[result] = std::move(inPlace);
    }
    return;
  }
  if (op.hasTrait<tc::OpTrait::UpdatesInPlace>()) {
    steps[&op] = StepKind::Kernel;
    Placement inPlace = placementOf(op.getOperand(0)); // a copy: may rehash
    placements[op.getResult(0)] = std::move(inPlace);
    return;
  }
  if (auto concat = dyn_cast<ConcatOp>(op)) {
    // A view when the inputs lie one after another in one buffer, as the
    // pieces of the result would (the Q, K and V weights).
    Placement first = placementOf(concat.getInputs()[0]);
    StridedLayout result = StridedLayout::contiguous(
        shapeOf(concat.getResult()), first.layout.offset);
    std::vector<int64_t> offsets(result.shape.size(), 0);
    bool adjacent = true;
    for (Value input : concat.getInputs()) {
      const Placement &piece = placementOf(input);
      adjacent &= piece.root == first.root &&
                  sameLayout(piece.layout,
                             sliceLayout(result, offsets, shapeOf(input)));
      offsets[concat.getAxis()] += shapeOf(input)[concat.getAxis()];
    }
    steps[&op] = adjacent ? StepKind::None : StepKind::Kernel;
    if (adjacent)
      placements[concat.getResult()] = {first.root, result};
    else
      own(concat.getResult());
    return;
  }
  if (isViewOp(&op)) {
    Placement input = placementOf(op.getOperand(0)); // a copy: may rehash
    auto layouts = viewLayouts(&op, input.layout);
    bool view = layouts.has_value();
    for (size_t i = 0; view && i < op.getNumResults(); ++i)
      view = consumersAccept(op.getResult(i), (*layouts)[i]);
    steps[&op] = view ? StepKind::None : StepKind::Kernel;
    for (size_t i = 0; i < op.getNumResults(); ++i) {
      if (view)
        placements[op.getResult(i)] = {input.root, (*layouts)[i]};
      else
        own(op.getResult(i));
    }
    return;
  }
  steps[&op] =
      isa<TcDialect>(op.getDialect()) ? StepKind::Kernel : StepKind::None;
  for (Value result : op.getResults())
    own(result);
}

bool BufferAssignment::canWriteInto(Value value, const StridedLayout &layout,
                                    Fold &fold) const {
  Operation *producer = value.getDefiningOp();
  if (!producer || !value.hasOneUse())
    return false;
  bool writable = false;
  if (auto concat = dyn_cast<ConcatOp>(producer);
      concat && stepOf(concat) == StepKind::Kernel) {
    // Each piece is written into its slice instead: the concat disappears.
    writable = canWritePieces(concat, layout, fold);
    if (writable)
      fold.folded.push_back(concat);
  } else {
    switch (stepOf(producer)) {
    case StepKind::Gemm: {
      // Any layout with a unit-strided row or column; a bias epilogue adds
      // along rows, so a linear's output must stay row-major.
      std::optional<MatrixLayout> matrix = matrixLayout(layout);
      writable = matrix && !(isa<LinearOp>(producer) && matrix->transposed);
      break;
    }
    case StepKind::Kernel:
      writable =
          !isa<AdamOp>(producer) &&
          !producer->hasTrait<tc::OpTrait::UpdatesInPlace>() &&
          layout.isContiguous();
      break;
    case StepKind::Collective: // its results are its inputs' buffers
      break;
    case StepKind::None: {
      // A view of one input: that input is written in the inverse layout.
      std::optional<StridedLayout> inputLayout =
          inverseViewLayout(producer, layout);
      writable = inputLayout &&
                 canWriteInto(producer->getOperand(0), *inputLayout, fold);
      break;
    }
    }
  }
  if (writable)
    fold.writes.push_back({value, layout});
  return writable;
}

bool BufferAssignment::canWritePieces(ConcatOp concat,
                                      const StridedLayout &layout,
                                      Fold &fold) const {
  std::vector<int64_t> offsets(layout.shape.size(), 0);
  for (Value input : concat.getInputs()) {
    if (!canWriteInto(input, sliceLayout(layout, offsets, shapeOf(input)),
                      fold))
      return false;
    offsets[concat.getAxis()] += shapeOf(input)[concat.getAxis()];
  }
  return true;
}

void BufferAssignment::foldIntoConsumer(Operation *op) {
  Value result = op->getResult(0);
  StridedLayout resultLayout = placementOf(result).layout;
  Fold fold;
  if (auto concat = dyn_cast<ConcatOp>(op)) {
    if (!canWritePieces(concat, resultLayout, fold))
      return;
  } else {
    std::optional<StridedLayout> inputLayout =
        inverseViewLayout(op, resultLayout);
    if (!inputLayout || !canWriteInto(op->getOperand(0), *inputLayout, fold))
      return;
  }
  for (auto &[value, layout] : fold.writes)
    placements[value] = {result, layout};
  for (Operation *folded : fold.folded)
    steps[folded] = StepKind::None;
  steps[op] = StepKind::None;
}

} // namespace tc
