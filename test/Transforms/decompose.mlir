// tc-decompose expands tc.softmax and tc.layer_norm into the primitive ops
// they are defined by; ops= restricts it to some of them. (An unknown name in
// ops= is tested in decompose-unknown-op.mlir.)

// RUN: tc-opt %s --tc-decompose | FileCheck %s
// RUN: tc-opt %s --tc-decompose=ops=softmax,layer_norm | FileCheck %s
// RUN: tc-opt %s --tc-decompose=ops=softmax | FileCheck %s --check-prefix=SOFTMAX
// RUN: tc-opt %s --tc-decompose=ops=layer_norm | FileCheck %s --check-prefix=LN
// The expansion verifies and round-trips.
// RUN: tc-opt %s --tc-decompose | tc-opt | FileCheck %s

// Softmax over the last axis: max, shift, exp, sum, divide, all along axis 2
// with keep_dims so that the reductions broadcast back.
// CHECK-LABEL: func.func @softmax_last(
// CHECK-SAME: [[X:%.*]]: tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
// CHECK-NEXT: [[MAX:%.*]] = tc.reduce_max [[X]] axes = [2] keep_dims : tensor<2x8x4xf32> -> tensor<2x8x1xf32>
// CHECK-NEXT: [[SHIFTED:%.*]] = tc.sub [[X]], [[MAX]] : tensor<2x8x4xf32>, tensor<2x8x1xf32> -> tensor<2x8x4xf32>
// CHECK-NEXT: [[EXP:%.*]] = tc.exp [[SHIFTED]] : tensor<2x8x4xf32>
// CHECK-NEXT: [[SUM:%.*]] = tc.reduce_sum [[EXP]] axes = [2] keep_dims : tensor<2x8x4xf32> -> tensor<2x8x1xf32>
// CHECK-NEXT: [[DIV:%.*]] = tc.div [[EXP]], [[SUM]] : tensor<2x8x4xf32>, tensor<2x8x1xf32> -> tensor<2x8x4xf32>
// CHECK-NEXT: return [[DIV]] : tensor<2x8x4xf32>
// CHECK-NOT: tc.softmax
// SOFTMAX-LABEL: func.func @softmax_last(
// SOFTMAX-NOT: tc.softmax
// SOFTMAX: tc.reduce_max {{.*}} axes = [2] keep_dims
// SOFTMAX-NOT: tc.softmax
// SOFTMAX: return
// LN-LABEL: func.func @softmax_last(
// LN-NEXT: tc.softmax {{.*}} axis = 2 : tensor<2x8x4xf32>
// LN-NEXT: return
func.func @softmax_last(%x: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %0 = tc.softmax %x axis = 2 : tensor<2x8x4xf32>
  return %0 : tensor<2x8x4xf32>
}

// Softmax over a middle axis: the reductions are along axis 1 and keep it as
// 1, so the sub and div broadcast over [2, 1, 4].
// CHECK-LABEL: func.func @softmax_middle(
// CHECK-SAME: [[X:%.*]]: tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
// CHECK-NEXT: [[MAX:%.*]] = tc.reduce_max [[X]] axes = [1] keep_dims : tensor<2x8x4xf32> -> tensor<2x1x4xf32>
// CHECK-NEXT: [[SHIFTED:%.*]] = tc.sub [[X]], [[MAX]] : tensor<2x8x4xf32>, tensor<2x1x4xf32> -> tensor<2x8x4xf32>
// CHECK-NEXT: [[EXP:%.*]] = tc.exp [[SHIFTED]] : tensor<2x8x4xf32>
// CHECK-NEXT: [[SUM:%.*]] = tc.reduce_sum [[EXP]] axes = [1] keep_dims : tensor<2x8x4xf32> -> tensor<2x1x4xf32>
// CHECK-NEXT: [[DIV:%.*]] = tc.div [[EXP]], [[SUM]] : tensor<2x8x4xf32>, tensor<2x1x4xf32> -> tensor<2x8x4xf32>
// CHECK-NEXT: return [[DIV]] : tensor<2x8x4xf32>
// SOFTMAX-LABEL: func.func @softmax_middle(
// SOFTMAX-NEXT: tc.reduce_max {{.*}} axes = [1] keep_dims : tensor<2x8x4xf32> -> tensor<2x1x4xf32>
// LN-LABEL: func.func @softmax_middle(
// LN-NEXT: tc.softmax {{.*}} axis = 1 : tensor<2x8x4xf32>
func.func @softmax_middle(%x: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %0 = tc.softmax %x axis = 1 : tensor<2x8x4xf32>
  return %0 : tensor<2x8x4xf32>
}

// Layer norm: mean, centre, biased variance, + epsilon (a rank-0 constant of
// the element type), rsqrt, normalise, scale by gamma, shift by beta.
// CHECK-LABEL: func.func @layer_norm(
// CHECK-SAME: [[X:%.*]]: tensor<2x5x8xf32>, [[G:%.*]]: tensor<8xf32>, [[B:%.*]]: tensor<8xf32>) -> tensor<2x5x8xf32>
// CHECK-NEXT: [[MEAN:%.*]] = tc.reduce_mean [[X]] axes = [2] keep_dims : tensor<2x5x8xf32> -> tensor<2x5x1xf32>
// CHECK-NEXT: [[CENTERED:%.*]] = tc.sub [[X]], [[MEAN]] : tensor<2x5x8xf32>, tensor<2x5x1xf32> -> tensor<2x5x8xf32>
// CHECK-NEXT: [[SQUARED:%.*]] = tc.mul [[CENTERED]], [[CENTERED]] : tensor<2x5x8xf32>, tensor<2x5x8xf32> -> tensor<2x5x8xf32>
// CHECK-NEXT: [[VAR:%.*]] = tc.reduce_mean [[SQUARED]] axes = [2] keep_dims : tensor<2x5x8xf32> -> tensor<2x5x1xf32>
// CHECK-NEXT: [[EPS:%.*]] = tc.constant dense<2.500000e-01> : tensor<f32>
// CHECK-NEXT: [[VAREPS:%.*]] = tc.add [[VAR]], [[EPS]] : tensor<2x5x1xf32>, tensor<f32> -> tensor<2x5x1xf32>
// CHECK-NEXT: [[RSTD:%.*]] = tc.rsqrt [[VAREPS]] : tensor<2x5x1xf32>
// CHECK-NEXT: [[NORMED:%.*]] = tc.mul [[CENTERED]], [[RSTD]] : tensor<2x5x8xf32>, tensor<2x5x1xf32> -> tensor<2x5x8xf32>
// CHECK-NEXT: [[SCALED:%.*]] = tc.mul [[NORMED]], [[G]] : tensor<2x5x8xf32>, tensor<8xf32> -> tensor<2x5x8xf32>
// CHECK-NEXT: [[Y:%.*]] = tc.add [[SCALED]], [[B]] : tensor<2x5x8xf32>, tensor<8xf32> -> tensor<2x5x8xf32>
// CHECK-NEXT: return [[Y]] : tensor<2x5x8xf32>
// CHECK-NOT: tc.layer_norm
// With ops=softmax, layer_norm is left alone.
// SOFTMAX-LABEL: func.func @layer_norm(
// SOFTMAX-SAME: [[X:%.*]]: tensor<2x5x8xf32>, [[G:%.*]]: tensor<8xf32>, [[B:%.*]]: tensor<8xf32>) -> tensor<2x5x8xf32>
// SOFTMAX-NEXT: [[Y:%.*]] = tc.layer_norm [[X]], [[G]], [[B]] epsilon = 2.500000e-01 : tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>
// SOFTMAX-NEXT: return [[Y]] : tensor<2x5x8xf32>
// LN-LABEL: func.func @layer_norm(
// LN-NEXT: tc.reduce_mean
// LN-NOT: tc.layer_norm
func.func @layer_norm(%x: tensor<2x5x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>)
    -> tensor<2x5x8xf32> {
  %y = tc.layer_norm %x, %g, %b epsilon = 0.25
      : tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>
  return %y : tensor<2x5x8xf32>
}

// Layer norm in f16 over a rank-2 input: epsilon becomes an f16 constant and
// the reductions are along axis 1.
// CHECK-LABEL: func.func @layer_norm_f16(
// CHECK-SAME: [[X:%.*]]: tensor<4x8xf16>, [[G:%.*]]: tensor<8xf16>, [[B:%.*]]: tensor<8xf16>) -> tensor<4x8xf16>
// CHECK-NEXT: [[MEAN:%.*]] = tc.reduce_mean [[X]] axes = [1] keep_dims : tensor<4x8xf16> -> tensor<4x1xf16>
// CHECK-NEXT: [[CENTERED:%.*]] = tc.sub [[X]], [[MEAN]] : tensor<4x8xf16>, tensor<4x1xf16> -> tensor<4x8xf16>
// CHECK-NEXT: [[SQUARED:%.*]] = tc.mul [[CENTERED]], [[CENTERED]] : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
// CHECK-NEXT: [[VAR:%.*]] = tc.reduce_mean [[SQUARED]] axes = [1] keep_dims : tensor<4x8xf16> -> tensor<4x1xf16>
// CHECK-NEXT: [[EPS:%.*]] = tc.constant dense<1.250000e-01> : tensor<f16>
// CHECK-NEXT: [[VAREPS:%.*]] = tc.add [[VAR]], [[EPS]] : tensor<4x1xf16>, tensor<f16> -> tensor<4x1xf16>
// CHECK-NEXT: [[RSTD:%.*]] = tc.rsqrt [[VAREPS]] : tensor<4x1xf16>
// CHECK-NEXT: [[NORMED:%.*]] = tc.mul [[CENTERED]], [[RSTD]] : tensor<4x8xf16>, tensor<4x1xf16> -> tensor<4x8xf16>
// CHECK-NEXT: [[SCALED:%.*]] = tc.mul [[NORMED]], [[G]] : tensor<4x8xf16>, tensor<8xf16> -> tensor<4x8xf16>
// CHECK-NEXT: [[Y:%.*]] = tc.add [[SCALED]], [[B]] : tensor<4x8xf16>, tensor<8xf16> -> tensor<4x8xf16>
// CHECK-NEXT: return [[Y]] : tensor<4x8xf16>
// SOFTMAX-LABEL: func.func @layer_norm_f16(
// SOFTMAX-NEXT: tc.layer_norm
// LN-LABEL: func.func @layer_norm_f16(
// LN-NEXT: tc.reduce_mean {{.*}} axes = [1] keep_dims : tensor<4x8xf16> -> tensor<4x1xf16>
func.func @layer_norm_f16(%x: tensor<4x8xf16>, %g: tensor<8xf16>, %b: tensor<8xf16>)
    -> tensor<4x8xf16> {
  %y = tc.layer_norm %x, %g, %b epsilon = 0.125
      : tensor<4x8xf16>, tensor<8xf16>, tensor<8xf16>
  return %y : tensor<4x8xf16>
}

// Ops other than softmax and layer_norm are untouched, and a softmax feeding
// a layer_norm is expanded in program order.
// CHECK-LABEL: func.func @mixed(
// CHECK-SAME: [[X:%.*]]: tensor<3x4xf32>, [[G:%.*]]: tensor<4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: [[T:%.*]] = tc.tanh [[X]] : tensor<3x4xf32>
// CHECK-NEXT: [[MAX:%.*]] = tc.reduce_max [[T]] axes = [1] keep_dims
// CHECK-NEXT: [[SH:%.*]] = tc.sub [[T]], [[MAX]]
// CHECK-NEXT: [[E:%.*]] = tc.exp [[SH]]
// CHECK-NEXT: [[SUM:%.*]] = tc.reduce_sum [[E]] axes = [1] keep_dims
// CHECK-NEXT: [[P:%.*]] = tc.div [[E]], [[SUM]]
// CHECK-NEXT: [[MEAN:%.*]] = tc.reduce_mean [[P]] axes = [1] keep_dims
// CHECK-NEXT: [[C:%.*]] = tc.sub [[P]], [[MEAN]]
// CHECK-NEXT: [[SQ:%.*]] = tc.mul [[C]], [[C]]
// CHECK-NEXT: [[VAR:%.*]] = tc.reduce_mean [[SQ]] axes = [1] keep_dims
// CHECK-NEXT: [[EPS:%.*]] = tc.constant dense<9.99999974E-6> : tensor<f32>
// CHECK-NEXT: [[VE:%.*]] = tc.add [[VAR]], [[EPS]]
// CHECK-NEXT: [[R:%.*]] = tc.rsqrt [[VE]]
// CHECK-NEXT: [[N:%.*]] = tc.mul [[C]], [[R]]
// CHECK-NEXT: [[S:%.*]] = tc.mul [[N]], [[G]]
// CHECK-NEXT: [[Y:%.*]] = tc.add [[S]], [[G]]
// CHECK-NEXT: return [[Y]]
// SOFTMAX-LABEL: func.func @mixed(
// SOFTMAX-NEXT: tc.tanh
// SOFTMAX-NEXT: tc.reduce_max
// SOFTMAX: tc.div
// SOFTMAX-NEXT: tc.layer_norm
// SOFTMAX-NEXT: return
// LN-LABEL: func.func @mixed(
// LN-NEXT: tc.tanh
// LN-NEXT: [[P:%.*]] = tc.softmax
// LN-NEXT: tc.reduce_mean [[P]]
func.func @mixed(%x: tensor<3x4xf32>, %g: tensor<4xf32>) -> tensor<3x4xf32> {
  %t = tc.tanh %x : tensor<3x4xf32>
  %p = tc.softmax %t axis = 1 : tensor<3x4xf32>
  %y = tc.layer_norm %p, %g, %g epsilon = 1.0e-05
      : tensor<3x4xf32>, tensor<4xf32>, tensor<4xf32>
  return %y : tensor<3x4xf32>
}
