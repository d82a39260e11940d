//===- MemoryPlan.cpp - the flat buffers of a function and the arena -------===//

#include "compiler/analysis/MemoryPlan.h"
#include "compiler/analysis/KernelCount.h"
#include "dialects/tc/TcDialect.h"

#include <algorithm>
#include <map>

using namespace mlir;

namespace tc {
namespace {

int64_t aligned(int64_t bytes) {
  return (bytes + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
}

int64_t elementBytes(Value v) {
  Type element = cast<RankedTensorType>(v.getType()).getElementType();
  return std::max<int64_t>(element.getIntOrFloatBitWidth() / 8, 1);
}

/// Puts each gradient operand of tc.adam at its parameter's offset in the
/// grads space when its root holds exactly the gradients that view it
/// (a [3d, d] GEMM result viewed as the Q, K and V weight gradients).
void placeGradients(func::FuncOp function, const BufferAssignment &assignment,
                    MemoryPlan &plan) {
  AdamOp adam;
  function.walk([&](AdamOp op) { adam = op; });
  if (!adam)
    return;
  llvm::DenseMap<Value, int64_t> base;    // root -> its element offset
  llvm::DenseMap<Value, int64_t> covered; // root -> elements of gradients
  llvm::DenseSet<Value> rejected;
  for (auto [param, grad] : llvm::zip(adam.getParams(), adam.getGrads())) {
    int64_t paramOffset = assignment.placementOf(param).layout.offset;
    plan.gradientSlots.push_back(paramOffset * elementBytes(param));
    const Placement &placement = assignment.placementOf(grad);
    Value root = placement.root;
    Operation *producer = root.getDefiningOp();
    if (!producer || isa<ConstantOp>(producer) ||
        !placement.layout.isContiguous() ||
        assignment.stepOf(producer) == StepKind::None) {
      rejected.insert(root);
      continue;
    }
    int64_t start = paramOffset - placement.layout.offset;
    auto [it, added] = base.try_emplace(root, start);
    if (!added && it->second != start)
      rejected.insert(root);
    covered[root] += placement.layout.numElements();
  }
  for (auto [root, start] : base) {
    if (rejected.contains(root) || start < 0 ||
        covered[root] !=
            cast<RankedTensorType>(root.getType()).getNumElements())
      continue;
    plan.roots[root] = {plan::Space::grads, start * elementBytes(root)};
  }
}

/// The slot of the params, adam_m or adam_v space that the training step's
/// result `name` ("param.P", "adam_m.P", "adam_v.P") updates, or none.
std::optional<Binding> stateSlot(StringRef name, Value value,
                                 const BufferAssignment &assignment) {
  for (auto [prefix, root, space] :
       {std::tuple(kUpdatedParamPrefix, assignment.paramsRoot,
                   plan::Space::params),
        std::tuple(kFirstMomentPrefix, assignment.firstMomentsRoot,
                   plan::Space::adam_m),
        std::tuple(kSecondMomentPrefix, assignment.secondMomentsRoot,
                   plan::Space::adam_v)}) {
    if (!root || !name.starts_with(prefix))
      continue;
    auto offset = assignment.paramOffsets.find(name.drop_front(prefix.size()));
    if (offset == assignment.paramOffsets.end())
      return std::nullopt;
    return Binding{name.str(), value, offset->second * elementBytes(value),
                   space};
  }
  return std::nullopt;
}

/// Returned values that own their storage are written straight into the
/// outputs space; inputs updated in place stay bound where they are; the
/// rest (views, parameters) are copied there. New parameters and moments go
/// to their slots (stateUpdates), not to the outputs.
void placeOutputs(func::FuncOp function, const BufferAssignment &assignment,
                  MemoryPlan &plan) {
  auto ret = cast<func::ReturnOp>(function.getBody().front().getTerminator());
  for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
    const Placement &placement = assignment.placementOf(value);
    if (auto arg = dyn_cast<BlockArgument>(placement.root);
        arg && assignment.bufferOf(arg) != ArgumentBuffer::Input)
      continue; // parameters and moments, updated in place by tc.adam
    auto name = function.getResultAttrOfType<StringAttr>(i, kOutputAttrName);
    std::string outputName =
        name ? name.getValue().str() : "result" + std::to_string(i);
    if (std::optional<Binding> slot =
            stateSlot(outputName, value, assignment)) {
      plan.stateUpdates.push_back(std::move(*slot));
      continue;
    }
    if (Operation *producer = value.getDefiningOp();
        producer && producer->hasTrait<tc::OpTrait::UpdatesInPlace>()) {
      auto input = llvm::find_if(plan.inputs, [&](const Binding &b) {
        return b.value == placement.root;
      });
      if (input != plan.inputs.end() &&
          placement.layout.isContiguous() && placement.layout.offset == 0) {
        plan.outputs.push_back(
            {outputName, value, input->offset, plan::Space::inputs});
        continue;
      }
    }
    Binding output{outputName, value, plan.outputBytes};
    plan.outputBytes += aligned(bytesOf(value));
    Operation *producer = value.getDefiningOp();
    if (placement.root == value && producer && !isa<ConstantOp>(producer) &&
        !plan.roots.count(value) && llvm::count(ret.getOperands(), value) == 1)
      plan.roots[value] = {plan::Space::outputs, output.offset};
    plan.outputs.push_back(std::move(output));
  }
}

/// Greedy by size: largest first, at the lowest offset free for its life.
void placeArena(MemoryPlan &plan) {
  std::vector<size_t> order(plan.arena.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return plan.arena[a].size > plan.arena[b].size;
  });
  std::vector<size_t> placed;
  for (size_t i : order) {
    ArenaBuffer &buffer = plan.arena[i];
    std::vector<std::pair<int64_t, int64_t>> busy; // [begin, end) in bytes
    for (size_t j : placed) {
      const ArenaBuffer &other = plan.arena[j];
      if (other.first <= buffer.last && buffer.first <= other.last)
        busy.push_back({other.offset, other.offset + other.size});
    }
    std::sort(busy.begin(), busy.end());
    int64_t offset = 0;
    for (auto [begin, end] : busy) {
      if (offset + buffer.size <= begin)
        break;
      offset = std::max(offset, end);
    }
    buffer.offset = offset;
    placed.push_back(i);
    plan.roots[buffer.root] = {plan::Space::arena, offset};
    plan.arenaBytes = std::max(plan.arenaBytes, offset + buffer.size);
    plan.noReuseBytes += buffer.size;
  }
  // The peak: a sweep over the op indices.
  std::map<int64_t, int64_t> delta;
  for (const ArenaBuffer &buffer : plan.arena) {
    delta[buffer.first] += buffer.size;
    delta[buffer.last + 1] -= buffer.size;
  }
  int64_t live = 0;
  for (auto [at, change] : delta) {
    live += change;
    plan.peakBytes = std::max(plan.peakBytes, live);
  }
}

} // namespace

MemoryPlan planMemory(func::FuncOp function,
                      const BufferAssignment &assignment) {
  MemoryPlan plan;
  if (function.isExternal())
    return plan;
  for (auto [root, space] :
       {std::pair(assignment.paramsRoot, plan::Space::params),
        std::pair(assignment.firstMomentsRoot, plan::Space::adam_m),
        std::pair(assignment.secondMomentsRoot, plan::Space::adam_v),
        std::pair(assignment.paramCopiesRoot, plan::Space::param_copies)})
    if (root)
      plan.roots[root] = {space, 0};
  for (BlockArgument arg : function.getArguments()) {
    if (assignment.bufferOf(arg) != ArgumentBuffer::Input)
      continue;
    auto name = function.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                      kInputAttrName);
    plan.inputs.push_back({name ? name.getValue().str()
                                : "arg" + std::to_string(arg.getArgNumber()),
                           arg, plan.inputBytes, plan::Space::inputs});
    plan.roots[arg] = {plan::Space::inputs, plan.inputBytes};
    plan.inputBytes += aligned(bytesOf(arg));
  }
  placeGradients(function, assignment, plan);
  placeOutputs(function, assignment, plan);

  // The remaining roots: constants, and arena buffers with their lifetimes.
  Block &body = function.getBody().front();
  llvm::DenseMap<Value, size_t> arenaIndex;
  int64_t index = 0;
  for (Operation &op : body) {
    auto touch = [&](Value value, bool write) {
      if (!isa<RankedTensorType>(value.getType()))
        return;
      Value root = assignment.placementOf(value).root;
      if (plan.roots.count(root) && !arenaIndex.count(root))
        return; // placed outside the arena
      if (isa<ConstantOp>(root.getDefiningOp())) {
        plan.roots[root] = {plan::Space::constants, plan.constantBytes};
        plan.constantBytes += aligned(bytesOf(root));
        return;
      }
      auto [it, added] = arenaIndex.try_emplace(root, plan.arena.size());
      if (added)
        plan.arena.push_back({root, aligned(bytesOf(root)), 0, index, index});
      ArenaBuffer &buffer = plan.arena[it->second];
      if (write)
        buffer.first = std::min(buffer.first, index);
      buffer.last = std::max(buffer.last, index);
    };
    bool runs = assignment.stepOf(&op) != StepKind::None;
    for (Value operand : op.getOperands())
      touch(operand, false);
    for (Value result : op.getResults())
      if (runs || isa<ConstantOp>(op))
        touch(result, true);
    ++index;
  }
  placeArena(plan);
  return plan;
}

} // namespace tc
