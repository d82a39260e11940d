//===- MemoryPlan.cpp - buffers of a function in one arena, by liveness ----===//

#include "compiler/analysis/MemoryPlan.h"
#include "compiler/analysis/KernelCount.h"
#include "dialects/tc/TcDialect.h"

#include <algorithm>
#include <map>

using namespace mlir;

namespace tc {
namespace {

int64_t alignedBytes(Value v) {
  return (bytesOf(v) + kBufferAlignment - 1) / kBufferAlignment *
         kBufferAlignment;
}

/// What `v` is a view of (itself when it owns its storage): views and
/// in-place updates lead to the value that owns the bytes.
Value storageOf(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto adam = dyn_cast<AdamOp>(def)) { // updated in place
      unsigned i = cast<OpResult>(v).getResultNumber();
      size_t n = adam.getParams().size();
      OperandRange updated = i < n       ? adam.getParams()
                             : i < 2 * n ? adam.getFirstMoments()
                                         : adam.getSecondMoments();
      v = updated[i % n];
      continue;
    }
    bool view = isa<ReshapeOp, SliceOp, SplitOp, ConcatOp>(def) &&
                kernelKindOf(def) == KernelKind::None;
    if (!view)
      return v;
    v = def->getOperand(0); // a concat of adjacent arguments views the first
  }
  return v; // a function argument
}

bool inArena(Value storage) {
  Operation *def = storage.getDefiningOp();
  return def && !isa<ConstantOp>(def);
}

} // namespace

MemoryPlan planMemory(func::FuncOp function) {
  MemoryPlan plan;
  if (function.isExternal())
    return plan;
  Block &body = function.getBody().front();
  llvm::DenseMap<Operation *, int64_t> indexOf;
  int64_t index = 0;
  for (Operation &op : body)
    indexOf[&op] = index++;

  // One buffer per value that owns storage in the arena; its lifetime runs
  // from its writer to the last reader of it or of any view of it.
  llvm::DenseMap<Value, size_t> owner;
  for (Operation &op : body) {
    for (Value result : op.getResults()) {
      if (!isa<RankedTensorType>(result.getType()))
        continue;
      Value storage = storageOf(result);
      if (!inArena(storage))
        continue;
      auto [it, added] = owner.try_emplace(storage, plan.buffers.size());
      if (added)
        plan.buffers.push_back({storage, alignedBytes(storage), 0,
                                indexOf[storage.getDefiningOp()],
                                indexOf[storage.getDefiningOp()]});
      plan.bufferOf[result] = it->second;
      for (Operation *user : result.getUsers()) {
        PlannedBuffer &buffer = plan.buffers[it->second];
        buffer.last = std::max(buffer.last, indexOf[user]);
      }
    }
  }

  // Greedy by size: largest first, at the lowest offset free for its life.
  std::vector<size_t> order(plan.buffers.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return plan.buffers[a].size > plan.buffers[b].size;
  });
  std::vector<size_t> placed;
  for (size_t i : order) {
    PlannedBuffer &buffer = plan.buffers[i];
    std::vector<std::pair<int64_t, int64_t>> busy; // [begin, end) in bytes
    for (size_t j : placed) {
      const PlannedBuffer &other = plan.buffers[j];
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
    plan.arenaBytes = std::max(plan.arenaBytes, offset + buffer.size);
    plan.noReuseBytes += buffer.size;
  }

  // The peak: a sweep over the op indices.
  std::map<int64_t, int64_t> delta;
  for (const PlannedBuffer &buffer : plan.buffers) {
    delta[buffer.first] += buffer.size;
    delta[buffer.last + 1] -= buffer.size;
  }
  int64_t live = 0;
  for (auto [at, change] : delta) {
    live += change;
    plan.peakBytes = std::max(plan.peakBytes, live);
  }
  return plan;
}

} // namespace tc
