// Round trip of the newer tc operations: tc.min, tc.split, the gradient ops
// built by tc-autodiff, and the ops built by the fusion passes (tc.linear,
// tc.residual_layer_norm(_grad), tc.masked_softmax(_grad), tc.embed, tc.adam,
// tc.fused). The custom form parses and prints back unchanged (1), printing
// and parsing again is stable (2), and the generic form parses back to the
// same custom form (3). The CHECK lines spell out the printed form of each
// op, so a change to an assembly format fails here.

// RUN: tc-opt %s | FileCheck %s
// RUN: tc-opt %s | tc-opt | FileCheck %s
// RUN: tc-opt %s --mlir-print-op-generic | tc-opt | FileCheck %s

//===----------------------------------------------------------------------===//
// Elementwise minimum and split
//===----------------------------------------------------------------------===//

// Min with equal shapes, a broadcast row, a scalar, and on i32 and i64.
// CHECK-LABEL: func.func @min(
// CHECK-SAME: [[X:%.*]]: tensor<2x3xf32>, [[B:%.*]]: tensor<3xf32>, [[S:%.*]]: tensor<f32>, [[I:%.*]]: tensor<4xi32>, [[J:%.*]]: tensor<i64>)
// CHECK-NEXT: [[M0:%.*]] = tc.min [[X]], [[X]] : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT: [[M1:%.*]] = tc.min [[B]], [[M0]] : tensor<3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT: [[M2:%.*]] = tc.min [[M1]], [[S]] : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
// CHECK-NEXT: [[M3:%.*]] = tc.min [[I]], [[I]] : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
// CHECK-NEXT: [[M4:%.*]] = tc.min [[J]], [[J]] : tensor<i64>, tensor<i64> -> tensor<i64>
// CHECK-NEXT: return [[M2]], [[M3]], [[M4]] : tensor<2x3xf32>, tensor<4xi32>, tensor<i64>
func.func @min(%x: tensor<2x3xf32>, %b: tensor<3xf32>, %s: tensor<f32>,
               %i: tensor<4xi32>, %j: tensor<i64>)
    -> (tensor<2x3xf32>, tensor<4xi32>, tensor<i64>) {
  %0 = tc.min %x, %x : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = tc.min %b, %0 : tensor<3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %2 = tc.min %1, %s : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
  %3 = tc.min %i, %i : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  %4 = tc.min %j, %j : tensor<i64>, tensor<i64> -> tensor<i64>
  return %2, %3, %4 : tensor<2x3xf32>, tensor<4xi32>, tensor<i64>
}

// Split along axis 0 into two uneven pieces, along a middle axis into three
// uneven pieces, an i1 mask into halves, and into a single piece.
// CHECK-LABEL: func.func @split(
// CHECK-SAME: [[X:%.*]]: tensor<6x4xf32>, [[Y:%.*]]: tensor<2x7x4xf32>, [[M:%.*]]: tensor<4x4xi1>)
// CHECK-NEXT: [[A:%.*]]:2 = tc.split [[X]] axis = 0 : tensor<6x4xf32> -> tensor<2x4xf32>, tensor<4x4xf32>
// CHECK-NEXT: [[B:%.*]]:3 = tc.split [[Y]] axis = 1 : tensor<2x7x4xf32> -> tensor<2x1x4xf32>, tensor<2x4x4xf32>, tensor<2x2x4xf32>
// CHECK-NEXT: [[C:%.*]]:2 = tc.split [[M]] axis = 1 : tensor<4x4xi1> -> tensor<4x2xi1>, tensor<4x2xi1>
// CHECK-NEXT: [[D:%.*]] = tc.split [[X]] axis = 1 : tensor<6x4xf32> -> tensor<6x4xf32>
// CHECK-NEXT: return [[A]]#1, [[B]]#0, [[B]]#2, [[C]]#1, [[D]] : tensor<4x4xf32>, tensor<2x1x4xf32>, tensor<2x2x4xf32>, tensor<4x2xi1>, tensor<6x4xf32>
func.func @split(%x: tensor<6x4xf32>, %y: tensor<2x7x4xf32>, %m: tensor<4x4xi1>)
    -> (tensor<4x4xf32>, tensor<2x1x4xf32>, tensor<2x2x4xf32>, tensor<4x2xi1>,
        tensor<6x4xf32>) {
  %a:2 = tc.split %x axis = 0 : tensor<6x4xf32> -> tensor<2x4xf32>, tensor<4x4xf32>
  %b:3 = tc.split %y axis = 1
      : tensor<2x7x4xf32> -> tensor<2x1x4xf32>, tensor<2x4x4xf32>, tensor<2x2x4xf32>
  %c:2 = tc.split %m axis = 1 : tensor<4x4xi1> -> tensor<4x2xi1>, tensor<4x2xi1>
  %d = tc.split %x axis = 1 : tensor<6x4xf32> -> tensor<6x4xf32>
  return %a#1, %b#0, %b#2, %c#1, %d
      : tensor<4x4xf32>, tensor<2x1x4xf32>, tensor<2x2x4xf32>, tensor<4x2xi1>,
        tensor<6x4xf32>
}

//===----------------------------------------------------------------------===//
// Gradients (built by tc-autodiff)
//===----------------------------------------------------------------------===//

// Softmax gradient along the last axis and along a middle axis.
// CHECK-LABEL: func.func @softmax_grad(
// CHECK-SAME: [[Y:%.*]]: tensor<2x8x4x4xf32>, [[DY:%.*]]: tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
// CHECK-NEXT: [[DX:%.*]] = tc.softmax_grad [[Y]], [[DY]] axis = 3 : tensor<2x8x4x4xf32>
// CHECK-NEXT: [[DX1:%.*]] = tc.softmax_grad [[Y]], [[DX]] axis = 1 : tensor<2x8x4x4xf32>
// CHECK-NEXT: return [[DX1]] : tensor<2x8x4x4xf32>
func.func @softmax_grad(%y: tensor<2x8x4x4xf32>, %dy: tensor<2x8x4x4xf32>)
    -> tensor<2x8x4x4xf32> {
  %dx = tc.softmax_grad %y, %dy axis = 3 : tensor<2x8x4x4xf32>
  %dx1 = tc.softmax_grad %y, %dx axis = 1 : tensor<2x8x4x4xf32>
  return %dx1 : tensor<2x8x4x4xf32>
}

// LayerNorm gradient: three results, in f32 and in f16.
// CHECK-LABEL: func.func @layer_norm_grad(
// CHECK-SAME: [[X:%.*]]: tensor<2x5x8xf32>, [[G:%.*]]: tensor<8xf32>, [[DY:%.*]]: tensor<2x5x8xf32>, [[H:%.*]]: tensor<3x4xf16>, [[GH:%.*]]: tensor<4xf16>)
// CHECK-NEXT: [[DX:%.*]], [[DG:%.*]], [[DB:%.*]] = tc.layer_norm_grad [[X]], [[G]], [[DY]] epsilon = 1.000000e-05 : tensor<2x5x8xf32>, tensor<8xf32>
// CHECK-NEXT: tc.layer_norm_grad [[H]], [[GH]], [[H]] epsilon = 1.000000e-03 : tensor<3x4xf16>, tensor<4xf16>
// CHECK-NEXT: return [[DX]], [[DG]], [[DB]] : tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>
func.func @layer_norm_grad(%x: tensor<2x5x8xf32>, %g: tensor<8xf32>, %dy: tensor<2x5x8xf32>,
                           %h: tensor<3x4xf16>, %gh: tensor<4xf16>)
    -> (tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %dx, %dg, %db = tc.layer_norm_grad %x, %g, %dy epsilon = 1.0e-05
      : tensor<2x5x8xf32>, tensor<8xf32>
  %0:3 = tc.layer_norm_grad %h, %gh, %h epsilon = 1.0e-03 : tensor<3x4xf16>, tensor<4xf16>
  return %dx, %dg, %db : tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>
}

// Cross-entropy gradient, with and without label smoothing, for logits of
// rank 3 and rank 1.
// CHECK-LABEL: func.func @cross_entropy_grad(
// CHECK-SAME: [[L:%.*]]: tensor<2x5x100xf32>, [[T:%.*]]: tensor<2x5xi32>, [[DL:%.*]]: tensor<f32>, [[L1:%.*]]: tensor<100xbf16>, [[T1:%.*]]: tensor<i32>, [[DL1:%.*]]: tensor<bf16>) -> tensor<2x5x100xf32>
// CHECK-NEXT: [[G:%.*]] = tc.cross_entropy_grad [[L]], [[T]], [[DL]] label_smoothing = 1.000000e-01 ignore_index = 0 : tensor<2x5x100xf32>, tensor<2x5xi32>, tensor<f32>
// CHECK-NEXT: tc.cross_entropy_grad [[L1]], [[T1]], [[DL1]] label_smoothing = 0.000000e+00 ignore_index = -100 : tensor<100xbf16>, tensor<i32>, tensor<bf16>
// CHECK-NEXT: return [[G]] : tensor<2x5x100xf32>
func.func @cross_entropy_grad(%logits: tensor<2x5x100xf32>, %targets: tensor<2x5xi32>,
                              %dloss: tensor<f32>, %l1: tensor<100xbf16>,
                              %t1: tensor<i32>, %dl1: tensor<bf16>)
    -> tensor<2x5x100xf32> {
  %g = tc.cross_entropy_grad %logits, %targets, %dloss label_smoothing = 1.0e-01
      ignore_index = 0 : tensor<2x5x100xf32>, tensor<2x5xi32>, tensor<f32>
  %0 = tc.cross_entropy_grad %l1, %t1, %dl1 label_smoothing = 0.0 ignore_index = -100
      : tensor<100xbf16>, tensor<i32>, tensor<bf16>
  return %g : tensor<2x5x100xf32>
}

// The loss and its gradient together (tc-fuse-loss-grad), the gradient f32
// and narrowed to bf16.
// CHECK-LABEL: func.func @cross_entropy_with_grad(
// CHECK-NEXT: [[G:%.*]], [[LOSS:%.*]], [[N:%.*]] = tc.cross_entropy_with_grad %arg0, %arg1, %arg2 label_smoothing = 1.000000e-01 ignore_index = 0 : tensor<2x5x100xf32>, tensor<2x5xi32>, tensor<f32> -> tensor<f32>, tensor<i32>
// CHECK-NEXT: tc.cross_entropy_with_grad %arg0, %arg1, %arg2 label_smoothing = 0.000000e+00 ignore_index = -100 : tensor<2x5x100xf32>, tensor<2x5xi32>, tensor<f32> narrowed tensor<2x5x100xbf16> -> tensor<f32>, tensor<i32>
// CHECK-NEXT: return [[G]], [[LOSS]], [[N]]
func.func @cross_entropy_with_grad(%logits: tensor<2x5x100xf32>, %targets: tensor<2x5xi32>,
                                   %dloss: tensor<f32>)
    -> (tensor<2x5x100xf32>, tensor<f32>, tensor<i32>) {
  %g, %loss, %n = tc.cross_entropy_with_grad %logits, %targets, %dloss label_smoothing = 1.0e-01
      ignore_index = 0 : tensor<2x5x100xf32>, tensor<2x5xi32>, tensor<f32> -> tensor<f32>, tensor<i32>
  %0:3 = tc.cross_entropy_with_grad %logits, %targets, %dloss label_smoothing = 0.0 ignore_index = -100
      : tensor<2x5x100xf32>, tensor<2x5xi32>, tensor<f32> narrowed tensor<2x5x100xbf16> -> tensor<f32>, tensor<i32>
  return %g, %loss, %n : tensor<2x5x100xf32>, tensor<f32>, tensor<i32>
}

// The embedding gradient added onto a base table (tc-fuse-embedding-grad).
// CHECK-LABEL: func.func @embedding_grad_add(
// CHECK-NEXT: [[R:%.*]] = tc.embedding_grad_add %arg0, %arg1, %arg2 : tensor<100x8xf32>, tensor<2x5xi32>, tensor<2x5x8xf32>
// CHECK-NEXT: return [[R]]
func.func @embedding_grad_add(%base: tensor<100x8xf32>, %ids: tensor<2x5xi32>,
                              %dy: tensor<2x5x8xf32>) -> tensor<100x8xf32> {
  %r = tc.embedding_grad_add %base, %ids, %dy
      : tensor<100x8xf32>, tensor<2x5xi32>, tensor<2x5x8xf32>
  return %r : tensor<100x8xf32>
}

// Embedding gradient (the table's scatter-add) for ids of rank 2 and rank 0.
// CHECK-LABEL: func.func @embedding_grad(
// CHECK-SAME: [[IDS:%.*]]: tensor<2x5xi32>, [[DY:%.*]]: tensor<2x5x8xf32>, [[ID:%.*]]: tensor<i32>, [[DR:%.*]]: tensor<8xf32>) -> tensor<100x8xf32>
// CHECK-NEXT: [[DT:%.*]] = tc.embedding_grad [[IDS]], [[DY]] : tensor<2x5xi32>, tensor<2x5x8xf32> -> tensor<100x8xf32>
// CHECK-NEXT: tc.embedding_grad [[ID]], [[DR]] : tensor<i32>, tensor<8xf32> -> tensor<10x8xf32>
// CHECK-NEXT: return [[DT]] : tensor<100x8xf32>
func.func @embedding_grad(%ids: tensor<2x5xi32>, %dy: tensor<2x5x8xf32>, %id: tensor<i32>,
                          %dr: tensor<8xf32>) -> tensor<100x8xf32> {
  %dt = tc.embedding_grad %ids, %dy
      : tensor<2x5xi32>, tensor<2x5x8xf32> -> tensor<100x8xf32>
  %0 = tc.embedding_grad %id, %dr : tensor<i32>, tensor<8xf32> -> tensor<10x8xf32>
  return %dt : tensor<100x8xf32>
}

//===----------------------------------------------------------------------===//
// Fused ops (built by the fusion passes)
//===----------------------------------------------------------------------===//

// Linear on rank 2 and rank 3 inputs, each with and without the ReLU
// epilogue.
// CHECK-LABEL: func.func @linear(
// CHECK-SAME: [[X2:%.*]]: tensor<5x8xf32>, [[X3:%.*]]: tensor<2x5x8xf32>, [[W:%.*]]: tensor<32x8xf32>, [[B:%.*]]: tensor<32xf32>)
// CHECK-NEXT: [[Y0:%.*]] = tc.linear [[X2]], [[W]], [[B]] : tensor<5x8xf32>, tensor<32x8xf32>, tensor<32xf32> -> tensor<5x32xf32>
// CHECK-NEXT: [[Y1:%.*]] = tc.linear [[X2]], [[W]], [[B]] {relu} : tensor<5x8xf32>, tensor<32x8xf32>, tensor<32xf32> -> tensor<5x32xf32>
// CHECK-NEXT: [[Y2:%.*]] = tc.linear [[X3]], [[W]], [[B]] : tensor<2x5x8xf32>, tensor<32x8xf32>, tensor<32xf32> -> tensor<2x5x32xf32>
// CHECK-NEXT: [[Y3:%.*]] = tc.linear [[X3]], [[W]], [[B]] {relu} : tensor<2x5x8xf32>, tensor<32x8xf32>, tensor<32xf32> -> tensor<2x5x32xf32>
// CHECK-NEXT: return [[Y0]], [[Y1]], [[Y2]], [[Y3]] : tensor<5x32xf32>, tensor<5x32xf32>, tensor<2x5x32xf32>, tensor<2x5x32xf32>
func.func @linear(%x2: tensor<5x8xf32>, %x3: tensor<2x5x8xf32>, %w: tensor<32x8xf32>,
                  %b: tensor<32xf32>)
    -> (tensor<5x32xf32>, tensor<5x32xf32>, tensor<2x5x32xf32>, tensor<2x5x32xf32>) {
  %0 = tc.linear %x2, %w, %b : tensor<5x8xf32>, tensor<32x8xf32>, tensor<32xf32> -> tensor<5x32xf32>
  %1 = tc.linear %x2, %w, %b {relu}
      : tensor<5x8xf32>, tensor<32x8xf32>, tensor<32xf32> -> tensor<5x32xf32>
  %2 = tc.linear %x3, %w, %b
      : tensor<2x5x8xf32>, tensor<32x8xf32>, tensor<32xf32> -> tensor<2x5x32xf32>
  %3 = tc.linear %x3, %w, %b {relu}
      : tensor<2x5x8xf32>, tensor<32x8xf32>, tensor<32xf32> -> tensor<2x5x32xf32>
  return %0, %1, %2, %3
      : tensor<5x32xf32>, tensor<5x32xf32>, tensor<2x5x32xf32>, tensor<2x5x32xf32>
}

// Residual LayerNorm with dropout, and with rate 0 on a rank-2 input; three
// results (the output and the row statistics).
// CHECK-LABEL: func.func @residual_layer_norm(
// CHECK-SAME: [[R:%.*]]: tensor<2x5x8xf32>, [[S:%.*]]: tensor<2x5x8xf32>, [[G:%.*]]: tensor<8xf32>, [[B:%.*]]: tensor<8xf32>, [[RNG:%.*]]: tensor<2xi64>, [[R2:%.*]]: tensor<5x8xf32>)
// CHECK-NEXT: [[Y:%.*]], [[MEAN:%.*]], [[RSTD:%.*]] = tc.residual_layer_norm [[R]], [[S]], [[G]], [[B]], [[RNG]] rate = 1.000000e-01 key = 4 epsilon = 1.000000e-05 : tensor<2x5x8xf32>, tensor<8xf32>, tensor<2xi64> -> tensor<2x5x1xf32>
// CHECK-NEXT: tc.residual_layer_norm [[R2]], [[R2]], [[G]], [[G]], [[RNG]] rate = 0.000000e+00 key = 0 epsilon = 1.000000e-03 : tensor<5x8xf32>, tensor<8xf32>, tensor<2xi64> -> tensor<5x1xf32>
// CHECK-NEXT: return [[Y]], [[MEAN]], [[RSTD]] : tensor<2x5x8xf32>, tensor<2x5x1xf32>, tensor<2x5x1xf32>
func.func @residual_layer_norm(%r: tensor<2x5x8xf32>, %s: tensor<2x5x8xf32>,
                               %g: tensor<8xf32>, %b: tensor<8xf32>,
                               %rng: tensor<2xi64>, %r2: tensor<5x8xf32>)
    -> (tensor<2x5x8xf32>, tensor<2x5x1xf32>, tensor<2x5x1xf32>) {
  %y, %mean, %rstd = tc.residual_layer_norm %r, %s, %g, %b, %rng rate = 0.1 key = 4
      epsilon = 1.0e-05 : tensor<2x5x8xf32>, tensor<8xf32>, tensor<2xi64> -> tensor<2x5x1xf32>
  %0:3 = tc.residual_layer_norm %r2, %r2, %g, %g, %rng rate = 0.0 key = 0 epsilon = 1.0e-03
      : tensor<5x8xf32>, tensor<8xf32>, tensor<2xi64> -> tensor<5x1xf32>
  return %y, %mean, %rstd : tensor<2x5x8xf32>, tensor<2x5x1xf32>, tensor<2x5x1xf32>
}

// The gradients of residual LayerNorm, from its saved row statistics; four
// results.
// CHECK-LABEL: func.func @residual_layer_norm_grad(
// CHECK-SAME: [[R:%.*]]: tensor<2x5x8xf32>, [[S:%.*]]: tensor<2x5x8xf32>, [[G:%.*]]: tensor<8xf32>, [[MEAN:%.*]]: tensor<2x5x1xf32>, [[RSTD:%.*]]: tensor<2x5x1xf32>, [[DY:%.*]]: tensor<2x5x8xf32>, [[RNG:%.*]]: tensor<2xi64>)
// CHECK-NEXT: [[DR:%.*]], [[DS:%.*]], [[DG:%.*]], [[DB:%.*]] = tc.residual_layer_norm_grad [[R]], [[S]], [[G]], [[MEAN]], [[RSTD]], [[DY]], [[RNG]] rate = 1.000000e-01 key = 4 : tensor<2x5x8xf32>, tensor<8xf32>, tensor<2x5x1xf32>, tensor<2xi64>
// CHECK-NEXT: return [[DR]], [[DS]], [[DG]], [[DB]] : tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>
func.func @residual_layer_norm_grad(%r: tensor<2x5x8xf32>, %s: tensor<2x5x8xf32>,
                                    %g: tensor<8xf32>, %mean: tensor<2x5x1xf32>,
                                    %rstd: tensor<2x5x1xf32>, %dy: tensor<2x5x8xf32>,
                                    %rng: tensor<2xi64>)
    -> (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %dr, %ds, %dg, %db = tc.residual_layer_norm_grad %r, %s, %g, %mean, %rstd, %dy, %rng
      rate = 0.1 key = 4
      : tensor<2x5x8xf32>, tensor<8xf32>, tensor<2x5x1xf32>, tensor<2xi64>
  return %dr, %ds, %dg, %db
      : tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>
}

// Masked softmax with a causal mask broadcast over batch and heads, and with
// a full-shape mask at rate 0; two results (the output and the probs).
// CHECK-LABEL: func.func @masked_softmax(
// CHECK-SAME: [[S:%.*]]: tensor<2x4x5x5xf32>, [[M:%.*]]: tensor<5x5xi1>, [[FULL:%.*]]: tensor<2x4x5x5xi1>, [[RNG:%.*]]: tensor<2xi64>)
// CHECK-NEXT: [[Y:%.*]], [[P:%.*]] = tc.masked_softmax [[S]], [[M]], [[RNG]] scale = 1.250000e-01 fill = -1.000000e+09 rate = 1.000000e-01 key = 5 : tensor<2x4x5x5xf32>, tensor<5x5xi1>, tensor<2xi64>
// CHECK-NEXT: tc.masked_softmax [[S]], [[FULL]], [[RNG]] scale = 1.000000e+00 fill = -3.000000e+04 rate = 0.000000e+00 key = 0 : tensor<2x4x5x5xf32>, tensor<2x4x5x5xi1>, tensor<2xi64>
// CHECK-NEXT: return [[Y]], [[P]] : tensor<2x4x5x5xf32>, tensor<2x4x5x5xf32>
func.func @masked_softmax(%s: tensor<2x4x5x5xf32>, %m: tensor<5x5xi1>,
                          %full: tensor<2x4x5x5xi1>, %rng: tensor<2xi64>)
    -> (tensor<2x4x5x5xf32>, tensor<2x4x5x5xf32>) {
  %y, %p = tc.masked_softmax %s, %m, %rng scale = 0.125 fill = -1.0e9 rate = 0.1 key = 5
      : tensor<2x4x5x5xf32>, tensor<5x5xi1>, tensor<2xi64>
  %0:2 = tc.masked_softmax %s, %full, %rng scale = 1.0 fill = -3.0e4 rate = 0.0 key = 0
      : tensor<2x4x5x5xf32>, tensor<2x4x5x5xi1>, tensor<2xi64>
  return %y, %p : tensor<2x4x5x5xf32>, tensor<2x4x5x5xf32>
}

// The gradient of masked softmax w.r.t. the scores.
// CHECK-LABEL: func.func @masked_softmax_grad(
// CHECK-SAME: [[P:%.*]]: tensor<2x4x5x5xf32>, [[DY:%.*]]: tensor<2x4x5x5xf32>, [[M:%.*]]: tensor<1x1x5x5xi1>, [[RNG:%.*]]: tensor<2xi64>) -> tensor<2x4x5x5xf32>
// CHECK-NEXT: [[DS:%.*]] = tc.masked_softmax_grad [[P]], [[DY]], [[M]], [[RNG]] scale = 1.250000e-01 rate = 1.000000e-01 key = 5 : tensor<2x4x5x5xf32>, tensor<1x1x5x5xi1>, tensor<2xi64>
// CHECK-NEXT: return [[DS]] : tensor<2x4x5x5xf32>
func.func @masked_softmax_grad(%p: tensor<2x4x5x5xf32>, %dy: tensor<2x4x5x5xf32>,
                               %m: tensor<1x1x5x5xi1>, %rng: tensor<2xi64>)
    -> tensor<2x4x5x5xf32> {
  %ds = tc.masked_softmax_grad %p, %dy, %m, %rng scale = 0.125 rate = 0.1 key = 5
      : tensor<2x4x5x5xf32>, tensor<1x1x5x5xi1>, tensor<2xi64>
  return %ds : tensor<2x4x5x5xf32>
}

// Embedding lookup * scale + positions, with dropout and at rate 0.
// CHECK-LABEL: func.func @embed(
// CHECK-SAME: [[T:%.*]]: tensor<100x8xf32>, [[IDS:%.*]]: tensor<2x5xi32>, [[POS:%.*]]: tensor<5x8xf32>, [[RNG:%.*]]: tensor<2xi64>) -> tensor<2x5x8xf32>
// CHECK-NEXT: [[E:%.*]] = tc.embed [[T]], [[IDS]], [[POS]], [[RNG]] scale = 2.000000e+00 rate = 1.000000e-01 key = 1 : tensor<100x8xf32>, tensor<2x5xi32>, tensor<5x8xf32>, tensor<2xi64> -> tensor<2x5x8xf32>
// CHECK-NEXT: tc.embed [[T]], [[IDS]], [[POS]], [[RNG]] scale = 1.000000e+00 rate = 0.000000e+00 key = 0 : tensor<100x8xf32>, tensor<2x5xi32>, tensor<5x8xf32>, tensor<2xi64> -> tensor<2x5x8xf32>
// CHECK-NEXT: return [[E]] : tensor<2x5x8xf32>
func.func @embed(%t: tensor<100x8xf32>, %ids: tensor<2x5xi32>, %pos: tensor<5x8xf32>,
                 %rng: tensor<2xi64>) -> tensor<2x5x8xf32> {
  %e = tc.embed %t, %ids, %pos, %rng scale = 2.0 rate = 0.1 key = 1
      : tensor<100x8xf32>, tensor<2x5xi32>, tensor<5x8xf32>, tensor<2xi64> -> tensor<2x5x8xf32>
  %0 = tc.embed %t, %ids, %pos, %rng scale = 1.0 rate = 0.0 key = 0
      : tensor<100x8xf32>, tensor<2x5xi32>, tensor<5x8xf32>, tensor<2xi64> -> tensor<2x5x8xf32>
  return %e : tensor<2x5x8xf32>
}

// One Adam step over two parameters of different shapes; the result segment
// sizes are part of the printed attribute dictionary.
// CHECK-LABEL: func.func @adam(
// CHECK-SAME: [[W:%.*]]: tensor<4x8xf32>, [[B:%.*]]: tensor<8xf32>, [[GW:%.*]]: tensor<4x8xf32>, [[GB:%.*]]: tensor<8xf32>, [[MW:%.*]]: tensor<4x8xf32>, [[MB:%.*]]: tensor<8xf32>, [[VW:%.*]]: tensor<4x8xf32>, [[VB:%.*]]: tensor<8xf32>, [[LR:%.*]]: tensor<f32>, [[C2:%.*]]: tensor<f32>, [[GS:%.*]]: tensor<f32>)
// CHECK-NEXT: [[P:%.*]]:2, [[M:%.*]]:2, [[V:%.*]]:2 = tc.adam params([[W]], [[B]] : tensor<4x8xf32>, tensor<8xf32>) grads([[GW]], [[GB]] : tensor<4x8xf32>, tensor<8xf32>) m([[MW]], [[MB]] : tensor<4x8xf32>, tensor<8xf32>) v([[VW]], [[VB]] : tensor<4x8xf32>, tensor<8xf32>) step_size([[LR]] : tensor<f32>) rsqrt_correction2([[C2]] : tensor<f32>) grad_scale([[GS]] : tensor<f32>) {beta1 = 9.000000e-01 : f64, beta2 = 0.99899999999999999 : f64, epsilon = 1.000000e-08 : f64} -> (tensor<4x8xf32>, tensor<8xf32>), (tensor<4x8xf32>, tensor<8xf32>), (tensor<4x8xf32>, tensor<8xf32>)
// CHECK-NEXT: return [[P]]#0, [[P]]#1, [[M]]#0, [[M]]#1, [[V]]#0, [[V]]#1 : tensor<4x8xf32>, tensor<8xf32>, tensor<4x8xf32>, tensor<8xf32>, tensor<4x8xf32>, tensor<8xf32>
func.func @adam(%w: tensor<4x8xf32>, %b: tensor<8xf32>, %gw: tensor<4x8xf32>,
                %gb: tensor<8xf32>, %mw: tensor<4x8xf32>, %mb: tensor<8xf32>,
                %vw: tensor<4x8xf32>, %vb: tensor<8xf32>, %lr: tensor<f32>,
                %c2: tensor<f32>, %gs: tensor<f32>)
    -> (tensor<4x8xf32>, tensor<8xf32>, tensor<4x8xf32>, tensor<8xf32>,
        tensor<4x8xf32>, tensor<8xf32>) {
  %p:2, %m:2, %v:2 = tc.adam params(%w, %b : tensor<4x8xf32>, tensor<8xf32>) grads(%gw, %gb : tensor<4x8xf32>, tensor<8xf32>) m(%mw, %mb : tensor<4x8xf32>, tensor<8xf32>) v(%vw, %vb : tensor<4x8xf32>, tensor<8xf32>) step_size(%lr : tensor<f32>) rsqrt_correction2(%c2 : tensor<f32>) grad_scale(%gs : tensor<f32>) {beta1 = 0.9, beta2 = 0.999, epsilon = 1.0e-08} -> (tensor<4x8xf32>, tensor<8xf32>), (tensor<4x8xf32>, tensor<8xf32>), (tensor<4x8xf32>, tensor<8xf32>)
  return %p#0, %p#1, %m#0, %m#1, %v#0, %v#1 : tensor<4x8xf32>, tensor<8xf32>, tensor<4x8xf32>, tensor<8xf32>, tensor<4x8xf32>, tensor<8xf32>
}

// A fused elementwise group: two inputs, a constant cloned into the body
// (the body is isolated from above), and two results.
// CHECK-LABEL: func.func @fused(
// CHECK-SAME: [[X:%[a-z0-9]+]]: tensor<4x8xf32>, [[B:%[a-z0-9]+]]: tensor<8xf32>)
// CHECK-NEXT: [[R:%.*]]:2 = tc.fused([[X]], [[B]]) : (tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
// CHECK-NEXT: ^bb0([[A:%.*]]: tensor<4x8xf32>, [[C:%.*]]: tensor<8xf32>):
// CHECK-NEXT: [[K:%.*]] = tc.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT: [[S:%.*]] = tc.add [[A]], [[C]] : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
// CHECK-NEXT: [[T:%.*]] = tc.mul [[S]], [[K]] : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
// CHECK-NEXT: [[U:%.*]] = tc.relu [[T]] : tensor<4x8xf32>
// CHECK-NEXT: tc.yield [[T]], [[U]] : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return [[R]]#0, [[R]]#1 : tensor<4x8xf32>, tensor<4x8xf32>
func.func @fused(%x: tensor<4x8xf32>, %b: tensor<8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %r:2 = tc.fused (%x, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  ^bb0(%a: tensor<4x8xf32>, %c: tensor<8xf32>):
    %k = tc.constant dense<2.0> : tensor<f32>
    %s = tc.add %a, %c : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
    %t = tc.mul %s, %k : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
    %u = tc.relu %t : tensor<4x8xf32>
    tc.yield %t, %u : tensor<4x8xf32>, tensor<4x8xf32>
  }
  return %r#0, %r#1 : tensor<4x8xf32>, tensor<4x8xf32>
}
