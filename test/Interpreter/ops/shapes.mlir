// Hand-computed values of the data-movement ops and constants.
// RUN: tc-interpret %s --function=shapes --print | FileCheck %s
// RUN: tc-interpret %s --function=transpose3d --print | FileCheck %s --check-prefix=T3

// x = [[1, 2, 3], [4, 5, 6]]
// CHECK:      result #0: f32 [3, 2]
// CHECK-NEXT: {{^\[\[}}1, 2],
// CHECK-NEXT: {{^}} [3, 4],
// CHECK-NEXT: {{^}} [5, 6]]
// CHECK-NEXT: result #1: f32 [3, 2]
// CHECK-NEXT: {{^\[\[}}1, 4],
// CHECK-NEXT: {{^}} [2, 5],
// CHECK-NEXT: {{^}} [3, 6]]
// CHECK-NEXT: result #2: f32 [2, 3]
// CHECK-NEXT: {{^\[\[}}7, 8, 9],
// CHECK-NEXT: {{^}} [7, 8, 9]]
// CHECK-NEXT: result #3: f32 [2, 2]
// CHECK-NEXT: {{^\[\[}}2, 3],
// CHECK-NEXT: {{^}} [5, 6]]
// CHECK-NEXT: result #4: f32 [3, 3]
// CHECK-NEXT: {{^\[\[}}1, 2, 3],
// CHECK-NEXT: {{^}} [4, 5, 6],
// CHECK-NEXT: {{^}} [7, 8, 9]]
// CHECK-NEXT: result #5: i32 [2, 3]
// CHECK-NEXT: {{^\[\[}}1, 7, 8],
// CHECK-NEXT: {{^}} [2, 9, 10]]
func.func @shapes() -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x2xf32>,
                        tensor<3x3xf32>, tensor<2x3xi32>) {
  %x = tc.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %r = tc.reshape %x : tensor<2x3xf32> -> tensor<3x2xf32>
  %t = tc.transpose %x permutation = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %row = tc.constant dense<[7.0, 8.0, 9.0]> : tensor<3xf32>
  %b = tc.broadcast_to %row : tensor<3xf32> -> tensor<2x3xf32>
  %s = tc.slice %x offsets = [0, 1] : tensor<2x3xf32> -> tensor<2x2xf32>
  %row2 = tc.reshape %row : tensor<3xf32> -> tensor<1x3xf32>
  %c = tc.concat %x, %row2 axis = 0 : tensor<2x3xf32>, tensor<1x3xf32> -> tensor<3x3xf32>
  %i = tc.constant dense<[[1], [2]]> : tensor<2x1xi32>
  %j = tc.constant dense<[[7, 8], [9, 10]]> : tensor<2x2xi32>
  %ci = tc.concat %i, %j axis = 1 : tensor<2x1xi32>, tensor<2x2xi32> -> tensor<2x3xi32>
  return %r, %t, %b, %s, %c, %ci
      : tensor<3x2xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x2xf32>,
        tensor<3x3xf32>, tensor<2x3xi32>
}

// x[a][b][c] = 4a + 2b + c; permutation [0, 2, 1] swaps the last two.
// T3:      result #0: f32 [2, 2, 2]
// T3-NEXT: {{^\[\[\[}}0, 2],
// T3-NEXT: {{^}}  [1, 3]],
// T3-NEXT: {{^}} {{\[\[}}4, 6],
// T3-NEXT: {{^}}  [5, 7]]]
func.func @transpose3d() -> tensor<2x2x2xf32> {
  %x = tc.constant dense<[[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]]> : tensor<2x2x2xf32>
  %t = tc.transpose %x permutation = [0, 2, 1] : tensor<2x2x2xf32> -> tensor<2x2x2xf32>
  return %t : tensor<2x2x2xf32>
}
