// One post-LN Transformer encoder self-attention block, written by hand in tc
// IR, against torch.nn.MultiheadAttention(16, 4, batch_first=True) with the
// same weights and key_padding_mask = (ids == 0), then torch LayerNorm:
//   y = LayerNorm(x + MHA(x, x, x)),  x [B=2, T=5, d=16], h=4 heads, d_k=4.
// Results: the block output [2,5,16] and the per-head attention weights
// [2,4,5,5] (torch: need_weights=True, average_attn_weights=False).
// @encoder_block projects with the fused [3d, d] weight and slices Q, K, V
// out of the [B, T, 3d] product; @encoder_block_sliced_weights slices the
// weight and the bias first. Both must match the same reference.
// RUN: %python %S/torch_check.py --case encoder_block --mlir %s --work %t

func.func @encoder_block(
    %x: tensor<2x5x16xf32>, %ids: tensor<2x5xi32>,
    %w_in: tensor<48x16xf32> {tc.param = "self_attn.in_proj_weight", tc.init = #tc.init<xavier_uniform>},
    %b_in: tensor<48xf32> {tc.param = "self_attn.in_proj_bias", tc.init = #tc.init<zeros>},
    %w_out: tensor<16x16xf32> {tc.param = "self_attn.out_proj.weight", tc.init = #tc.init<uniform(0.25)>},
    %b_out: tensor<16xf32> {tc.param = "self_attn.out_proj.bias", tc.init = #tc.init<zeros>},
    %ln_g: tensor<16xf32> {tc.param = "norm1.weight", tc.init = #tc.init<ones>},
    %ln_b: tensor<16xf32> {tc.param = "norm1.bias", tc.init = #tc.init<zeros>})
    -> (tensor<2x5x16xf32>, tensor<2x4x5x5xf32>) {
  // Q, K, V = x W_in^T + b_in, split along the last axis.
  %qkv0 = tc.matmul %x, %w_in {transpose_rhs}
      : tensor<2x5x16xf32>, tensor<48x16xf32> -> tensor<2x5x48xf32>
  %qkv = tc.add %qkv0, %b_in : tensor<2x5x48xf32>, tensor<48xf32> -> tensor<2x5x48xf32>
  %q = tc.slice %qkv offsets = [0, 0, 0] : tensor<2x5x48xf32> -> tensor<2x5x16xf32>
  %k = tc.slice %qkv offsets = [0, 0, 16] : tensor<2x5x48xf32> -> tensor<2x5x16xf32>
  %v = tc.slice %qkv offsets = [0, 0, 32] : tensor<2x5x48xf32> -> tensor<2x5x16xf32>
  // Split heads: [B, T, d] -> [B, T, h, dk] -> [B, h, T, dk].
  %q4 = tc.reshape %q : tensor<2x5x16xf32> -> tensor<2x5x4x4xf32>
  %k4 = tc.reshape %k : tensor<2x5x16xf32> -> tensor<2x5x4x4xf32>
  %v4 = tc.reshape %v : tensor<2x5x16xf32> -> tensor<2x5x4x4xf32>
  %qh = tc.transpose %q4 permutation = [0, 2, 1, 3] : tensor<2x5x4x4xf32> -> tensor<2x4x5x4xf32>
  %kh = tc.transpose %k4 permutation = [0, 2, 1, 3] : tensor<2x5x4x4xf32> -> tensor<2x4x5x4xf32>
  %vh = tc.transpose %v4 permutation = [0, 2, 1, 3] : tensor<2x5x4x4xf32> -> tensor<2x4x5x4xf32>
  // Scores Q K^T / sqrt(dk), keys at padding masked out, softmax over keys.
  %s0 = tc.matmul %qh, %kh {transpose_rhs}
      : tensor<2x4x5x4xf32>, tensor<2x4x5x4xf32> -> tensor<2x4x5x5xf32>
  %scale = tc.constant dense<0.5> : tensor<f32>
  %s = tc.mul %s0, %scale : tensor<2x4x5x5xf32>, tensor<f32> -> tensor<2x4x5x5xf32>
  %keep = tc.padding_mask %ids pad_id = 0 : tensor<2x5xi32> -> tensor<2x5xi1>
  %keep4 = tc.reshape %keep : tensor<2x5xi1> -> tensor<2x1x1x5xi1>
  %neg = tc.constant dense<-1.0e9> : tensor<f32>
  %sm = tc.select %keep4, %s, %neg
      : tensor<2x1x1x5xi1>, tensor<2x4x5x5xf32>, tensor<f32> -> tensor<2x4x5x5xf32>
  %p = tc.softmax %sm axis = 3 : tensor<2x4x5x5xf32>
  // Weighted sum of V, heads merged back: [B, h, T, dk] -> [B, T, d].
  %o = tc.matmul %p, %vh : tensor<2x4x5x5xf32>, tensor<2x4x5x4xf32> -> tensor<2x4x5x4xf32>
  %ot = tc.transpose %o permutation = [0, 2, 1, 3] : tensor<2x4x5x4xf32> -> tensor<2x5x4x4xf32>
  %om = tc.reshape %ot : tensor<2x5x4x4xf32> -> tensor<2x5x16xf32>
  // Output projection, residual, post-LN.
  %a0 = tc.matmul %om, %w_out {transpose_rhs}
      : tensor<2x5x16xf32>, tensor<16x16xf32> -> tensor<2x5x16xf32>
  %a = tc.add %a0, %b_out : tensor<2x5x16xf32>, tensor<16xf32> -> tensor<2x5x16xf32>
  %r = tc.add %x, %a : tensor<2x5x16xf32>, tensor<2x5x16xf32> -> tensor<2x5x16xf32>
  %y = tc.layer_norm %r, %ln_g, %ln_b epsilon = 1.0e-05
      : tensor<2x5x16xf32>, tensor<16xf32>, tensor<16xf32>
  return %y, %p : tensor<2x5x16xf32>, tensor<2x4x5x5xf32>
}

func.func @encoder_block_sliced_weights(
    %x: tensor<2x5x16xf32>, %ids: tensor<2x5xi32>,
    %w_in: tensor<48x16xf32> {tc.param = "self_attn.in_proj_weight", tc.init = #tc.init<xavier_uniform>},
    %b_in: tensor<48xf32> {tc.param = "self_attn.in_proj_bias", tc.init = #tc.init<zeros>},
    %w_out: tensor<16x16xf32> {tc.param = "self_attn.out_proj.weight", tc.init = #tc.init<uniform(0.25)>},
    %b_out: tensor<16xf32> {tc.param = "self_attn.out_proj.bias", tc.init = #tc.init<zeros>},
    %ln_g: tensor<16xf32> {tc.param = "norm1.weight", tc.init = #tc.init<ones>},
    %ln_b: tensor<16xf32> {tc.param = "norm1.bias", tc.init = #tc.init<zeros>})
    -> (tensor<2x5x16xf32>, tensor<2x4x5x5xf32>) {
  // W_q, W_k, W_v are rows [0,16), [16,32), [32,48) of in_proj_weight.
  %wq = tc.slice %w_in offsets = [0, 0] : tensor<48x16xf32> -> tensor<16x16xf32>
  %wk = tc.slice %w_in offsets = [16, 0] : tensor<48x16xf32> -> tensor<16x16xf32>
  %wv = tc.slice %w_in offsets = [32, 0] : tensor<48x16xf32> -> tensor<16x16xf32>
  %bq = tc.slice %b_in offsets = [0] : tensor<48xf32> -> tensor<16xf32>
  %bk = tc.slice %b_in offsets = [16] : tensor<48xf32> -> tensor<16xf32>
  %bv = tc.slice %b_in offsets = [32] : tensor<48xf32> -> tensor<16xf32>
  %q0 = tc.matmul %x, %wq {transpose_rhs} : tensor<2x5x16xf32>, tensor<16x16xf32> -> tensor<2x5x16xf32>
  %k0 = tc.matmul %x, %wk {transpose_rhs} : tensor<2x5x16xf32>, tensor<16x16xf32> -> tensor<2x5x16xf32>
  %v0 = tc.matmul %x, %wv {transpose_rhs} : tensor<2x5x16xf32>, tensor<16x16xf32> -> tensor<2x5x16xf32>
  %q = tc.add %q0, %bq : tensor<2x5x16xf32>, tensor<16xf32> -> tensor<2x5x16xf32>
  %k = tc.add %k0, %bk : tensor<2x5x16xf32>, tensor<16xf32> -> tensor<2x5x16xf32>
  %v = tc.add %v0, %bv : tensor<2x5x16xf32>, tensor<16xf32> -> tensor<2x5x16xf32>
  %q4 = tc.reshape %q : tensor<2x5x16xf32> -> tensor<2x5x4x4xf32>
  %k4 = tc.reshape %k : tensor<2x5x16xf32> -> tensor<2x5x4x4xf32>
  %v4 = tc.reshape %v : tensor<2x5x16xf32> -> tensor<2x5x4x4xf32>
  %qh = tc.transpose %q4 permutation = [0, 2, 1, 3] : tensor<2x5x4x4xf32> -> tensor<2x4x5x4xf32>
  %kh = tc.transpose %k4 permutation = [0, 2, 1, 3] : tensor<2x5x4x4xf32> -> tensor<2x4x5x4xf32>
  %vh = tc.transpose %v4 permutation = [0, 2, 1, 3] : tensor<2x5x4x4xf32> -> tensor<2x4x5x4xf32>
  // Here 1/sqrt(dk) is a division by sqrt(4) after the product.
  %s0 = tc.matmul %qh, %kh {transpose_rhs}
      : tensor<2x4x5x4xf32>, tensor<2x4x5x4xf32> -> tensor<2x4x5x5xf32>
  %dk = tc.constant dense<4.0> : tensor<f32>
  %sqrt_dk = tc.sqrt %dk : tensor<f32>
  %s = tc.div %s0, %sqrt_dk : tensor<2x4x5x5xf32>, tensor<f32> -> tensor<2x4x5x5xf32>
  %keep = tc.padding_mask %ids pad_id = 0 : tensor<2x5xi32> -> tensor<2x5xi1>
  %keep4 = tc.reshape %keep : tensor<2x5xi1> -> tensor<2x1x1x5xi1>
  %neg = tc.constant dense<-1.0e9> : tensor<f32>
  %sm = tc.select %keep4, %s, %neg
      : tensor<2x1x1x5xi1>, tensor<2x4x5x5xf32>, tensor<f32> -> tensor<2x4x5x5xf32>
  %p = tc.softmax %sm axis = 3 : tensor<2x4x5x5xf32>
  %o = tc.matmul %p, %vh : tensor<2x4x5x5xf32>, tensor<2x4x5x4xf32> -> tensor<2x4x5x4xf32>
  %ot = tc.transpose %o permutation = [0, 2, 1, 3] : tensor<2x4x5x4xf32> -> tensor<2x5x4x4xf32>
  %om = tc.reshape %ot : tensor<2x5x4x4xf32> -> tensor<2x5x16xf32>
  %a0 = tc.matmul %om, %w_out {transpose_rhs}
      : tensor<2x5x16xf32>, tensor<16x16xf32> -> tensor<2x5x16xf32>
  %a = tc.add %a0, %b_out : tensor<2x5x16xf32>, tensor<16xf32> -> tensor<2x5x16xf32>
  %r = tc.add %x, %a : tensor<2x5x16xf32>, tensor<2x5x16xf32> -> tensor<2x5x16xf32>
  %y = tc.layer_norm %r, %ln_g, %ln_b epsilon = 1.0e-05
      : tensor<2x5x16xf32>, tensor<16xf32>, tensor<16xf32>
  return %y, %p : tensor<2x5x16xf32>, tensor<2x4x5x5xf32>
}
