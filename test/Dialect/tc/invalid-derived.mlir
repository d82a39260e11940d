// Every verifier rule and type constraint of the newer tc ops (tc.min,
// tc.split, the gradient ops, and the ops built by the fusion passes), one
// case per split-input-file chunk: each chunk must produce exactly the
// diagnostic it expects, and nothing else.

// RUN: tc-opt %s --split-input-file --verify-diagnostics

//===----------------------------------------------------------------------===//
// tc.min
//===----------------------------------------------------------------------===//

// Min: the operands' last dimensions 3 and 4 do not broadcast.
func.func @min_broadcast_mismatch(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'tc.min' op operand #1 has shape [4], which does not broadcast with [2, 3] (the operands before it); dimensions aligned from the last must be equal or 1}}
  %0 = tc.min %a, %b : tensor<2x3xf32>, tensor<4xf32> -> tensor<2x3xf32>
  return
}

// -----

// Min: the result is not the broadcast shape of the operands.
func.func @min_wrong_result(%a: tensor<2x1xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'tc.min' op result has shape [2, 1] but expected [2, 3] (the broadcast shape of the operands)}}
  %0 = tc.min %a, %b : tensor<2x1xf32>, tensor<3xf32> -> tensor<2x1xf32>
  return
}

// -----

// Min: f32 and f16 operands do not mix.
func.func @min_mixed_types(%a: tensor<3xf32>, %b: tensor<3xf16>) {
  // expected-error @+1 {{'tc.min' op failed to verify that all of {lhs, rhs, result} have same element type}}
  %0 = tc.min %a, %b : tensor<3xf32>, tensor<3xf16> -> tensor<3xf32>
  return
}

// -----

// Min: i1 masks are not arithmetic tensors.
func.func @min_i1(%a: tensor<3xi1>) {
  // expected-error @+1 {{'tc.min' op operand #0 must be statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<3xi1>'}}
  %0 = tc.min %a, %a : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  return
}

// -----

//===----------------------------------------------------------------------===//
// tc.split
//===----------------------------------------------------------------------===//

// Split: the axis is past the input's last dimension.
func.func @split_axis_out_of_range(%x: tensor<6x4xf32>) {
  // expected-error @+1 {{'tc.split' op axis 2 is out of range for an operand of rank 2; expected 0 to 1}}
  %0:2 = tc.split %x axis = 2 : tensor<6x4xf32> -> tensor<3x4xf32>, tensor<3x4xf32>
  return
}

// -----

// Split: a negative axis is rejected.
func.func @split_negative_axis(%x: tensor<6x4xf32>) {
  // expected-error @+1 {{'tc.split' op axis -1 is out of range for an operand of rank 2; expected 0 to 1}}
  %0:2 = tc.split %x axis = -1 : tensor<6x4xf32> -> tensor<6x2xf32>, tensor<6x2xf32>
  return
}

// -----

// Split: a rank-0 input has no axis to split along.
func.func @split_rank0(%x: tensor<f32>) {
  // expected-error @+1 {{'tc.split' op axis 0 is out of range: the operand has rank 0 and no axes}}
  %0 = tc.split %x axis = 0 : tensor<f32> -> tensor<f32>
  return
}

// -----

// Split: at least one piece (generic form: the custom form cannot spell zero
// result types).
func.func @split_no_results(%x: tensor<6x4xf32>) {
  // expected-error @+1 {{'tc.split' op needs at least one result}}
  "tc.split"(%x) {axis = 0 : i64} : (tensor<6x4xf32>) -> ()
  return
}

// -----

// Split: the pieces (2 + 3) do not cover the input's 6 rows.
func.func @split_pieces_short(%x: tensor<6x4xf32>) {
  // expected-error @+1 {{'tc.split' op the pieces cover 5 of the input's 6 along axis 0}}
  %0:2 = tc.split %x axis = 0 : tensor<6x4xf32> -> tensor<2x4xf32>, tensor<3x4xf32>
  return
}

// -----

// Split: the pieces (3 + 2 + 2) run past the input's 6 columns.
func.func @split_pieces_overrun(%x: tensor<4x6xf32>) {
  // expected-error @+1 {{'tc.split' op the pieces cover 7 of the input's 6 along axis 1}}
  %0:3 = tc.split %x axis = 1 : tensor<4x6xf32> -> tensor<4x3xf32>, tensor<4x2xf32>, tensor<4x2xf32>
  return
}

// -----

// Split: a piece disagrees with the input in a dimension other than the axis.
func.func @split_other_dim_mismatch(%x: tensor<2x7x4xf32>) {
  // expected-error @+1 {{'tc.split' op result #1 [2, 4, 5] must match the input [2, 7, 4] (and its element type) in every dimension but axis 1}}
  %0:2 = tc.split %x axis = 1 : tensor<2x7x4xf32> -> tensor<2x3x4xf32>, tensor<2x4x5xf32>
  return
}

// -----

// Split: a piece has another rank than the input.
func.func @split_rank_mismatch(%x: tensor<6x4xf32>) {
  // expected-error @+1 {{'tc.split' op result #0 [3, 1, 4] must match the input [6, 4] (and its element type) in every dimension but axis 0}}
  %0:2 = tc.split %x axis = 0 : tensor<6x4xf32> -> tensor<3x1x4xf32>, tensor<3x4xf32>
  return
}

// -----

// Split: a piece has another element type than the input.
func.func @split_element_type_mismatch(%x: tensor<6x4xf32>) {
  // expected-error @+1 {{'tc.split' op result #1 [3, 4] must match the input [6, 4] (and its element type) in every dimension but axis 0}}
  %0:2 = tc.split %x axis = 0 : tensor<6x4xf32> -> tensor<3x4xf32>, tensor<3x4xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// tc.softmax_grad
//===----------------------------------------------------------------------===//

// Softmax gradient: the axis is out of range.
func.func @softmax_grad_axis_out_of_range(%y: tensor<2x4xf32>) {
  // expected-error @+1 {{'tc.softmax_grad' op axis 2 is out of range for an operand of rank 2; expected 0 to 1}}
  %0 = tc.softmax_grad %y, %y axis = 2 : tensor<2x4xf32>
  return
}

// -----

// Softmax gradient: output and output_grad must have one type (generic form,
// since the custom form has a single type).
func.func @softmax_grad_type_mismatch(%y: tensor<2x4xf32>, %dy: tensor<4x2xf32>) {
  // expected-error @+1 {{'tc.softmax_grad' op failed to verify that all of {output, output_grad, result} have same type}}
  %0 = "tc.softmax_grad"(%y, %dy) {axis = 1 : i64} : (tensor<2x4xf32>, tensor<4x2xf32>) -> tensor<2x4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// tc.layer_norm_grad
//===----------------------------------------------------------------------===//

// LayerNorm gradient: gamma must be [D] for the input's last dimension D = 8.
func.func @layer_norm_grad_gamma_shape(%x: tensor<2x5x8xf32>, %g: tensor<5xf32>) {
  // expected-error @+1 {{'tc.layer_norm_grad' op gamma has shape [5] but expected [D] with D the last dimension of input [2, 5, 8]}}
  %0:3 = tc.layer_norm_grad %x, %g, %x epsilon = 1.0e-05 : tensor<2x5x8xf32>, tensor<5xf32>
  return
}

// -----

// LayerNorm gradient: gamma of rank 2 is not [D] either.
func.func @layer_norm_grad_gamma_rank(%x: tensor<2x8xf32>, %g: tensor<1x8xf32>) {
  // expected-error @+1 {{'tc.layer_norm_grad' op gamma has shape [1, 8] but expected [D] with D the last dimension of input [2, 8]}}
  %0:3 = tc.layer_norm_grad %x, %g, %x epsilon = 1.0e-05 : tensor<2x8xf32>, tensor<1x8xf32>
  return
}

// -----

// LayerNorm gradient: epsilon must be positive.
func.func @layer_norm_grad_epsilon(%x: tensor<2x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'tc.layer_norm_grad' op epsilon must be positive, got 0.000000e+00}}
  %0:3 = tc.layer_norm_grad %x, %g, %x epsilon = 0.0 : tensor<2x8xf32>, tensor<8xf32>
  return
}

// -----

// LayerNorm gradient: output_grad must have the input's type (generic form).
func.func @layer_norm_grad_output_grad_type(%x: tensor<2x8xf32>, %g: tensor<8xf32>, %dy: tensor<2x8xf16>) {
  // expected-error @+1 {{'tc.layer_norm_grad' op failed to verify that all of {input, output_grad, input_grad} have same type}}
  %0:3 = "tc.layer_norm_grad"(%x, %g, %dy) {epsilon = 1.0e-05 : f64}
      : (tensor<2x8xf32>, tensor<8xf32>, tensor<2x8xf16>) -> (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

// LayerNorm gradient: gamma_grad must have gamma's type (generic form).
func.func @layer_norm_grad_gamma_grad_type(%x: tensor<2x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'tc.layer_norm_grad' op failed to verify that all of {gamma, gamma_grad, beta_grad} have same type}}
  %0:3 = "tc.layer_norm_grad"(%x, %g, %x) {epsilon = 1.0e-05 : f64}
      : (tensor<2x8xf32>, tensor<8xf32>, tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<1x8xf32>, tensor<8xf32>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// tc.cross_entropy_grad
//===----------------------------------------------------------------------===//

// Cross-entropy gradient: targets must be the logits without the vocabulary.
func.func @cross_entropy_grad_targets_shape(%l: tensor<2x5x100xf32>, %t: tensor<2x100xi32>, %dl: tensor<f32>) {
  // expected-error @+1 {{'tc.cross_entropy_grad' op targets have shape [2, 100] but expected the logits [2, 5, 100] without the vocabulary dimension}}
  %0 = tc.cross_entropy_grad %l, %t, %dl label_smoothing = 0.1 ignore_index = 0
      : tensor<2x5x100xf32>, tensor<2x100xi32>, tensor<f32>
  return
}

// -----

// Cross-entropy gradient: rank-0 logits have no vocabulary dimension.
func.func @cross_entropy_grad_rank0_logits(%l: tensor<f32>, %t: tensor<i32>, %dl: tensor<f32>) {
  // expected-error @+1 {{'tc.cross_entropy_grad' op targets have shape [] but expected the logits [] without the vocabulary dimension}}
  %0 = tc.cross_entropy_grad %l, %t, %dl label_smoothing = 0.1 ignore_index = 0
      : tensor<f32>, tensor<i32>, tensor<f32>
  return
}

// -----

// Cross-entropy gradient: the gradient of the summed loss is rank 0.
func.func @cross_entropy_grad_loss_grad_rank(%l: tensor<2x5x100xf32>, %t: tensor<2x5xi32>, %dl: tensor<1xf32>) {
  // expected-error @+1 {{'tc.cross_entropy_grad' op loss_grad must be a rank-0 tensor of the logits' element type, got 'tensor<1xf32>'}}
  %0 = tc.cross_entropy_grad %l, %t, %dl label_smoothing = 0.1 ignore_index = 0
      : tensor<2x5x100xf32>, tensor<2x5xi32>, tensor<1xf32>
  return
}

// -----

// Cross-entropy gradient: label_smoothing must be in [0, 1).
func.func @cross_entropy_grad_smoothing(%l: tensor<2x5x100xf32>, %t: tensor<2x5xi32>, %dl: tensor<f32>) {
  // expected-error @+1 {{'tc.cross_entropy_grad' op label_smoothing must be in [0, 1), got 1.000000e+00}}
  %0 = tc.cross_entropy_grad %l, %t, %dl label_smoothing = 1.0 ignore_index = 0
      : tensor<2x5x100xf32>, tensor<2x5xi32>, tensor<f32>
  return
}

// -----

// Cross-entropy gradient: a negative label_smoothing is rejected too.
func.func @cross_entropy_grad_negative_smoothing(%l: tensor<2x5x100xf32>, %t: tensor<2x5xi32>, %dl: tensor<f32>) {
  // expected-error @+1 {{'tc.cross_entropy_grad' op label_smoothing must be in [0, 1), got -1.000000e-01}}
  %0 = tc.cross_entropy_grad %l, %t, %dl label_smoothing = -0.1 ignore_index = 0
      : tensor<2x5x100xf32>, tensor<2x5xi32>, tensor<f32>
  return
}

// -----

// Cross-entropy gradient: targets must be i32 ids.
func.func @cross_entropy_grad_i64_targets(%l: tensor<2x5x100xf32>, %t: tensor<2x5xi64>, %dl: tensor<f32>) {
  // expected-error @+1 {{'tc.cross_entropy_grad' op operand #1 must be statically shaped tensor of 32-bit signless integer values, but got 'tensor<2x5xi64>'}}
  %0 = tc.cross_entropy_grad %l, %t, %dl label_smoothing = 0.1 ignore_index = 0
      : tensor<2x5x100xf32>, tensor<2x5xi64>, tensor<f32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// tc.embedding_grad
//===----------------------------------------------------------------------===//

// Embedding gradient: the result is a table [V, D], so it has rank 2.
func.func @embedding_grad_result_rank(%ids: tensor<2x5xi32>, %dy: tensor<2x5x8xf32>) {
  // expected-error @+1 {{'tc.embedding_grad' op result must be a table [vocabulary, dim], got [2, 5, 8]}}
  %0 = tc.embedding_grad %ids, %dy : tensor<2x5xi32>, tensor<2x5x8xf32> -> tensor<2x5x8xf32>
  return
}

// -----

// Embedding gradient: output_grad's row size 8 differs from the table's 16.
func.func @embedding_grad_row_size(%ids: tensor<2x5xi32>, %dy: tensor<2x5x8xf32>) {
  // expected-error @+1 {{'tc.embedding_grad' op output_grad has shape [2, 5, 8] but expected [2, 5, 16] (the ids' shape, then the table's row size)}}
  %0 = tc.embedding_grad %ids, %dy : tensor<2x5xi32>, tensor<2x5x8xf32> -> tensor<100x16xf32>
  return
}

// -----

// Embedding gradient: output_grad's leading dimensions are not the ids' shape.
func.func @embedding_grad_ids_shape(%ids: tensor<2x5xi32>, %dy: tensor<10x8xf32>) {
  // expected-error @+1 {{'tc.embedding_grad' op output_grad has shape [10, 8] but expected [2, 5, 8] (the ids' shape, then the table's row size)}}
  %0 = tc.embedding_grad %ids, %dy : tensor<2x5xi32>, tensor<10x8xf32> -> tensor<100x8xf32>
  return
}

// -----

// Embedding gradient: the table's gradient has output_grad's element type.
func.func @embedding_grad_element_type(%ids: tensor<2x5xi32>, %dy: tensor<2x5x8xf32>) {
  // expected-error @+1 {{'tc.embedding_grad' op failed to verify that all of {output_grad, result} have same element type}}
  %0 = tc.embedding_grad %ids, %dy : tensor<2x5xi32>, tensor<2x5x8xf32> -> tensor<100x8xf16>
  return
}

// -----

// Embedding gradient: padding_id names a row of the table.
func.func @embedding_grad_padding_id(%ids: tensor<2x5xi32>, %dy: tensor<2x5x8xf32>) {
  // expected-error @+1 {{'tc.embedding_grad' op padding_id 100 is not a row of the table [100 rows]}}
  %0 = tc.embedding_grad %ids, %dy {padding_id = 100 : i64} : tensor<2x5xi32>, tensor<2x5x8xf32> -> tensor<100x8xf32>
  return
}

// -----

// Embedding gradient added in place: the same for its padding_id.
func.func @embedding_grad_add_padding_id(%t: tensor<100x8xf32>, %ids: tensor<2x5xi32>, %dy: tensor<2x5x8xf32>) {
  // expected-error @+1 {{'tc.embedding_grad_add' op padding_id -1 is not a row of the table [100 rows]}}
  %0 = tc.embedding_grad_add %t, %ids, %dy {padding_id = -1 : i64} : tensor<100x8xf32>, tensor<2x5xi32>, tensor<2x5x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// tc.linear
//===----------------------------------------------------------------------===//

// Linear: the weight [out, in] must contract the input's last dimension 8.
func.func @linear_weight_in(%x: tensor<2x5x8xf32>, %w: tensor<16x4xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'tc.linear' op weight has shape [16, 4] but expected [out, 8] for input [2, 5, 8]}}
  %0 = tc.linear %x, %w, %b : tensor<2x5x8xf32>, tensor<16x4xf32>, tensor<16xf32> -> tensor<2x5x16xf32>
  return
}

// -----

// Linear: the weight must have rank 2.
func.func @linear_weight_rank(%x: tensor<5x8xf32>, %w: tensor<2x16x8xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'tc.linear' op weight has shape [2, 16, 8] but expected [out, 8] for input [5, 8]}}
  %0 = tc.linear %x, %w, %b : tensor<5x8xf32>, tensor<2x16x8xf32>, tensor<16xf32> -> tensor<5x16xf32>
  return
}

// -----

// Linear: the weight is stored [out, in] (as PyTorch does), not [in, out].
func.func @linear_weight_transposed(%x: tensor<5x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'tc.linear' op weight has shape [8, 16] but expected [out, 8] for input [5, 8]}}
  %0 = tc.linear %x, %w, %b : tensor<5x8xf32>, tensor<8x16xf32>, tensor<16xf32> -> tensor<5x16xf32>
  return
}

// -----

// Linear: the bias has one entry per output feature.
func.func @linear_bias_shape(%x: tensor<5x8xf32>, %w: tensor<16x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'tc.linear' op bias has shape [8] but expected [16]}}
  %0 = tc.linear %x, %w, %b : tensor<5x8xf32>, tensor<16x8xf32>, tensor<8xf32> -> tensor<5x16xf32>
  return
}

// -----

// Linear: a bias of rank 2 is rejected (no broadcasting here).
func.func @linear_bias_rank(%x: tensor<5x8xf32>, %w: tensor<16x8xf32>, %b: tensor<1x16xf32>) {
  // expected-error @+1 {{'tc.linear' op bias has shape [1, 16] but expected [16]}}
  %0 = tc.linear %x, %w, %b {relu} : tensor<5x8xf32>, tensor<16x8xf32>, tensor<1x16xf32> -> tensor<5x16xf32>
  return
}

// -----

// Linear: the result is the input with its last dimension replaced by out.
func.func @linear_wrong_result(%x: tensor<2x5x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'tc.linear' op result has shape [10, 16] but expected [2, 5, 16] (the input with its last dimension replaced by out)}}
  %0 = tc.linear %x, %w, %b : tensor<2x5x8xf32>, tensor<16x8xf32>, tensor<16xf32> -> tensor<10x16xf32>
  return
}

// -----

// Linear: the bias has the result's element type.
func.func @linear_mixed_types(%x: tensor<5x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf16>) {
  // expected-error @+1 {{'tc.linear' op bias must have the result's element type 'f32', got 'f16'}}
  %0 = tc.linear %x, %w, %b : tensor<5x8xf32>, tensor<16x8xf32>, tensor<16xf16> -> tensor<5x16xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// tc.residual_layer_norm
//===----------------------------------------------------------------------===//

// Residual LayerNorm: gamma (and beta, of gamma's type) must be [D], D = 8.
func.func @residual_layer_norm_gamma_shape(%x: tensor<2x5x8xf32>, %g: tensor<5xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.residual_layer_norm' op gamma and beta must have shape [8]}}
  %0:3 = tc.residual_layer_norm %x, %x, %g, %g, %rng rate = 0.1 key = 1 epsilon = 1.0e-05
      : tensor<2x5x8xf32>, tensor<5xf32>, tensor<2xi64> -> tensor<2x5x1xf32>
  return
}

// -----

// Residual LayerNorm: gamma and beta must have one type (generic form, since
// the custom form has a single type for both).
func.func @residual_layer_norm_beta_type(%x: tensor<5x8xf32>, %g: tensor<8xf32>, %b: tensor<1x8xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.residual_layer_norm' op failed to verify that all of {gamma, beta} have same type}}
  %0:3 = "tc.residual_layer_norm"(%x, %x, %g, %b, %rng) {rate = 0.1 : f64, key = 1 : i64, epsilon = 1.0e-05 : f64}
      : (tensor<5x8xf32>, tensor<5x8xf32>, tensor<8xf32>, tensor<1x8xf32>, tensor<2xi64>) -> (tensor<5x8xf32>, tensor<5x1xf32>, tensor<5x1xf32>)
  return
}

// -----

// Residual LayerNorm: the row statistics are [..., 1], not [...].
func.func @residual_layer_norm_stats_shape(%x: tensor<2x5x8xf32>, %g: tensor<8xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.residual_layer_norm' op mean and rstd must have shape [2, 5, 1]}}
  %0:3 = tc.residual_layer_norm %x, %x, %g, %g, %rng rate = 0.1 key = 1 epsilon = 1.0e-05
      : tensor<2x5x8xf32>, tensor<8xf32>, tensor<2xi64> -> tensor<2x5xf32>
  return
}

// -----

// Residual LayerNorm: mean and rstd must have one type (generic form).
func.func @residual_layer_norm_rstd_type(%x: tensor<5x8xf32>, %g: tensor<8xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.residual_layer_norm' op failed to verify that all of {mean, rstd} have same type}}
  %0:3 = "tc.residual_layer_norm"(%x, %x, %g, %g, %rng) {rate = 0.1 : f64, key = 1 : i64, epsilon = 1.0e-05 : f64}
      : (tensor<5x8xf32>, tensor<5x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2xi64>) -> (tensor<5x8xf32>, tensor<5x1xf32>, tensor<5xf32>)
  return
}

// -----

// Residual LayerNorm: residual and sublayer must have one type (generic form).
func.func @residual_layer_norm_sublayer_type(%x: tensor<5x8xf32>, %s: tensor<8xf32>, %g: tensor<8xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.residual_layer_norm' op failed to verify that all of {residual, sublayer} have same type}}
  %0:3 = "tc.residual_layer_norm"(%x, %s, %g, %g, %rng) {rate = 0.1 : f64, key = 1 : i64, epsilon = 1.0e-05 : f64}
      : (tensor<5x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2xi64>) -> (tensor<5x8xf32>, tensor<5x1xf32>, tensor<5x1xf32>)
  return
}

// -----

// Residual LayerNorm: the dropout rate must be below 1.
func.func @residual_layer_norm_rate_one(%x: tensor<5x8xf32>, %g: tensor<8xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.residual_layer_norm' op rate must be in [0, 1), got 1.000000e+00}}
  %0:3 = tc.residual_layer_norm %x, %x, %g, %g, %rng rate = 1.0 key = 1 epsilon = 1.0e-05
      : tensor<5x8xf32>, tensor<8xf32>, tensor<2xi64> -> tensor<5x1xf32>
  return
}

// -----

// Residual LayerNorm: a negative dropout rate is rejected.
func.func @residual_layer_norm_rate_negative(%x: tensor<5x8xf32>, %g: tensor<8xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.residual_layer_norm' op rate must be in [0, 1), got -5.000000e-01}}
  %0:3 = tc.residual_layer_norm %x, %x, %g, %g, %rng rate = -0.5 key = 1 epsilon = 1.0e-05
      : tensor<5x8xf32>, tensor<8xf32>, tensor<2xi64> -> tensor<5x1xf32>
  return
}

// -----

// Residual LayerNorm: the RNG state is a tensor<2xi64>, not three words.
func.func @residual_layer_norm_rng_shape(%x: tensor<5x8xf32>, %g: tensor<8xf32>, %rng: tensor<3xi64>) {
  // expected-error @+1 {{'tc.residual_layer_norm' op operand #4 must be tensor<2xi64> holding (seed, step), but got 'tensor<3xi64>'}}
  %0:3 = tc.residual_layer_norm %x, %x, %g, %g, %rng rate = 0.1 key = 1 epsilon = 1.0e-05
      : tensor<5x8xf32>, tensor<8xf32>, tensor<3xi64> -> tensor<5x1xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// tc.residual_layer_norm_grad (no verifier of its own: only its type rules)
//===----------------------------------------------------------------------===//

// Residual LayerNorm gradient: the RNG state must be i64, not i32.
func.func @residual_layer_norm_grad_rng_type(%x: tensor<5x8xf32>, %g: tensor<8xf32>, %st: tensor<5x1xf32>, %rng: tensor<2xi32>) {
  // expected-error @+1 {{'tc.residual_layer_norm_grad' op operand #6 must be tensor<2xi64> holding (seed, step), but got 'tensor<2xi32>'}}
  %0:4 = tc.residual_layer_norm_grad %x, %x, %g, %st, %st, %x, %rng rate = 0.1 key = 1
      : tensor<5x8xf32>, tensor<8xf32>, tensor<5x1xf32>, tensor<2xi32>
  return
}

// -----

// Residual LayerNorm gradient: output_grad must have the residual's type
// (generic form).
func.func @residual_layer_norm_grad_output_grad_type(%x: tensor<5x8xf32>, %dy: tensor<5x8xf16>, %g: tensor<8xf32>, %st: tensor<5x1xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.residual_layer_norm_grad' op failed to verify that all of {residual, sublayer, output_grad, residual_grad, sublayer_grad} have same type}}
  %0:4 = "tc.residual_layer_norm_grad"(%x, %x, %g, %st, %st, %dy, %rng) {rate = 0.1 : f64, key = 1 : i64}
      : (tensor<5x8xf32>, tensor<5x8xf32>, tensor<8xf32>, tensor<5x1xf32>, tensor<5x1xf32>, tensor<5x8xf16>, tensor<2xi64>)
      -> (tensor<5x8xf32>, tensor<5x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

// Residual LayerNorm gradient: mean and rstd must have one type (generic form).
func.func @residual_layer_norm_grad_stats_type(%x: tensor<5x8xf32>, %g: tensor<8xf32>, %m: tensor<5x1xf32>, %r: tensor<5xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.residual_layer_norm_grad' op failed to verify that all of {mean, rstd} have same type}}
  %0:4 = "tc.residual_layer_norm_grad"(%x, %x, %g, %m, %r, %x, %rng) {rate = 0.1 : f64, key = 1 : i64}
      : (tensor<5x8xf32>, tensor<5x8xf32>, tensor<8xf32>, tensor<5x1xf32>, tensor<5xf32>, tensor<5x8xf32>, tensor<2xi64>)
      -> (tensor<5x8xf32>, tensor<5x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

// Residual LayerNorm gradient: gamma_grad must have gamma's type (generic form).
func.func @residual_layer_norm_grad_gamma_grad_type(%x: tensor<5x8xf32>, %g: tensor<8xf32>, %st: tensor<5x1xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.residual_layer_norm_grad' op failed to verify that all of {gamma, gamma_grad, beta_grad} have same type}}
  %0:4 = "tc.residual_layer_norm_grad"(%x, %x, %g, %st, %st, %x, %rng) {rate = 0.1 : f64, key = 1 : i64}
      : (tensor<5x8xf32>, tensor<5x8xf32>, tensor<8xf32>, tensor<5x1xf32>, tensor<5x1xf32>, tensor<5x8xf32>, tensor<2xi64>)
      -> (tensor<5x8xf32>, tensor<5x8xf32>, tensor<8xf32>, tensor<1x8xf32>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// tc.masked_softmax
//===----------------------------------------------------------------------===//

// Masked softmax: a mask [5, 4] does not broadcast to scores [2, 4, 5, 5].
func.func @masked_softmax_mask_mismatch(%s: tensor<2x4x5x5xf32>, %m: tensor<5x4xi1>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.masked_softmax' op mask [5, 4] does not broadcast to the scores [2, 4, 5, 5]}}
  %0:2 = tc.masked_softmax %s, %m, %rng scale = 0.125 fill = -1.0e9 rate = 0.1 key = 2
      : tensor<2x4x5x5xf32>, tensor<5x4xi1>, tensor<2xi64>
  return
}

// -----

// Masked softmax: the mask may broadcast to the scores, but not the reverse:
// a mask bigger than the scores would grow the result.
func.func @masked_softmax_mask_too_big(%s: tensor<1x4x5x5xf32>, %m: tensor<2x1x5x5xi1>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.masked_softmax' op mask [2, 1, 5, 5] does not broadcast to the scores [1, 4, 5, 5]}}
  %0:2 = tc.masked_softmax %s, %m, %rng scale = 0.125 fill = -1.0e9 rate = 0.1 key = 2
      : tensor<1x4x5x5xf32>, tensor<2x1x5x5xi1>, tensor<2xi64>
  return
}

// -----

// Masked softmax: a mask of higher rank than the scores is rejected.
func.func @masked_softmax_mask_rank(%s: tensor<5x5xf32>, %m: tensor<1x5x5xi1>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.masked_softmax' op mask [1, 5, 5] does not broadcast to the scores [5, 5]}}
  %0:2 = tc.masked_softmax %s, %m, %rng scale = 0.125 fill = -1.0e9 rate = 0.0 key = 2
      : tensor<5x5xf32>, tensor<1x5x5xi1>, tensor<2xi64>
  return
}

// -----

// Masked softmax: the mask must be i1, not f32.
func.func @masked_softmax_f32_mask(%s: tensor<2x4x5x5xf32>, %m: tensor<1x1x5x5xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.masked_softmax' op operand #1 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<1x1x5x5xf32>'}}
  %0:2 = tc.masked_softmax %s, %m, %rng scale = 0.125 fill = -1.0e9 rate = 0.1 key = 2
      : tensor<2x4x5x5xf32>, tensor<1x1x5x5xf32>, tensor<2xi64>
  return
}

// -----

// Masked softmax: the dropout rate must be below 1.
func.func @masked_softmax_rate(%s: tensor<2x4x5x5xf32>, %m: tensor<1x1x5x5xi1>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.masked_softmax' op rate must be in [0, 1), got 1.500000e+00}}
  %0:2 = tc.masked_softmax %s, %m, %rng scale = 0.125 fill = -1.0e9 rate = 1.5 key = 2
      : tensor<2x4x5x5xf32>, tensor<1x1x5x5xi1>, tensor<2xi64>
  return
}

// -----

// Masked softmax: the RNG state must be a tensor<2xi64>, not a rank-0 i64.
func.func @masked_softmax_rng(%s: tensor<2x4x5x5xf32>, %m: tensor<1x1x5x5xi1>, %rng: tensor<i64>) {
  // expected-error @+1 {{'tc.masked_softmax' op operand #2 must be tensor<2xi64> holding (seed, step), but got 'tensor<i64>'}}
  %0:2 = tc.masked_softmax %s, %m, %rng scale = 0.125 fill = -1.0e9 rate = 0.1 key = 2
      : tensor<2x4x5x5xf32>, tensor<1x1x5x5xi1>, tensor<i64>
  return
}

// -----

// Masked softmax: probs have the scores' type (generic form).
func.func @masked_softmax_probs_type(%s: tensor<4x5xf32>, %m: tensor<4x5xi1>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.masked_softmax' op failed to verify that all of {scores, probs} have same type}}
  %0:2 = "tc.masked_softmax"(%s, %m, %rng) {scale = 0.125 : f64, fill = -1.0e9 : f64, rate = 0.1 : f64, key = 2 : i64}
      : (tensor<4x5xf32>, tensor<4x5xi1>, tensor<2xi64>) -> (tensor<4x5xf32>, tensor<4x5xf16>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// tc.masked_softmax_grad (no verifier of its own: only its type rules)
//===----------------------------------------------------------------------===//

// Masked softmax gradient: the mask must be i1, not i32.
func.func @masked_softmax_grad_i32_mask(%p: tensor<4x5xf32>, %m: tensor<4x5xi32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.masked_softmax_grad' op operand #2 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<4x5xi32>'}}
  %0 = tc.masked_softmax_grad %p, %p, %m, %rng scale = 0.125 rate = 0.1 key = 2
      : tensor<4x5xf32>, tensor<4x5xi32>, tensor<2xi64>
  return
}

// -----

// Masked softmax gradient: the RNG state must be a tensor<2xi64>.
func.func @masked_softmax_grad_rng(%p: tensor<4x5xf32>, %m: tensor<4x5xi1>, %rng: tensor<4xi64>) {
  // expected-error @+1 {{'tc.masked_softmax_grad' op operand #3 must be tensor<2xi64> holding (seed, step), but got 'tensor<4xi64>'}}
  %0 = tc.masked_softmax_grad %p, %p, %m, %rng scale = 0.125 rate = 0.1 key = 2
      : tensor<4x5xf32>, tensor<4x5xi1>, tensor<4xi64>
  return
}

// -----

// Masked softmax gradient: output_grad must have the probs' type (generic
// form).
func.func @masked_softmax_grad_output_grad_type(%p: tensor<4x5xf32>, %dy: tensor<5x4xf32>, %m: tensor<4x5xi1>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.masked_softmax_grad' op failed to verify that all of {probs, output_grad} have same type}}
  %0 = "tc.masked_softmax_grad"(%p, %dy, %m, %rng) {scale = 0.125 : f64, rate = 0.1 : f64, key = 2 : i64}
      : (tensor<4x5xf32>, tensor<5x4xf32>, tensor<4x5xi1>, tensor<2xi64>) -> tensor<4x5xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// tc.embed
//===----------------------------------------------------------------------===//

// Embed: the table must be [V, D].
func.func @embed_table_rank(%t: tensor<100xf32>, %ids: tensor<2x5xi32>, %pos: tensor<5x8xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.embed' op needs a table [V, D] and ids [B, T], got [100] and [2, 5]}}
  %0 = tc.embed %t, %ids, %pos, %rng scale = 2.0 rate = 0.1 key = 0
      : tensor<100xf32>, tensor<2x5xi32>, tensor<5x8xf32>, tensor<2xi64> -> tensor<2x5x8xf32>
  return
}

// -----

// Embed: the ids must be [B, T].
func.func @embed_ids_rank(%t: tensor<100x8xf32>, %ids: tensor<10xi32>, %pos: tensor<5x8xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.embed' op needs a table [V, D] and ids [B, T], got [100, 8] and [10]}}
  %0 = tc.embed %t, %ids, %pos, %rng scale = 2.0 rate = 0.1 key = 0
      : tensor<100x8xf32>, tensor<10xi32>, tensor<5x8xf32>, tensor<2xi64> -> tensor<10x8xf32>
  return
}

// -----

// Embed: the positions are [T, D] = [5, 8], not the whole [B, T, D].
func.func @embed_positions_rank(%t: tensor<100x8xf32>, %ids: tensor<2x5xi32>, %pos: tensor<2x5x8xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.embed' op positions have shape [2, 5, 8] but expected [5, 8]}}
  %0 = tc.embed %t, %ids, %pos, %rng scale = 2.0 rate = 0.1 key = 0
      : tensor<100x8xf32>, tensor<2x5xi32>, tensor<2x5x8xf32>, tensor<2xi64> -> tensor<2x5x8xf32>
  return
}

// -----

// Embed: positions for a longer sequence (T = 6) than the ids' T = 5.
func.func @embed_positions_length(%t: tensor<100x8xf32>, %ids: tensor<2x5xi32>, %pos: tensor<6x8xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.embed' op positions have shape [6, 8] but expected [5, 8]}}
  %0 = tc.embed %t, %ids, %pos, %rng scale = 2.0 rate = 0.1 key = 0
      : tensor<100x8xf32>, tensor<2x5xi32>, tensor<6x8xf32>, tensor<2xi64> -> tensor<2x5x8xf32>
  return
}

// -----

// Embed: the positions' width 4 differs from the table's D = 8.
func.func @embed_positions_width(%t: tensor<100x8xf32>, %ids: tensor<2x5xi32>, %pos: tensor<5x4xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.embed' op positions have shape [5, 4] but expected [5, 8]}}
  %0 = tc.embed %t, %ids, %pos, %rng scale = 2.0 rate = 0.1 key = 0
      : tensor<100x8xf32>, tensor<2x5xi32>, tensor<5x4xf32>, tensor<2xi64> -> tensor<2x5x8xf32>
  return
}

// -----

// Embed: the dropout rate must be below 1.
func.func @embed_rate(%t: tensor<100x8xf32>, %ids: tensor<2x5xi32>, %pos: tensor<5x8xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.embed' op rate must be in [0, 1), got 1.000000e+00}}
  %0 = tc.embed %t, %ids, %pos, %rng scale = 2.0 rate = 1.0 key = 0
      : tensor<100x8xf32>, tensor<2x5xi32>, tensor<5x8xf32>, tensor<2xi64> -> tensor<2x5x8xf32>
  return
}

// -----

// Embed: the result is [B, T, D].
func.func @embed_wrong_result(%t: tensor<100x8xf32>, %ids: tensor<2x5xi32>, %pos: tensor<5x8xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.embed' op result has shape [10, 8] but expected [2, 5, 8] ([B, T, D] for ids [B, T] and a table [V, D])}}
  %0 = tc.embed %t, %ids, %pos, %rng scale = 2.0 rate = 0.1 key = 0
      : tensor<100x8xf32>, tensor<2x5xi32>, tensor<5x8xf32>, tensor<2xi64> -> tensor<10x8xf32>
  return
}

// -----

// Embed: table, positions and result share one element type.
func.func @embed_mixed_types(%t: tensor<100x8xf32>, %ids: tensor<2x5xi32>, %pos: tensor<5x8xf16>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.embed' op failed to verify that all of {table, positions, result} have same element type}}
  %0 = tc.embed %t, %ids, %pos, %rng scale = 2.0 rate = 0.1 key = 0
      : tensor<100x8xf32>, tensor<2x5xi32>, tensor<5x8xf16>, tensor<2xi64> -> tensor<2x5x8xf32>
  return
}

// -----

// Embed: the RNG state must be a tensor<2xi64>.
func.func @embed_rng(%t: tensor<100x8xf32>, %ids: tensor<2x5xi32>, %pos: tensor<5x8xf32>, %rng: tensor<2xf32>) {
  // expected-error @+1 {{'tc.embed' op operand #3 must be tensor<2xi64> holding (seed, step), but got 'tensor<2xf32>'}}
  %0 = tc.embed %t, %ids, %pos, %rng scale = 2.0 rate = 0.1 key = 0
      : tensor<100x8xf32>, tensor<2x5xi32>, tensor<5x8xf32>, tensor<2xf32> -> tensor<2x5x8xf32>
  return
}

// -----

// Embed: the ids must be i32.
func.func @embed_i64_ids(%t: tensor<100x8xf32>, %ids: tensor<2x5xi64>, %pos: tensor<5x8xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.embed' op operand #1 must be statically shaped tensor of 32-bit signless integer values, but got 'tensor<2x5xi64>'}}
  %0 = tc.embed %t, %ids, %pos, %rng scale = 2.0 rate = 0.1 key = 0
      : tensor<100x8xf32>, tensor<2x5xi64>, tensor<5x8xf32>, tensor<2xi64> -> tensor<2x5x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// tc.adam
//===----------------------------------------------------------------------===//

// Adam: two parameters but one gradient.
func.func @adam_grad_count(%p: tensor<4x8xf32>, %q: tensor<8xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'tc.adam' op needs as many gradients, moments and results as parameters (2)}}
  %0:6 = tc.adam params(%p, %q : tensor<4x8xf32>, tensor<8xf32>) grads(%p : tensor<4x8xf32>) m(%p, %q : tensor<4x8xf32>, tensor<8xf32>) v(%p, %q : tensor<4x8xf32>, tensor<8xf32>) step_size(%s : tensor<f32>) rsqrt_correction2(%s : tensor<f32>) grad_scale(%s : tensor<f32>) {beta1 = 0.9, beta2 = 0.98, epsilon = 1.0e-09} -> (tensor<4x8xf32>, tensor<8xf32>), (tensor<4x8xf32>, tensor<8xf32>), (tensor<4x8xf32>, tensor<8xf32>)
  return
}

// -----

// Adam: one second moment missing.
func.func @adam_moment_count(%p: tensor<8xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'tc.adam' op needs as many gradients, moments and results as parameters (1)}}
  %0:3 = tc.adam params(%p : tensor<8xf32>) grads(%p : tensor<8xf32>) m(%p : tensor<8xf32>) v() step_size(%s : tensor<f32>) rsqrt_correction2(%s : tensor<f32>) grad_scale(%s : tensor<f32>) {beta1 = 0.9, beta2 = 0.98, epsilon = 1.0e-09} -> (tensor<8xf32>), (tensor<8xf32>), (tensor<8xf32>)
  return
}

// -----

// Adam: a bf16 copy of one parameter of two.
func.func @adam_copy_count(%p: tensor<4x8xf32>, %q: tensor<8xf32>, %c: tensor<4x8xbf16>, %s: tensor<f32>) {
  // expected-error @+1 {{'tc.adam' op needs a bf16 copy and a new copy of every parameter (2), or none; got 1 and 1}}
  %0:7 = tc.adam params(%p, %q : tensor<4x8xf32>, tensor<8xf32>) grads(%p, %q : tensor<4x8xf32>, tensor<8xf32>) m(%p, %q : tensor<4x8xf32>, tensor<8xf32>) v(%p, %q : tensor<4x8xf32>, tensor<8xf32>) step_size(%s : tensor<f32>) rsqrt_correction2(%s : tensor<f32>) grad_scale(%s : tensor<f32>) copies(%c : tensor<4x8xbf16>) {beta1 = 0.9, beta2 = 0.98, epsilon = 1.0e-09} -> (tensor<4x8xf32>, tensor<8xf32>), (tensor<4x8xf32>, tensor<8xf32>), (tensor<4x8xf32>, tensor<8xf32>), copies(tensor<4x8xbf16>)
  return
}

// -----

// Adam: a copy in f32, not bf16.
func.func @adam_copy_type(%p: tensor<8xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'tc.adam' op parameter #0 of type 'tensor<8xf32>' has a copy of type 'tensor<8xf32>'; its copy is 'tensor<8xbf16>'}}
  %0:4 = tc.adam params(%p : tensor<8xf32>) grads(%p : tensor<8xf32>) m(%p : tensor<8xf32>) v(%p : tensor<8xf32>) step_size(%s : tensor<f32>) rsqrt_correction2(%s : tensor<f32>) grad_scale(%s : tensor<f32>) copies(%p : tensor<8xf32>) {beta1 = 0.9, beta2 = 0.98, epsilon = 1.0e-09} -> (tensor<8xf32>), (tensor<8xf32>), (tensor<8xf32>), copies(tensor<8xf32>)
  return
}

// -----

// Adam: the new first moments are one short of the parameters.
func.func @adam_result_count(%p: tensor<4x8xf32>, %q: tensor<8xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'tc.adam' op needs as many gradients, moments and results as parameters (2)}}
  %0:5 = tc.adam params(%p, %q : tensor<4x8xf32>, tensor<8xf32>) grads(%p, %q : tensor<4x8xf32>, tensor<8xf32>) m(%p, %q : tensor<4x8xf32>, tensor<8xf32>) v(%p, %q : tensor<4x8xf32>, tensor<8xf32>) step_size(%s : tensor<f32>) rsqrt_correction2(%s : tensor<f32>) grad_scale(%s : tensor<f32>) {beta1 = 0.9, beta2 = 0.98, epsilon = 1.0e-09} -> (tensor<4x8xf32>, tensor<8xf32>), (tensor<4x8xf32>), (tensor<4x8xf32>, tensor<8xf32>)
  return
}

// -----

// Adam: the second parameter's gradient has the first parameter's shape.
func.func @adam_grad_type(%p: tensor<4x8xf32>, %q: tensor<8xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'tc.adam' op parameter #1 has type 'tensor<8xf32>' but its gradient, moments or results have 'tensor<4x8xf32>'}}
  %0:6 = tc.adam params(%p, %q : tensor<4x8xf32>, tensor<8xf32>) grads(%p, %p : tensor<4x8xf32>, tensor<4x8xf32>) m(%p, %q : tensor<4x8xf32>, tensor<8xf32>) v(%p, %q : tensor<4x8xf32>, tensor<8xf32>) step_size(%s : tensor<f32>) rsqrt_correction2(%s : tensor<f32>) grad_scale(%s : tensor<f32>) {beta1 = 0.9, beta2 = 0.98, epsilon = 1.0e-09} -> (tensor<4x8xf32>, tensor<8xf32>), (tensor<4x8xf32>, tensor<8xf32>), (tensor<4x8xf32>, tensor<8xf32>)
  return
}

// -----

// Adam: a new second moment of another element type than its parameter.
func.func @adam_result_type(%p: tensor<8xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'tc.adam' op parameter #0 has type 'tensor<8xf32>' but its gradient, moments or results have 'tensor<8xf16>'}}
  %0:3 = tc.adam params(%p : tensor<8xf32>) grads(%p : tensor<8xf32>) m(%p : tensor<8xf32>) v(%p : tensor<8xf32>) step_size(%s : tensor<f32>) rsqrt_correction2(%s : tensor<f32>) grad_scale(%s : tensor<f32>) {beta1 = 0.9, beta2 = 0.98, epsilon = 1.0e-09} -> (tensor<8xf32>), (tensor<8xf32>), (tensor<8xf16>)
  return
}

// -----

// Adam: step_size must be rank 0.
func.func @adam_step_size_rank(%p: tensor<8xf32>, %s: tensor<f32>, %s1: tensor<1xf32>) {
  // expected-error @+1 {{'tc.adam' op step_size, rsqrt_correction2 and grad_scale must be rank 0}}
  %0:3 = tc.adam params(%p : tensor<8xf32>) grads(%p : tensor<8xf32>) m(%p : tensor<8xf32>) v(%p : tensor<8xf32>) step_size(%s1 : tensor<1xf32>) rsqrt_correction2(%s : tensor<f32>) grad_scale(%s : tensor<f32>) {beta1 = 0.9, beta2 = 0.98, epsilon = 1.0e-09} -> (tensor<8xf32>), (tensor<8xf32>), (tensor<8xf32>)
  return
}

// -----

// Adam: rsqrt_correction2 must be rank 0.
func.func @adam_correction_rank(%p: tensor<8xf32>, %s: tensor<f32>, %s8: tensor<8xf32>) {
  // expected-error @+1 {{'tc.adam' op step_size, rsqrt_correction2 and grad_scale must be rank 0}}
  %0:3 = tc.adam params(%p : tensor<8xf32>) grads(%p : tensor<8xf32>) m(%p : tensor<8xf32>) v(%p : tensor<8xf32>) step_size(%s : tensor<f32>) rsqrt_correction2(%s8 : tensor<8xf32>) grad_scale(%s : tensor<f32>) {beta1 = 0.9, beta2 = 0.98, epsilon = 1.0e-09} -> (tensor<8xf32>), (tensor<8xf32>), (tensor<8xf32>)
  return
}

// -----

// Adam: grad_scale must be rank 0, not a per-element scale.
func.func @adam_grad_scale_rank(%p: tensor<8xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'tc.adam' op step_size, rsqrt_correction2 and grad_scale must be rank 0}}
  %0:3 = tc.adam params(%p : tensor<8xf32>) grads(%p : tensor<8xf32>) m(%p : tensor<8xf32>) v(%p : tensor<8xf32>) step_size(%s : tensor<f32>) rsqrt_correction2(%s : tensor<f32>) grad_scale(%p : tensor<8xf32>) {beta1 = 0.9, beta2 = 0.98, epsilon = 1.0e-09} -> (tensor<8xf32>), (tensor<8xf32>), (tensor<8xf32>)
  return
}

// -----

// Adam: parameters are float tensors; i32 is rejected.
func.func @adam_i32_param(%p: tensor<8xi32>, %s: tensor<f32>) {
  // expected-error @+1 {{'tc.adam' op operand #0 must be variadic of statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type or 64-bit float values, but got 'tensor<8xi32>'}}
  %0:3 = tc.adam params(%p : tensor<8xi32>) grads(%p : tensor<8xi32>) m(%p : tensor<8xi32>) v(%p : tensor<8xi32>) step_size(%s : tensor<f32>) rsqrt_correction2(%s : tensor<f32>) grad_scale(%s : tensor<f32>) {beta1 = 0.9, beta2 = 0.98, epsilon = 1.0e-09} -> (tensor<8xi32>), (tensor<8xi32>), (tensor<8xi32>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// tc.fused and tc.yield
//===----------------------------------------------------------------------===//

// Fused: the body takes one argument per input (here one for two).
func.func @fused_arg_count(%x: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'tc.fused' op body has 1 argument(s) for 2 input(s)}}
  %0 = tc.fused (%x, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    tc.yield %a : tensor<4x8xf32>
  }
  return
}

// -----

// Fused: each body argument has its input's type.
func.func @fused_arg_type(%x: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'tc.fused' op body argument 'tensor<1x8xf32>' does not match input 'tensor<8xf32>'}}
  %0 = tc.fused (%x, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>, %c: tensor<1x8xf32>):
    %s = tc.add %a, %c : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
    tc.yield %s : tensor<4x8xf32>
  }
  return
}

// -----

// Fused: the body yields one value for two results.
func.func @fused_yield_count(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.fused' op yields 1 value(s) for 2 result(s)}}
  %0:2 = tc.fused (%x) : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  ^bb0(%a: tensor<4x8xf32>):
    %r = tc.relu %a : tensor<4x8xf32>
    tc.yield %r : tensor<4x8xf32>
  }
  return
}

// -----

// Fused: a body without a tc.yield yields nothing (the implicit terminator).
func.func @fused_missing_yield(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.fused' op yields 0 value(s) for 1 result(s)}}
  %0 = tc.fused (%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %r = tc.relu %a : tensor<4x8xf32>
  }
  return
}

// -----

// Fused: the yielded value's type differs from the result's.
func.func @fused_yield_type(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.fused' op yields 'tensor<4x8xf32>' for result #0 of type 'tensor<4x8xf16>'}}
  %0 = tc.fused (%x) : (tensor<4x8xf32>) -> tensor<4x8xf16> {
  ^bb0(%a: tensor<4x8xf32>):
    %r = tc.relu %a : tensor<4x8xf32>
    tc.yield %r : tensor<4x8xf32>
  }
  return
}

// -----

// Fused: only tc ops may appear in the body (here a builtin cast).
func.func @fused_non_tc_op(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.fused' op body may hold only tc ops without regions, found 'builtin.unrealized_conversion_cast'}}
  %0 = tc.fused (%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %c = builtin.unrealized_conversion_cast %a : tensor<4x8xf32> to tensor<4x8xf32>
    tc.yield %c : tensor<4x8xf32>
  }
  return
}

// -----

// Fused: a tc op with a region (a nested tc.fused) is not allowed either.
func.func @fused_nested(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.fused' op body may hold only tc ops without regions, found 'tc.fused'}}
  %0 = tc.fused (%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %c = tc.fused (%a) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ^bb0(%b: tensor<4x8xf32>):
      tc.yield %b : tensor<4x8xf32>
    }
    tc.yield %c : tensor<4x8xf32>
  }
  return
}

// -----

// Fused: the body is isolated from above; it reads its operands only through
// its block arguments.
func.func @fused_captures(%x: tensor<4x8xf32>) {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = tc.fused (%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    // expected-error @+1 {{'tc.relu' op using value defined outside the region}}
    %r = tc.relu %x : tensor<4x8xf32>
    tc.yield %r : tensor<4x8xf32>
  }
  return
}

// -----

// Yield: only a tc.fused body ends in tc.yield.
func.func @yield_outside_fused(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tc.yield' op expects parent op 'tc.fused'}}
  tc.yield %x : tensor<4x8xf32>
}

// -----

// Masked softmax gradient: a mask [3] does not broadcast to probs [2, 4].
func.func @masked_softmax_grad_mask_mismatch(%p: tensor<2x4xf32>, %m: tensor<3xi1>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.masked_softmax_grad' op mask [3] does not broadcast to the probs [2, 4]}}
  %0 = tc.masked_softmax_grad %p, %p, %m, %rng scale = 1.0 rate = 0.1 key = 1
      : tensor<2x4xf32>, tensor<3xi1>, tensor<2xi64>
  return
}

// -----

// Masked softmax gradient: the dropout rate must be in [0, 1).
func.func @masked_softmax_grad_rate(%p: tensor<2x4xf32>, %m: tensor<2x4xi1>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.masked_softmax_grad' op rate must be in [0, 1), got 1.000000e+00}}
  %0 = tc.masked_softmax_grad %p, %p, %m, %rng scale = 1.0 rate = 1.0 key = 1
      : tensor<2x4xf32>, tensor<2x4xi1>, tensor<2xi64>
  return
}

// -----

// Linear: a rank-0 input has no feature dimension to contract.
func.func @linear_rank0_input(%x: tensor<f32>, %w: tensor<4x1xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'tc.linear' op input must have rank >= 2 [rows..., in], got []}}
  %0 = tc.linear %x, %w, %b : tensor<f32>, tensor<4x1xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

// Residual LayerNorm: a rank-0 residual has no dimension to normalise over.
func.func @residual_layer_norm_rank0(%x: tensor<f32>, %g: tensor<1xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.residual_layer_norm' op residual must have rank >= 1}}
  %0:3 = tc.residual_layer_norm %x, %x, %g, %g, %rng rate = 0.1 key = 1 epsilon = 1.0e-05
      : tensor<f32>, tensor<1xf32>, tensor<2xi64> -> tensor<f32>
  return
}

// -----

// Residual LayerNorm: epsilon must be positive.
func.func @residual_layer_norm_epsilon_zero(%x: tensor<5x8xf32>, %g: tensor<8xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.residual_layer_norm' op epsilon must be positive, got 0.000000e+00}}
  %0:3 = tc.residual_layer_norm %x, %x, %g, %g, %rng rate = 0.1 key = 1 epsilon = 0.0
      : tensor<5x8xf32>, tensor<8xf32>, tensor<2xi64> -> tensor<5x1xf32>
  return
}

// -----

// Residual LayerNorm gradient: gamma must be [D], D = 8.
func.func @residual_layer_norm_grad_gamma_shape(%x: tensor<2x8xf32>, %g: tensor<2xf32>, %st: tensor<2x1xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.residual_layer_norm_grad' op gamma must have shape [8]}}
  %0:4 = tc.residual_layer_norm_grad %x, %x, %g, %st, %st, %x, %rng rate = 0.1 key = 1
      : tensor<2x8xf32>, tensor<2xf32>, tensor<2x1xf32>, tensor<2xi64>
  return
}

// -----

// Residual LayerNorm gradient: the saved row statistics are [..., 1].
func.func @residual_layer_norm_grad_stats_shape(%x: tensor<2x8xf32>, %g: tensor<8xf32>, %st: tensor<2xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.residual_layer_norm_grad' op mean and rstd must have shape [2, 1]}}
  %0:4 = tc.residual_layer_norm_grad %x, %x, %g, %st, %st, %x, %rng rate = 0.1 key = 1
      : tensor<2x8xf32>, tensor<8xf32>, tensor<2xf32>, tensor<2xi64>
  return
}

// -----

// Residual LayerNorm gradient: the dropout rate must be in [0, 1).
func.func @residual_layer_norm_grad_rate(%x: tensor<2x8xf32>, %g: tensor<8xf32>, %st: tensor<2x1xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.residual_layer_norm_grad' op rate must be in [0, 1), got 1.000000e+00}}
  %0:4 = tc.residual_layer_norm_grad %x, %x, %g, %st, %st, %x, %rng rate = 1.0 key = 1
      : tensor<2x8xf32>, tensor<8xf32>, tensor<2x1xf32>, tensor<2xi64>
  return
}

// -----

// A row op's result is of its type, or narrowed to bf16 from f32 only.
func.func @masked_softmax_narrowed_to_f16(%s: tensor<4x4xf32>, %m: tensor<4x4xi1>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.masked_softmax' op result has type 'tensor<4x4xf16>' but expected 'tensor<4x4xf32>' (or bf16 of an f32 op, narrowed)}}
  %0:2 = tc.masked_softmax %s, %m, %rng scale = 0.125 fill = -1.0e9 rate = 0.1 key = 2
      : tensor<4x4xf32>, tensor<4x4xi1>, tensor<2xi64> narrowed tensor<4x4xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// tc.cross_entropy_with_grad: tc.cross_entropy's rules and the gradient's
//===----------------------------------------------------------------------===//

// The loss and its gradient: targets are the logits' rows.
func.func @cross_entropy_with_grad_targets(%l: tensor<2x5x100xf32>, %t: tensor<2x4xi32>, %dl: tensor<f32>) {
  // expected-error @+1 {{'tc.cross_entropy_with_grad' op targets have shape [2, 4] but expected [2, 5] (the logits [2, 5, 100] without the vocabulary dimension)}}
  %0:3 = tc.cross_entropy_with_grad %l, %t, %dl label_smoothing = 0.1 ignore_index = 0
      : tensor<2x5x100xf32>, tensor<2x4xi32>, tensor<f32> -> tensor<f32>, tensor<i32>
  return
}

// -----

// The loss and its gradient: the seed is rank 0.
func.func @cross_entropy_with_grad_seed(%l: tensor<2x5x100xf32>, %t: tensor<2x5xi32>, %dl: tensor<2xf32>) {
  // expected-error @+1 {{'tc.cross_entropy_with_grad' op loss_grad must be a rank-0 tensor of the logits' element type, got 'tensor<2xf32>'}}
  %0:3 = tc.cross_entropy_with_grad %l, %t, %dl label_smoothing = 0.1 ignore_index = 0
      : tensor<2x5x100xf32>, tensor<2x5xi32>, tensor<2xf32> -> tensor<f32>, tensor<i32>
  return
}

// -----

// The loss and its gradient: the loss is rank 0.
func.func @cross_entropy_with_grad_loss(%l: tensor<2x5x100xf32>, %t: tensor<2x5xi32>, %dl: tensor<f32>) {
  // expected-error @+1 {{'tc.cross_entropy_with_grad' op loss must be a rank-0 tensor of the logits' element type, got 'tensor<2x5xf32>'}}
  %0:3 = tc.cross_entropy_with_grad %l, %t, %dl label_smoothing = 0.1 ignore_index = 0
      : tensor<2x5x100xf32>, tensor<2x5xi32>, tensor<f32> -> tensor<2x5xf32>, tensor<i32>
  return
}

// -----

// The loss and its gradient: the gradient narrows to bf16 only.
func.func @cross_entropy_with_grad_narrowed(%l: tensor<2x5x100xf32>, %t: tensor<2x5xi32>, %dl: tensor<f32>) {
  // expected-error @+1 {{'tc.cross_entropy_with_grad' op result has type 'tensor<2x5x100xf16>' but expected 'tensor<2x5x100xf32>' (or bf16 of an f32 op, narrowed)}}
  %0:3 = tc.cross_entropy_with_grad %l, %t, %dl label_smoothing = 0.1 ignore_index = 0
      : tensor<2x5x100xf32>, tensor<2x5xi32>, tensor<f32> narrowed tensor<2x5x100xf16> -> tensor<f32>, tensor<i32>
  return
}

// -----

// The loss and its gradient: label smoothing in [0, 1).
func.func @cross_entropy_with_grad_smoothing(%l: tensor<2x5x100xf32>, %t: tensor<2x5xi32>, %dl: tensor<f32>) {
  // expected-error @+1 {{'tc.cross_entropy_with_grad' op label_smoothing must be in [0, 1), got 1.000000e+00}}
  %0:3 = tc.cross_entropy_with_grad %l, %t, %dl label_smoothing = 1.0 ignore_index = 0
      : tensor<2x5x100xf32>, tensor<2x5xi32>, tensor<f32> -> tensor<f32>, tensor<i32>
  return
}

// -----

// The embedding gradient added onto a base: dy is the ids' shape, then the
// table's row size.
func.func @embedding_grad_add_dy(%b: tensor<100x8xf32>, %i: tensor<2x5xi32>, %dy: tensor<2x5x4xf32>) {
  // expected-error @+1 {{'tc.embedding_grad_add' op output_grad has shape [2, 5, 4] but expected [2, 5, 8] (the ids' shape, then the table's row size)}}
  %0 = tc.embedding_grad_add %b, %i, %dy : tensor<100x8xf32>, tensor<2x5xi32>, tensor<2x5x4xf32>
  return
}

// -----

// The embedding gradient added onto a base: a table of rank 2.
func.func @embedding_grad_add_rank(%b: tensor<100xf32>, %i: tensor<2x5xi32>, %dy: tensor<2x5x100xf32>) {
  // expected-error @+1 {{'tc.embedding_grad_add' op result must be a table [vocabulary, dim], got [100]}}
  %0 = tc.embedding_grad_add %b, %i, %dy : tensor<100xf32>, tensor<2x5xi32>, tensor<2x5x100xf32>
  return
}

// -----

// A LayerNorm's bf16 copy (tc-fuse-convert) has its result's shape in bf16.
func.func @layer_norm_copy_of_another_shape(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.residual_layer_norm' op bf16 copy has type 'tensor<2x4x4xbf16>' but expected the bf16 of 'tensor<2x4x8xf32>' (an f32 result)}}
  %0:4 = tc.residual_layer_norm %x, %x, %g, %g, %rng rate = 0.1 key = 1 epsilon = 1.0e-05
      : tensor<2x4x8xf32>, tensor<8xf32>, tensor<2xi64> -> tensor<2x4x1xf32> bf16 copy tensor<2x4x4xbf16>
  return
}

// -----

// A narrowed result has no copy: the copy is of an f32 result.
func.func @layer_norm_copy_of_narrowed(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.residual_layer_norm' op bf16 copy has type 'tensor<2x4x8xbf16>' but expected the bf16 of 'tensor<2x4x8xbf16>' (an f32 result)}}
  %0:4 = tc.residual_layer_norm %x, %x, %g, %g, %rng rate = 0.1 key = 1 epsilon = 1.0e-05
      : tensor<2x4x8xf32>, tensor<8xf32>, tensor<2xi64> narrowed tensor<2x4x8xbf16> -> tensor<2x4x1xf32> bf16 copy tensor<2x4x8xbf16>
  return
}

// -----

// The sublayer gradient's copy likewise.
func.func @layer_norm_grad_copy_f16(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>, %m: tensor<2x4x1xf32>, %rng: tensor<2xi64>) {
  // expected-error @+1 {{'tc.residual_layer_norm_grad' op bf16 copy has type 'tensor<2x4x8xf16>' but expected the bf16 of 'tensor<2x4x8xf32>' (an f32 result)}}
  %0:5 = tc.residual_layer_norm_grad %x, %x, %g, %m, %m, %x, %rng rate = 0.1 key = 1
      : tensor<2x4x8xf32>, tensor<8xf32>, tensor<2x4x1xf32>, tensor<2xi64> bf16 copy tensor<2x4x8xf16>
  return
}
