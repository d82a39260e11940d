// Hand-computed values of the reductions, softmax, log_softmax and layer_norm.
// RUN: tc-interpret %s --function=reduce --print | FileCheck %s --check-prefix=RED
// RUN: tc-interpret %s --function=softmax --print | FileCheck %s --check-prefix=SM
// RUN: tc-interpret %s --function=log_softmax --print | FileCheck %s --check-prefix=LSM
// RUN: tc-interpret %s --function=layer_norm --print | FileCheck %s --check-prefix=LN

// x = [[1, 2, 3], [4, 5, 6]]
// RED:      result #0: f32 [2]
// RED-NEXT: {{^}}[6, 15]
// RED-NEXT: result #1: f32 [1, 3]
// RED-NEXT: {{^\[\[}}5, 7, 9]]
// RED-NEXT: result #2: f32 []
// RED-NEXT: {{^}}21{{$}}
// RED-NEXT: result #3: f32 [2]
// RED-NEXT: {{^}}[3, 6]
// RED-NEXT: result #4: f32 [3]
// RED-NEXT: {{^}}[2.5, 3.5, 4.5]
// RED-NEXT: result #5: f32 [2, 1]
// RED-NEXT: {{^\[\[}}2],
// RED-NEXT: {{^}} [5]]
func.func @reduce() -> (tensor<2xf32>, tensor<1x3xf32>, tensor<f32>, tensor<2xf32>,
                        tensor<3xf32>, tensor<2x1xf32>) {
  %x = tc.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %rows = tc.reduce_sum %x axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  %cols = tc.reduce_sum %x axes = [0] keep_dims : tensor<2x3xf32> -> tensor<1x3xf32>
  %all = tc.reduce_sum %x axes = [0, 1] : tensor<2x3xf32> -> tensor<f32>
  %max = tc.reduce_max %x axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  %mean0 = tc.reduce_mean %x axes = [0] : tensor<2x3xf32> -> tensor<3xf32>
  %mean1 = tc.reduce_mean %x axes = [1] keep_dims : tensor<2x3xf32> -> tensor<2x1xf32>
  return %rows, %cols, %all, %max, %mean0, %mean1
      : tensor<2xf32>, tensor<1x3xf32>, tensor<f32>, tensor<2xf32>, tensor<3xf32>,
        tensor<2x1xf32>
}

// softmax([0, ln 3]) = [1/4, 3/4], along the last axis and along axis 0.
// SM:      result #0: f32 [2]
// SM-NEXT: {{^}}[0.25, 0.75]
// SM-NEXT: result #1: f32 [2, 2]
// SM-NEXT: {{^\[\[}}0.25, 0.5],
// SM-NEXT: {{^}} [0.75, 0.5]]
func.func @softmax() -> (tensor<2xf32>, tensor<2x2xf32>) {
  %x = tc.constant dense<[0.0, 1.09861229]> : tensor<2xf32>
  %s = tc.softmax %x axis = 0 : tensor<2xf32>
  %y = tc.constant dense<[[0.0, 0.0], [1.09861229, 0.0]]> : tensor<2x2xf32>
  %t = tc.softmax %y axis = 0 : tensor<2x2xf32>
  return %s, %t : tensor<2xf32>, tensor<2x2xf32>
}

// log_softmax([0, ln 3]) = [ln 1/4, ln 3/4]; two equal values: ln 1/2 each;
// -inf beside a finite value: -inf, 0.
// LSM:      result #0: f32 [3, 2]
// LSM-NEXT: {{^\[\[}}-1.38629, -0.287682],
// LSM-NEXT: {{^}} [-0.693147, -0.693147],
// LSM-NEXT: {{^}} [-inf, 0]]
func.func @log_softmax() -> tensor<3x2xf32> {
  %x = tc.constant dense<[[0.0, 1.09861229], [5.0, 5.0], [0xFF800000, 2.0]]>
      : tensor<3x2xf32>
  %y = tc.log_softmax %x : tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

// x = [1, 2, 3, 4]: mean 2.5, biased variance 1.25;
// y = (x - 2.5) / sqrt(1.25 + 1e-5) * 2 + 1.
// LN:      result #0: f32 [1, 4]
// LN-NEXT: {{^\[\[}}-1.68327, 0.105576, 1.89442, 3.68327]]
func.func @layer_norm() -> tensor<1x4xf32> {
  %x = tc.constant dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>
  %g = tc.constant dense<2.0> : tensor<4xf32>
  %b = tc.constant dense<1.0> : tensor<4xf32>
  %y = tc.layer_norm %x, %g, %b epsilon = 1.0e-05 : tensor<1x4xf32>, tensor<4xf32>, tensor<4xf32>
  return %y : tensor<1x4xf32>
}
