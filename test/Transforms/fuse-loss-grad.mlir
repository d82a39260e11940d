// RUN: tc-opt %s --split-input-file --tc-fuse-loss-grad | FileCheck %s
// RUN: tc-opt %s --split-input-file --tc-fuse-loss-grad | tc-opt --split-input-file --verify-each > /dev/null

// A training step's loss and its gradient (the seed a constant between
// them) -> one tc.cross_entropy_with_grad at the gradient's place.
// CHECK-LABEL: func.func @step(
// CHECK-NEXT:    %[[SEED:.*]] = tc.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[G:.*]], %[[L:.*]], %[[T:.*]] = tc.cross_entropy_with_grad %arg0, %arg1, %[[SEED]] label_smoothing = 1.000000e-01 ignore_index = 0 : tensor<5x7xf32>, tensor<5xi32>, tensor<f32> -> tensor<f32>, tensor<i32>
// CHECK-NEXT:    return %[[L]], %[[T]], %[[G]]
func.func @step(%logits: tensor<5x7xf32>, %targets: tensor<5xi32>)
    -> (tensor<f32>, tensor<i32>, tensor<5x7xf32>) {
  %loss, %tokens = tc.cross_entropy %logits, %targets label_smoothing = 0.1 ignore_index = 0 : tensor<5x7xf32>, tensor<5xi32> -> tensor<f32>, tensor<i32>
  %seed = tc.constant dense<1.0> : tensor<f32>
  %grad = tc.cross_entropy_grad %logits, %targets, %seed label_smoothing = 0.1 ignore_index = 0 : tensor<5x7xf32>, tensor<5xi32>, tensor<f32>
  return %loss, %tokens, %grad : tensor<f32>, tensor<i32>, tensor<5x7xf32>
}

// -----

// A gradient stored narrowed (tc-fuse-convert ran first) stays narrowed.
// CHECK-LABEL: func.func @narrowed(
// CHECK:         tc.cross_entropy_with_grad %arg0, %arg1, %arg2 label_smoothing = 0.000000e+00 ignore_index = -1 : tensor<2x3x4xf32>, tensor<2x3xi32>, tensor<f32> narrowed tensor<2x3x4xbf16> -> tensor<f32>, tensor<i32>
// CHECK-NOT:     tc.cross_entropy
func.func @narrowed(%logits: tensor<2x3x4xf32>, %targets: tensor<2x3xi32>, %seed: tensor<f32>)
    -> (tensor<f32>, tensor<i32>, tensor<2x3x4xbf16>) {
  %loss, %tokens = tc.cross_entropy %logits, %targets label_smoothing = 0.0 ignore_index = -1 : tensor<2x3x4xf32>, tensor<2x3xi32> -> tensor<f32>, tensor<i32>
  %grad = tc.cross_entropy_grad %logits, %targets, %seed label_smoothing = 0.0 ignore_index = -1 : tensor<2x3x4xf32>, tensor<2x3xi32>, tensor<f32> narrowed tensor<2x3x4xbf16>
  return %loss, %tokens, %grad : tensor<f32>, tensor<i32>, tensor<2x3x4xbf16>
}

// -----

// Not fused: the seed is the loss (it depends on it).
// CHECK-LABEL: func.func @seed_is_the_loss(
// CHECK-NOT:     tc.cross_entropy_with_grad
// CHECK:         return
func.func @seed_is_the_loss(%logits: tensor<5x7xf32>, %targets: tensor<5xi32>) -> tensor<5x7xf32> {
  %loss, %tokens = tc.cross_entropy %logits, %targets label_smoothing = 0.1 ignore_index = 0 : tensor<5x7xf32>, tensor<5xi32> -> tensor<f32>, tensor<i32>
  %g = tc.cross_entropy_grad %logits, %targets, %loss label_smoothing = 0.1 ignore_index = 0 : tensor<5x7xf32>, tensor<5xi32>, tensor<f32>
  return %g : tensor<5x7xf32>
}

// -----

// Not fused: the loss is read before the gradient.
// CHECK-LABEL: func.func @loss_read_first(
// CHECK-NOT:     tc.cross_entropy_with_grad
// CHECK:         return
func.func @loss_read_first(%logits: tensor<5x7xf32>, %targets: tensor<5xi32>, %seed: tensor<f32>)
    -> (tensor<f32>, tensor<5x7xf32>) {
  %loss, %tokens = tc.cross_entropy %logits, %targets label_smoothing = 0.1 ignore_index = 0 : tensor<5x7xf32>, tensor<5xi32> -> tensor<f32>, tensor<i32>
  %twice = tc.add %loss, %loss : tensor<f32>, tensor<f32> -> tensor<f32>
  %g = tc.cross_entropy_grad %logits, %targets, %seed label_smoothing = 0.1 ignore_index = 0 : tensor<5x7xf32>, tensor<5xi32>, tensor<f32>
  return %twice, %g : tensor<f32>, tensor<5x7xf32>
}

// -----

// Not fused: another smoothing, another ignored index, other targets, a
// gradient before its loss, a loss alone (validation).
// CHECK-LABEL: func.func @not_the_same_loss(
// CHECK-NOT:     tc.cross_entropy_with_grad
// CHECK:         return
func.func @not_the_same_loss(%logits: tensor<5x7xf32>, %targets: tensor<5xi32>,
                             %other: tensor<5xi32>, %seed: tensor<f32>)
    -> (tensor<f32>, tensor<5x7xf32>, tensor<5x7xf32>, tensor<5x7xf32>, tensor<5x7xf32>, tensor<f32>) {
  %g0 = tc.cross_entropy_grad %logits, %other, %seed label_smoothing = 0.3 ignore_index = 0 : tensor<5x7xf32>, tensor<5xi32>, tensor<f32>
  %loss, %tokens = tc.cross_entropy %logits, %targets label_smoothing = 0.1 ignore_index = 0 : tensor<5x7xf32>, tensor<5xi32> -> tensor<f32>, tensor<i32>
  %g1 = tc.cross_entropy_grad %logits, %targets, %seed label_smoothing = 0.2 ignore_index = 0 : tensor<5x7xf32>, tensor<5xi32>, tensor<f32>
  %g2 = tc.cross_entropy_grad %logits, %targets, %seed label_smoothing = 0.1 ignore_index = 1 : tensor<5x7xf32>, tensor<5xi32>, tensor<f32>
  %g3 = tc.cross_entropy_grad %logits, %other, %seed label_smoothing = 0.1 ignore_index = 0 : tensor<5x7xf32>, tensor<5xi32>, tensor<f32>
  %l2, %t2 = tc.cross_entropy %logits, %other label_smoothing = 0.3 ignore_index = 0 : tensor<5x7xf32>, tensor<5xi32> -> tensor<f32>, tensor<i32>
  return %loss, %g0, %g1, %g2, %g3, %l2 : tensor<f32>, tensor<5x7xf32>, tensor<5x7xf32>, tensor<5x7xf32>, tensor<5x7xf32>, tensor<f32>
}

// -----

// Two gradients of one loss (another seed): the first fuses, the second
// stays (the loss is taken).
// CHECK-LABEL: func.func @two_gradients(
// CHECK:         tc.cross_entropy_with_grad %arg0, %arg1, %arg2
// CHECK-NEXT:    tc.cross_entropy_grad %arg0, %arg1, %arg3
// CHECK-NOT:     tc.cross_entropy_with_grad
func.func @two_gradients(%logits: tensor<5x7xf32>, %targets: tensor<5xi32>, %s1: tensor<f32>, %s2: tensor<f32>)
    -> (tensor<f32>, tensor<5x7xf32>, tensor<5x7xf32>) {
  %loss, %tokens = tc.cross_entropy %logits, %targets label_smoothing = 0.1 ignore_index = 0 : tensor<5x7xf32>, tensor<5xi32> -> tensor<f32>, tensor<i32>
  %g1 = tc.cross_entropy_grad %logits, %targets, %s1 label_smoothing = 0.1 ignore_index = 0 : tensor<5x7xf32>, tensor<5xi32>, tensor<f32>
  %g2 = tc.cross_entropy_grad %logits, %targets, %s2 label_smoothing = 0.1 ignore_index = 0 : tensor<5x7xf32>, tensor<5xi32>, tensor<f32>
  return %loss, %g1, %g2 : tensor<f32>, tensor<5x7xf32>, tensor<5x7xf32>
}
