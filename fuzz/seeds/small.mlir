// The seed of the .tcx fuzz target (fuzz/run-fuzzer.sh compiles it): a
// parameter, a launch, a GEMM and a reduction in a few hundred bytes of plan.
func.func @small(%x: tensor<2x3xf32>,
                 %w: tensor<3x4xf32> {tc.param = "w", tc.init = #tc.init<ones>},
                 %s: tensor<4xf32> {tc.param = "s", tc.init = #tc.init<ones>})
    -> tensor<2xf32> {
  %y = tc.matmul %x, %w : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
  %z = tc.mul %y, %s : tensor<2x4xf32>, tensor<4xf32> -> tensor<2x4xf32>
  %r = tc.reduce_sum %z axes = [1] : tensor<2x4xf32> -> tensor<2xf32>
  return %r : tensor<2xf32>
}
