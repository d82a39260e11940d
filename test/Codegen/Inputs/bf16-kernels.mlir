// Kernels that read and write bf16 buffers and compute in f32, for
// test/Codegen/emit-bf16.test (their source) and test/unit/KernelInterpreterTest.cpp
// (their results on the CPU device and the SIMT harness against the
// interpreter, after tc-fuse-elementwise and tc-fuse-convert).

// f32 -> bf16 alone: the rounding, stored.
func.func @narrow(%x: tensor<8x16xf32>) -> tensor<8x16xbf16> {
  %b = tc.convert %x : tensor<8x16xf32> -> tensor<8x16xbf16>
  return %b : tensor<8x16xbf16>
}

// bf16 -> f32 alone: a load, exact.
func.func @widen(%b: tensor<8x16xbf16>) -> tensor<8x16xf32> {
  %y = tc.convert %b : tensor<8x16xbf16> -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// Views of bf16 values: returned (the plan's copies of 2-byte elements), and
// read by kernels: a transpose, a slice across rows and a concat (copy
// kernels of tc::bf16 elements) and a reshape (a view), then widened or
// negated in bf16.
func.func @views(%b: tensor<8x16xbf16>, %c: tensor<8x16xbf16>)
    -> (tensor<16x8xbf16>, tensor<4x16xbf16>, tensor<16x8xf32>, tensor<8x8xf32>,
        tensor<16x16xbf16>, tensor<128xf32>) {
  %t = tc.transpose %b permutation = [1, 0] : tensor<8x16xbf16> -> tensor<16x8xbf16>
  %rows = tc.slice %b offsets = [2, 0] : tensor<8x16xbf16> -> tensor<4x16xbf16>
  %tw = tc.convert %t : tensor<16x8xbf16> -> tensor<16x8xf32>
  %cols = tc.slice %c offsets = [0, 4] : tensor<8x16xbf16> -> tensor<8x8xbf16>
  %cw = tc.convert %cols : tensor<8x8xbf16> -> tensor<8x8xf32>
  %k = tc.concat %b, %c axis = 0 : tensor<8x16xbf16>, tensor<8x16xbf16> -> tensor<16x16xbf16>
  %n = tc.neg %k : tensor<16x16xbf16>
  %r = tc.reshape %c : tensor<8x16xbf16> -> tensor<128xbf16>
  %rw = tc.convert %r : tensor<128xbf16> -> tensor<128xf32>
  return %t, %rows, %tw, %cw, %n, %rw
      : tensor<16x8xbf16>, tensor<4x16xbf16>, tensor<16x8xf32>, tensor<8x8xf32>,
        tensor<16x16xbf16>, tensor<128xf32>
}

// One fused kernel: a bias added and dropout (rate 0.5, whose scale 2 is
// exact, so the f32 values are the interpreter's), narrowed to bf16 and
// stored; bf16 arithmetic (a product, rounded to bf16) and a bf16 row sum
// (accumulated in f64, rounded once); the product widened again.
func.func @fused(%x: tensor<8x16xf32>, %bias: tensor<16xf32>, %rng: tensor<2xi64>)
    -> (tensor<8x16xbf16>, tensor<8x16xf32>, tensor<8xbf16>) {
  %0 = tc.add %x, %bias : tensor<8x16xf32>, tensor<16xf32> -> tensor<8x16xf32>
  %1 = tc.dropout %0, %rng rate = 5.0e-01 key = 7 : tensor<8x16xf32>, tensor<2xi64>
  %2 = tc.convert %1 : tensor<8x16xf32> -> tensor<8x16xbf16>
  %3 = tc.mul %2, %2 : tensor<8x16xbf16>, tensor<8x16xbf16> -> tensor<8x16xbf16>
  %4 = tc.convert %3 : tensor<8x16xbf16> -> tensor<8x16xf32>
  %5 = tc.reduce_sum %2 axes = [1] : tensor<8x16xbf16> -> tensor<8xbf16>
  return %2, %4, %5 : tensor<8x16xbf16>, tensor<8x16xf32>, tensor<8xbf16>
}

// The ops with kernels of their own, on a bf16 table: the lookup, the
// scaled lookup with positions and dropout (computed in f64, rounded once),
// the sinusoids.
func.func @lookups(%table: tensor<24x8xbf16>, %ids: tensor<2x5xi32>, %rng: tensor<2xi64>)
    -> (tensor<2x5x8xbf16>, tensor<2x5x8xbf16>, tensor<5x8xbf16>) {
  %pe = tc.positional_encoding : tensor<5x8xbf16>
  %rows = tc.embedding %table, %ids : tensor<24x8xbf16>, tensor<2x5xi32> -> tensor<2x5x8xbf16>
  %x = tc.embed %table, %ids, %pe, %rng scale = 2.0 rate = 0.1 key = 1
      : tensor<24x8xbf16>, tensor<2x5xi32>, tensor<5x8xbf16>, tensor<2xi64> -> tensor<2x5x8xbf16>
  return %rows, %x, %pe : tensor<2x5x8xbf16>, tensor<2x5x8xbf16>, tensor<5x8xbf16>
}

// Row kernels whose result #0 only a convert to bf16 reads: tc-fuse-convert
// has them store it in bf16 (rounded once from the f32 value); the softmax's
// f32 probs, the LayerNorm's statistics stay f32. The f32 probs are not
// returned: the kernels' exps are tc::rowExp's, within 2 ulps of the
// interpreter's, so an f32 probability may differ in its last bit
// (KernelInterpreterTest's second inputs give two such).
func.func @rows(%s: tensor<2x4x8xf32>, %dy: tensor<2x4x8xf32>, %g: tensor<8xf32>,
                %t: tensor<2x4xi32>, %dl: tensor<f32>, %rng: tensor<2xi64>)
    -> (tensor<2x4x8xbf16>, tensor<2x4x8xbf16>, tensor<2x4x8xbf16>,
        tensor<2x4x1xf32>, tensor<2x4x8xbf16>) {
  %m = tc.causal_mask : tensor<8x8xi1>
  %mask = tc.slice %m offsets = [0, 0] : tensor<8x8xi1> -> tensor<4x8xi1>
  %p:2 = tc.masked_softmax %s, %mask, %rng scale = 0.5 fill = -1.0e9 rate = 0.5 key = 2
      : tensor<2x4x8xf32>, tensor<4x8xi1>, tensor<2xi64>
  %p16 = tc.convert %p#0 : tensor<2x4x8xf32> -> tensor<2x4x8xbf16>
  %ds = tc.masked_softmax_grad %p#1, %dy, %mask, %rng scale = 0.5 rate = 0.5 key = 2
      : tensor<2x4x8xf32>, tensor<4x8xi1>, tensor<2xi64>
  %ds16 = tc.convert %ds : tensor<2x4x8xf32> -> tensor<2x4x8xbf16>
  %n:3 = tc.residual_layer_norm %s, %dy, %g, %g, %rng rate = 0.5 key = 3 epsilon = 1.0e-05
      : tensor<2x4x8xf32>, tensor<8xf32>, tensor<2xi64> -> tensor<2x4x1xf32>
  %n16 = tc.convert %n#0 : tensor<2x4x8xf32> -> tensor<2x4x8xbf16>
  %dx = tc.cross_entropy_grad %dy, %t, %dl label_smoothing = 0.1 ignore_index = 0
      : tensor<2x4x8xf32>, tensor<2x4xi32>, tensor<f32>
  %dx16 = tc.convert %dx : tensor<2x4x8xf32> -> tensor<2x4x8xbf16>
  return %p16, %ds16, %n16, %n#1, %dx16
      : tensor<2x4x8xbf16>, tensor<2x4x8xbf16>, tensor<2x4x8xbf16>,
        tensor<2x4x1xf32>, tensor<2x4x8xbf16>
}

// A LayerNorm output and a sublayer gradient that are read in f32 too (here
// returned; in a step the next residual and a bias gradient's sums): each
// row kernel stores the f32 value and its bf16 copy (tc-fuse-convert), both
// compared bit for bit. Rows of 300, wider than a CUDA block's threads, so
// that a thread stores several elements of a row.
func.func @row_copies(%s: tensor<2x3x300xf32>, %dy: tensor<2x3x300xf32>,
                      %g: tensor<300xf32>, %rng: tensor<2xi64>)
    -> (tensor<2x3x300xf32>, tensor<2x3x300xbf16>, tensor<2x3x300xf32>,
        tensor<2x3x300xbf16>) {
  %n:3 = tc.residual_layer_norm %s, %dy, %g, %g, %rng rate = 0.5 key = 3 epsilon = 1.0e-05
      : tensor<2x3x300xf32>, tensor<300xf32>, tensor<2xi64> -> tensor<2x3x1xf32>
  %n16 = tc.convert %n#0 : tensor<2x3x300xf32> -> tensor<2x3x300xbf16>
  %d:4 = tc.residual_layer_norm_grad %s, %dy, %g, %n#1, %n#2, %dy, %rng rate = 0.5 key = 3
      : tensor<2x3x300xf32>, tensor<300xf32>, tensor<2x3x1xf32>, tensor<2xi64>
  %d16 = tc.convert %d#1 : tensor<2x3x300xf32> -> tensor<2x3x300xbf16>
  return %n#0, %n16, %d#1, %d16
      : tensor<2x3x300xf32>, tensor<2x3x300xbf16>, tensor<2x3x300xf32>,
        tensor<2x3x300xbf16>
}

// The loss and its gradient (tc-fuse-loss-grad, after tc-fuse-convert):
// one row kernel storing the gradient, which only a convert reads, in bf16.
// The gradient and the count of counted tokens are returned: both compare
// bit for bit, and the count keeps the loss's op alive, so the pass fuses
// it (with the gradient alone, the loss is dead and the gradient's own
// kernel runs). The loss itself (the kernel's f32 exponentials summed, the
// interpreter's f64 ones) need not match bit for bit; HostKernelTest
// compares it within its tolerance.
func.func @loss_and_grad(%t: tensor<3x4xi32>, %logits: tensor<3x4x8xf32>)
    -> (tensor<3x4x8xbf16>, tensor<i32>) {
  %loss, %tokens = tc.cross_entropy %logits, %t label_smoothing = 0.1 ignore_index = 0
      : tensor<3x4x8xf32>, tensor<3x4xi32> -> tensor<f32>, tensor<i32>
  %seed = tc.constant dense<1.0> : tensor<f32>
  %dx = tc.cross_entropy_grad %logits, %t, %seed label_smoothing = 0.1 ignore_index = 0
      : tensor<3x4x8xf32>, tensor<3x4xi32>, tensor<f32>
  %dx16 = tc.convert %dx : tensor<3x4x8xf32> -> tensor<3x4x8xbf16>
  return %dx16, %tokens : tensor<3x4x8xbf16>, tensor<i32>
}

// tc.masked_softmax and its gradient with a mask of the scores' own shape:
// the row kernels index a mask by row and column (broadcastIndex's inRows),
// where no flat index `i` is in scope (it did not compile). The results in
// bf16 only: the kernels' exps are tc::rowExp's, the interpreter's exp's
// within 2 ulps, and an f32 probability may differ in its last bit (two of
// these 64 do).
func.func @full_mask(%s: tensor<2x4x8xf32>, %dy: tensor<2x4x8xf32>,
                     %rng: tensor<2xi64>)
    -> (tensor<2x4x8xbf16>, tensor<2x4x8xbf16>) {
  %m = tc.causal_mask : tensor<8x8xi1>
  %mask = tc.slice %m offsets = [0, 0] : tensor<8x8xi1> -> tensor<4x8xi1>
  %full = tc.broadcast_to %mask : tensor<4x8xi1> -> tensor<2x4x8xi1>
  %p:2 = tc.masked_softmax %s, %full, %rng scale = 0.5 fill = -1.0e9 rate = 0.5 key = 4
      : tensor<2x4x8xf32>, tensor<2x4x8xi1>, tensor<2xi64>
  %p16 = tc.convert %p#0 : tensor<2x4x8xf32> -> tensor<2x4x8xbf16>
  %ds = tc.masked_softmax_grad %p#1, %dy, %full, %rng scale = 0.5 rate = 0.5 key = 4
      : tensor<2x4x8xf32>, tensor<2x4x8xi1>, tensor<2xi64>
  %ds16 = tc.convert %ds : tensor<2x4x8xf32> -> tensor<2x4x8xbf16>
  return %p16, %ds16 : tensor<2x4x8xbf16>, tensor<2x4x8xbf16>
}
