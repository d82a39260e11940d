// RUN: tc-opt %s --tc-autodiff --tc-build-train-step="d-model=4 warmup-steps=10 accumulation-steps=2 gradient-clip=1.0" | FileCheck %s
// RUN: tc-opt %s --tc-autodiff --tc-build-train-step | FileCheck %s --check-prefix=ONE
// The unrolling is bounded (a million micro-batches were accepted; issue 15).
// RUN: not tc-opt %s --tc-autodiff --tc-build-train-step="accumulation-steps=1000000" 2>&1 | FileCheck %s --check-prefix=BOUND
// BOUND: error: tc-build-train-step: accumulation-steps is 1000000; it must be in [1, 64] (each micro-batch is unrolled into the step)
// The other options take the model description's ranges (a NaN beta and a
// d_model of 0 built NaN constants into the step).
// RUN: not tc-opt %s --tc-autodiff --tc-build-train-step="adam-beta1=nan" 2>&1 | FileCheck %s --check-prefix=BETA
// BETA: error: tc-build-train-step: adam-beta1=nan is outside [0, 1) (the model description's range of the setting)
// RUN: not tc-opt %s --tc-autodiff --tc-build-train-step="adam-beta2=1" 2>&1 | FileCheck %s --check-prefix=BETA2
// BETA2: error: tc-build-train-step: adam-beta2=1{{(\.0+)?(e\+00)?}} is outside [0, 1)
// RUN: not tc-opt %s --tc-autodiff --tc-build-train-step="d-model=0" 2>&1 | FileCheck %s --check-prefix=DMODEL
// DMODEL: error: tc-build-train-step: d-model=0{{.*}} is outside [1, 1048576]
// RUN: not tc-opt %s --tc-autodiff --tc-build-train-step="gradient-clip=-1" 2>&1 | FileCheck %s --check-prefix=CLIP
// CLIP: error: tc-build-train-step: gradient-clip=-1{{.*}} is outside [0, 3.40282e+38)

// Two micro-batches: data inputs gain a leading [2], the gradient function is
// inlined once per micro-batch, and the second draws its dropout masks with
// the seed + 0x9E3779B9 (a Philox key of its own, as the second rank of a
// data-parallel job would); losses, tokens and gradients sum, then are summed
// over the ranks by tc.all_reduce, which everything after reads.
// CHECK-LABEL: func.func @train_step_2(
// CHECK-SAME: %[[W:.*]]: tensor<3xf32> {tc.init = #tc.init<zeros>, tc.param = "w"}, %[[M:.*]]: tensor<3xf32> {tc.input = "adam_m.w"}, %[[V:.*]]: tensor<3xf32> {tc.input = "adam_v.w"}, %[[X:.*]]: tensor<2x2x3xf32> {tc.input = "x"}, %[[RNG:.*]]: tensor<2xi64> {tc.input = "rng"})
// CHECK-SAME: -> (tensor<3xf32> {tc.output = "param.w"}, tensor<3xf32> {tc.output = "adam_m.w"}, tensor<3xf32> {tc.output = "adam_v.w"}, tensor<f32> {tc.output = "loss"}, tensor<i32> {tc.output = "tokens"}, tensor<f32> {tc.output = "learning_rate"})
// CHECK:      %[[S0:.*]] = tc.slice %[[X]] offsets = [0, 0, 0]
// CHECK:      %[[X0:.*]] = tc.reshape %[[S0]]
// CHECK:      tc.mul %[[X0]], %[[W]]
// CHECK:      %[[L0:.*]] = tc.reduce_sum {{.*}} axes = [0, 1]
// CHECK:      %[[N0:.*]] = tc.constant dense<6> : tensor<i32>
// CHECK:      %[[G0:.*]] = tc.reduce_sum {{.*}} axes = [0] : tensor<2x3xf32> -> tensor<3xf32>
// CHECK:      %[[S1:.*]] = tc.slice %[[X]] offsets = [1, 0, 0]
// CHECK:      %[[K:.*]] = tc.constant dense<[2654435769, 0]> : tensor<2xi64>
// CHECK-NEXT: tc.add %[[RNG]], %[[K]]
// CHECK:      %[[L1:.*]] = tc.reduce_sum {{.*}} axes = [0, 1]
// CHECK:      %[[N1:.*]] = tc.constant dense<6> : tensor<i32>
// CHECK:      %[[G1:.*]] = tc.reduce_sum {{.*}} axes = [0] : tensor<2x3xf32> -> tensor<3xf32>
// CHECK-NEXT: %[[LOCAL_LOSS:.*]] = tc.add %[[L0]], %[[L1]]
// CHECK-NEXT: %[[LOCAL_TOKENS:.*]] = tc.add %[[N0]], %[[N1]] : tensor<i32>
// CHECK-NEXT: %[[LOCAL_G:.*]] = tc.add %[[G0]], %[[G1]] : tensor<3xf32>
// CHECK-NEXT: %[[GLOBAL:.*]]:3 = tc.all_reduce %[[LOCAL_G]], %[[LOCAL_LOSS]], %[[LOCAL_TOKENS]] : tensor<3xf32>, tensor<f32>, tensor<i32>
// Per-token mean by the global count, then clipping to norm 1, both one
// scalar on the summed gradients (which Adam then reads where the sum left
// them): per_token = 1 / tokens, norm = |g| * per_token,
// scale = per_token * min(1, 1 / (norm + 1e-6)).
// CHECK:      %[[C1:.*]] = tc.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[N:.*]] = tc.convert %[[GLOBAL]]#2 : tensor<i32> -> tensor<f32>
// CHECK-NEXT: %[[NMAX:.*]] = tc.max %[[N]], %[[C1]]
// CHECK-NEXT: %[[PER:.*]] = tc.div %[[C1]], %[[NMAX]]
// CHECK-NEXT: %[[SQ:.*]] = tc.mul %[[GLOBAL]]#0, %[[GLOBAL]]#0
// CHECK-NEXT: %[[SUM:.*]] = tc.reduce_sum %[[SQ]]
// CHECK-NEXT: %[[ROOT:.*]] = tc.sqrt %[[SUM]]
// CHECK-NEXT: tc.mul %[[ROOT]], %[[PER]]
// CHECK:      %[[FACTOR:.*]] = tc.min
// CHECK-NEXT: %[[SCALE:.*]] = tc.mul %[[PER]], %[[FACTOR]]
// CHECK-NEXT: tc.mul %[[GLOBAL]]#0, %[[SCALE]]
// The step comes from the RNG state (at least 1); lr = 4^-0.5 * min(step^-0.5,
// step * 10^-1.5).
// CHECK:      %[[STEP:.*]] = tc.slice %[[RNG]] offsets = [1] : tensor<2xi64> -> tensor<1xi64>
// CHECK-NEXT: tc.reshape %[[STEP]]
// CHECK-NEXT: %[[S:.*]] = tc.convert
// CHECK-NEXT: %[[T:.*]] = tc.max %[[S]], %[[C1]]
// CHECK-NEXT: %[[W15:.*]] = tc.constant dense<0.0316227749> : tensor<f32>
// CHECK-NEXT: %[[WARM:.*]] = tc.mul %[[T]], %[[W15]]
// CHECK-NEXT: %[[INV:.*]] = tc.rsqrt %[[T]]
// CHECK-NEXT: %[[MIN:.*]] = tc.min %[[INV]], %[[WARM]]
// CHECK-NEXT: %[[SCALE:.*]] = tc.constant dense<5.000000e-01> : tensor<f32>
// CHECK-NEXT: %[[LR:.*]] = tc.mul %[[SCALE]], %[[MIN]]
// Adam: m and v updated from the moment arguments; the parameter moves.
// CHECK:      tc.mul %[[M]],
// CHECK:      tc.mul %[[V]],
// CHECK:      %[[NEW:.*]] = tc.sub %[[W]],
// CHECK-NEXT: return %[[NEW]], %{{.*}}, %{{.*}}, %[[GLOBAL]]#1, %[[GLOBAL]]#2, %[[LR]]

// Without accumulation the data keeps its shape and the gradient function is
// inlined once; no clipping. tc.all_reduce sums in place, so the token count,
// a constant here, is first added to 0 into a value of its own.
// ONE-LABEL: func.func @train_step_2(
// ONE-SAME:  %[[W:arg[0-9]+]]: tensor<3xf32> {{.*}}, %[[X:arg[0-9]+]]: tensor<2x3xf32> {tc.input = "x"}, %{{.*}}: tensor<2xi64> {tc.input = "rng"})
// ONE-NEXT:  tc.mul %[[X]], %[[W]]
// ONE-NOT:   tc.slice %[[X]]
// ONE:       %[[N:.*]] = tc.constant dense<6> : tensor<i32>
// ONE:       %[[ZERO:.*]] = tc.constant dense<0> : tensor<i32>
// ONE-NEXT:  %[[OWN:.*]] = tc.add %[[N]], %[[ZERO]]
// ONE-NEXT:  tc.all_reduce %{{.*}}, %{{.*}}, %[[OWN]] : tensor<3xf32>, tensor<f32>, tensor<i32>
// ONE-NOT:   tc.sqrt {{.*}} : tensor<f32>
// ONE:       return
func.func @forward_2(%w: tensor<3xf32> {tc.param = "w", tc.init = #tc.init<zeros>},
                     %x: tensor<2x3xf32> {tc.input = "x"},
                     %rng: tensor<2xi64> {tc.input = "rng"}) -> (tensor<f32>, tensor<i32>) {
  %y = tc.mul %x, %w : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %l = tc.reduce_sum %y axes = [0, 1] : tensor<2x3xf32> -> tensor<f32>
  %n = tc.constant dense<6> : tensor<i32>
  return %l, %n : tensor<f32>, tensor<i32>
}
