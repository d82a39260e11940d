//===- OpCategoryTest.cpp - op traits agree with lowering and codegen ------===//
//
// The categories of tc ops are traits (dialects/tc/TcTraits.h). This test
// walks every registered tc op and checks that the categories exclude each
// other, then lowers models/tiny.toml and checks every kernel against its
// op's traits: a row-wise op is launched a block per row and emitted with the
// row skeleton, tc.cached_attention a warp per (row, head), every other
// kernel a thread per element with the loop
// skeleton; fused groups hold only elementwise ops and reductions.
//
//===----------------------------------------------------------------------===//

#include "ModelPipeline.h"
#include "compiler/codegen/KernelDispatch.h"
#include "dialects/plan/PlanDialect.h"
#include "dialects/tc/TcDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <set>

using namespace mlir;

namespace {

int categoriesOf(RegisteredOperationName name) {
  return name.hasTrait<tc::OpTrait::Elementwise>() +
         name.hasTrait<tc::OpTrait::Reduction>() +
         name.hasTrait<tc::OpTrait::RowWise>() +
         name.hasTrait<tc::OpTrait::View>() +
         name.hasTrait<tc::OpTrait::UpdatesInPlace>();
}

TEST(OpCategories, EveryOpHasAtMostOneCategory) {
  MLIRContext context;
  context.loadDialect<tc::TcDialect>();
  int ops = 0, categorised = 0;
  for (RegisteredOperationName name : context.getRegisteredOperations()) {
    if (name.getDialectNamespace() != "tc")
      continue;
    ++ops;
    EXPECT_LE(categoriesOf(name), 1) << name.getStringRef().str();
    categorised += categoriesOf(name) > 0;
  }
  EXPECT_GT(ops, 40);
  EXPECT_GT(categorised, 25); // elementwise, reductions, row ops and views
}

TEST(OpCategories, KernelsFollowTheirOpsTraits) {
  MLIRContext context;
  // All fusions; all but the decoder step's fused candidates, whose
  // tc.log_softmax is then a kernel of its own; none, which leaves the
  // frontend's tc.softmax and tc.layer_norm (and their gradients).
  std::string tiny = std::string(TC_SOURCE_DIR) + "/models/tiny.toml";
  std::string allButCandidates;
  for (const std::string &name : tc::fusionNames())
    if (name != "log-softmax-top-k")
      allButCandidates += (allButCandidates.empty() ? "" : ",") + name;
  std::set<std::string> rowOpsSeen;
  int launches = 0;
  for (const std::string &fusions :
       {std::string("all"), allButCandidates, std::string("none")}) {
    OwningOpRef<ModuleOp> module = tc::test::compileModel(
        context, tiny, /*plan=*/true, std::nullopt, fusions);
    ASSERT_TRUE(module) << fusions;
    module->walk([&](tc::plan::LaunchOp launch) {
      ++launches;
      auto kernel = module->lookupSymbol<func::FuncOp>(launch.getKernel());
      ASSERT_TRUE(kernel);
      Operation *op = &kernel.getBody().front().front();
      std::string what = op->getName().getStringRef().str() + " in " +
                         kernel.getSymName().str();
      std::string error;
      FailureOr<std::string> source = tc::codegen::emitKernel(
          op, kernel.getSymName(), tc::Target::Host, error);
      ASSERT_TRUE(succeeded(source)) << what << ": " << error;
      bool rowSkeleton =
          source->find("TC_ROWS(") != std::string::npos ||
          source->find("TC_ORDERED_ROW_SUM(") != std::string::npos;
      ASSERT_GT(op->getNumResults(), 0u) << what;
      auto result = cast<RankedTensorType>(op->getResult(0).getType());
      int64_t grid = launch.getGrid()[0], block = launch.getBlock()[0];
      if (op->hasTrait<tc::OpTrait::RowWise>()) {
        rowOpsSeen.insert(op->getName().getStringRef().str());
        auto input = cast<RankedTensorType>(op->getOperand(0).getType());
        int64_t row = input.getShape().back();
        // tc.cross_entropy's result is a scalar: a block per row of its input.
        EXPECT_EQ(grid, input.getNumElements() / row)
            << what << ": a block per row";
        EXPECT_TRUE(rowSkeleton) << what << ": emitted without a row skeleton";
      } else if (isa<tc::EmbeddingGradOp, tc::EmbeddingGradAddOp>(op)) {
        // A block per table row up to 256, each reading every id.
        EXPECT_EQ(block, 256) << what;
        EXPECT_EQ(grid, std::min<int64_t>(result.getDimSize(0), 256)) << what;
      } else if (auto attention = dyn_cast<tc::CachedAttentionOp>(op)) {
        // The decoder's attention: a block of one warp per (row, head).
        int64_t tasks = result.getDimSize(0) * attention.getHeads();
        EXPECT_EQ(block, 32) << what;
        EXPECT_EQ(grid, tasks) << what << ": a warp per (row, head)";
      } else {
        // The largest operand or result: a bias gradient reads rows it sums.
        int64_t elements = 1;
        for (Type type : llvm::concat<const Type>(op->getOperandTypes(),
                                                  op->getResultTypes()))
          if (auto tensor = dyn_cast<RankedTensorType>(type))
            elements = std::max(elements, tensor.getNumElements());
        EXPECT_EQ(grid, std::min<int64_t>((elements + block - 1) / block, 4096))
            << what << ": a thread per element, at most 4096 blocks";
        EXPECT_FALSE(rowSkeleton)
            << what << ": a row skeleton for a non-row op";
      }
      if (auto fused = dyn_cast<tc::FusedOp>(op))
        fused.getBody().walk([&](Operation *inner) {
          if (!isa<tc::YieldOp, tc::ConstantOp>(inner))
            EXPECT_TRUE(inner->hasTrait<tc::OpTrait::Elementwise>() ||
                        inner->hasTrait<tc::OpTrait::Reduction>())
                << inner->getName().getStringRef().str() << " fused in "
                << what;
        });
    });
  }
  EXPECT_GT(launches, 100);
  // Every row-wise op of the dialect was checked above.
  for (RegisteredOperationName name : context.getRegisteredOperations())
    if (name.hasTrait<tc::OpTrait::RowWise>())
      EXPECT_TRUE(rowOpsSeen.count(name.getStringRef().str()))
          << name.getStringRef().str()
          << " has no kernel in tiny's executable: test it with a model that "
             "has";
}

} // namespace
