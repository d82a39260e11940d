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
  auto type = cast<RankedTensorType>(v.getType());
  int64_t bits = type.getElementType().getIntOrFloatBitWidth();
  int64_t bytes = type.getNumElements() * std::max<int64_t>(bits / 8, 1);
  return (bytes + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
}

/// What `v` is a view of (itself when it owns its storage): views and
/// in-place updates lead to the value that owns the bytes.
Value storageOf(Value v) {
  while (true) {
    Operation *def = v.getDefiningOp();
    if (!def)
      return v; // a function argument
    if (auto adam = dyn_cast<AdamOp>(def)) { // updated in place
      v = def->getOperand(cast<OpResult>(v).getResultNumber());
      continue;
    }
    if (isa<ConstantOp>(def) || kernelKindOf(def) != KernelKind::None)
      return v;
    v = def->getOperand(0); // reshape, contiguous slice or split, or a
                            // concat of adjacent arguments (a view of the
                            // first)
  }
}

bool inArena(Value storage) {
  Operation *def = storage.getDefiningOp();
  return def && !isa<ConstantOp>(def);
}

} // namespace

MemoryPlan planMemory(func::FuncOp function) {
  MemoryPlan plan;
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
