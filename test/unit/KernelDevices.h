//===- KernelDevices.h - a test module's kernels on each device ------------===//
//
// The kernel tests' two runs of one module: its host kernels on the CPU
// device, and its CUDA kernels on the SIMT harness (EmulatedGpu.h), each
// handed to the test's check with the executable it compiled.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TEST_UNIT_KERNELDEVICES_H
#define TC_TEST_UNIT_KERNELDEVICES_H

#include "EmulatedGpu.h"
#include "ExecutableOf.h"

#include "runtime/cpu/CpuDevice.h"

namespace tc::test {

/// `module` compiled for the host as `name`, then `check(executable,
/// device)` on a CPU device.
template <typename Check>
void onTheCpuDevice(mlir::ModuleOp module, const std::string &name,
                    Check check) {
  std::unique_ptr<rt::Executable> executable =
      executableOf(module, Target::Host, name);
  ASSERT_TRUE(executable);
  std::string error;
  std::unique_ptr<rt::CpuDevice> device =
      rt::CpuDevice::create(*executable, error);
  ASSERT_TRUE(device) << error;
  check(*executable, *device);
}

/// `module` compiled for CUDA as `name`, then `check(executable, gpu)` on
/// the SIMT harness (its kernels built in the test's folder tc-simt-NAME).
template <typename Check>
void onTheSimtHarness(mlir::ModuleOp module, const std::string &name,
                      Check check) {
  std::unique_ptr<rt::Executable> executable =
      executableOf(module, Target::Cuda, name);
  ASSERT_TRUE(executable);
  EmulatedGpu gpu(*executable,
                  compileSimt(executable->root(),
                              testing::TempDir() + "/tc-simt-" + name));
  check(*executable, gpu);
}

} // namespace tc::test

#endif // TC_TEST_UNIT_KERNELDEVICES_H
