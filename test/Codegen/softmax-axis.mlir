// tc.softmax and tc.softmax_grad take any axis (the interpreter computes
// along any), but their kernels are rows of the last dimension: another
// axis is refused, naming the op, the axis and the fix, for either target;
// the last axis compiles (test/Runtime/unfused-step.test runs it).
// RUN: split-file %s %t
// RUN: not tc-compile %t/middle.mlir --emit=cpp 2>&1 | FileCheck %s --check-prefix=AXIS
// RUN: tc-compile %t/middle.mlir --emit=cuda 2>&1 >/dev/null | FileCheck %s --check-prefix=AXIS
// RUN: not tc-compile %t/grad.mlir --emit=cpp 2>&1 | FileCheck %s --check-prefix=GRAD
// RUN: tc-compile %t/last.mlir --emit=cpp | FileCheck %s --check-prefix=LAST
// AXIS: 'tc.softmax' along axis 1 of a rank-3 tensor: kernels are generated along the last axis only; transpose that axis last (tc.transpose) around it
// GRAD: 'tc.softmax_grad' along axis 0 of a rank-2 tensor: kernels are generated along the last axis only
// LAST: TC_ROWS(r)

//--- middle.mlir
func.func @middle(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %p = tc.softmax %x axis = 1 : tensor<2x3x4xf32>
  return %p : tensor<2x3x4xf32>
}

//--- grad.mlir
func.func @grad(%y: tensor<3x4xf32>, %dy: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %dx = tc.softmax_grad %y, %dy axis = 0 : tensor<3x4xf32>
  return %dx : tensor<3x4xf32>
}

//--- last.mlir
func.func @last(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %p = tc.softmax %x axis = 2 : tensor<2x3x4xf32>
  return %p : tensor<2x3x4xf32>
}
