// Invalid IR is refused before anything runs, with the place and the reason,
// and exit code 2.
// RUN: not tc-interpret %s 2>&1 | FileCheck %s
// RUN: bash -c 'tc-interpret %s; test $? -eq 2' 2>/dev/null
// CHECK: tc-interpret-invalid.mlir:[[@LINE+2]]:8: error: 'tc.add' op operand #1 has shape [4], which does not broadcast with [2, 3]
func.func @f(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  %0 = tc.add %a, %b : tensor<2x3xf32>, tensor<4xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
