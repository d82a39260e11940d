//===- FuseElementwise.cpp - tc-fuse-elementwise: chains -> tc.fused ------===//

#include "compiler/transforms/Passes.h"
#include "compiler/transforms/TransformUtils.h"

#include "mlir/IR/Builders.h"

namespace tc {
#define GEN_PASS_DEF_TCFUSEELEMENTWISE
#include "compiler/transforms/Passes.h.inc"
} // namespace tc

using namespace mlir;
using namespace tc;

namespace {

struct Group {
  SmallVector<Operation *> ops;
  llvm::SmallPtrSet<Operation *, 16> members;
  ArrayRef<int64_t> shape;
};

/// Whether `value` can feed an op joining `group`: made inside it (but not
/// by a reduction, which ends the kernel's work over the group's shape), a
/// splat constant (cloned into the kernel), or available where the group
/// starts.
bool availableTo(const Group &group, Value value) {
  Operation *def = value.getDefiningOp();
  if (def && group.members.contains(def))
    return !def->hasTrait<tc::OpTrait::Reduction>();
  return !def || isSplatConstant(value) ||
         def->isBeforeInBlock(group.ops.front());
}

void fuseElementwise(Block &block) {
  std::vector<Group> groups;
  llvm::DenseMap<Operation *, size_t> groupOf;
  for (Operation &op : block.without_terminator()) {
    // A reduction joins the group that makes its input, as the group's last
    // step over that shape (the kernel reduces what it computed).
    bool reduction = op.hasTrait<tc::OpTrait::Reduction>();
    if (!op.hasTrait<tc::OpTrait::Elementwise>() && !reduction)
      continue;
    ArrayRef<int64_t> shape =
        typeOf(reduction ? op.getOperand(0) : op.getResult(0)).getShape();
    std::optional<size_t> join;
    for (Value operand : op.getOperands()) {
      Operation *def = operand.getDefiningOp();
      auto it = def ? groupOf.find(def) : groupOf.end();
      if (it != groupOf.end() && groups[it->second].shape == shape &&
          llvm::all_of(op.getOperands(), [&](Value v) {
            return availableTo(groups[it->second], v);
          })) {
        join = it->second;
        break;
      }
    }
    if (!join && reduction)
      continue; // a reduction alone is its own kernel already
    if (!join) {
      join = groups.size();
      groups.push_back(Group{{}, {}, shape});
    }
    groups[*join].ops.push_back(&op);
    groups[*join].members.insert(&op);
    groupOf[&op] = *join;
  }
  for (Group &group : groups)
    if (group.ops.size() > 1)
      outlineFused(group.ops);
  eraseDeadOps(block); // splat constants now cloned into the kernels
}

struct FuseElementwisePass
    : public tc::impl::TcFuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    for (func::FuncOp function : getOperation().getOps<func::FuncOp>())
      if (!function.isExternal())
        fuseElementwise(function.getBody().front());
  }
};

} // namespace
