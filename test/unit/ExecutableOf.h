//===- ExecutableOf.h - a test module as a loaded executable ---------------===//

#ifndef TC_TEST_UNIT_EXECUTABLEOF_H
#define TC_TEST_UNIT_EXECUTABLEOF_H

#include "compiler/export/TcxWriter.h"
#include "compiler/pipeline/Compile.h"
#include "runtime/Executable.h"

#include "mlir/IR/BuiltinOps.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace tc::test {

/// `module` through the pipeline to the plan and exported as the loaded
/// executable `name` for `target` (CUDA: sm_80); null (with a test failure
/// saying why) where a stage fails.
inline std::unique_ptr<rt::Executable>
executableOf(mlir::ModuleOp module, Target target, const std::string &name) {
  mlir::OwningOpRef<mlir::ModuleOp> plan = module.clone();
  if (failed(compileTcModule(*plan, CompileStage::Plan))) {
    ADD_FAILURE() << "the pipeline fails on " << name;
    return nullptr;
  }
  std::string error;
  ExportOptions options{name, "test"};
  EXPECT_TRUE(setTarget(options, target, "native",
                        target == Target::Cuda
                            ? std::vector<std::string>{"sm_80"}
                            : std::vector<std::string>{},
                        error))
      << error;
  std::optional<std::vector<uint8_t>> bytes =
      writeExecutable(*plan, options, error);
  EXPECT_TRUE(bytes) << error;
  if (!bytes)
    return nullptr;
  auto executable =
      rt::Executable::fromBytes(std::move(*bytes), name + ".tcx", error);
  EXPECT_TRUE(executable) << error;
  return executable;
}

} // namespace tc::test

#endif // TC_TEST_UNIT_EXECUTABLEOF_H
