// Reductions in each of CUDA's loop skeletons, for
// test/Codegen/emit-cuda-reductions.test (their source) and
// test/unit/KernelInterpreterTest.cpp (their results on the CPU device and
// the SIMT harness against the interpreter, after tc-fuse-elementwise). The
// first input holds NaNs and infinities among its first elements: a maximum
// propagates them.

// Rows of contiguous elements: a block per row (GpuRows); a gradient norm's
// sum of squares into one result (GpuRows, one block does it all).
func.func @rows(%x: tensor<40x100xf32>, %y: tensor<64x300xf32>)
    -> (tensor<40xf32>, tensor<f32>) {
  %max = tc.reduce_max %x axes = [1] : tensor<40x100xf32> -> tensor<40xf32>
  %squares = tc.mul %y, %y : tensor<64x300xf32>, tensor<64x300xf32> -> tensor<64x300xf32>
  %norm = tc.reduce_sum %squares axes = [0, 1] : tensor<64x300xf32> -> tensor<f32>
  return %max, %norm : tensor<40xf32>, tensor<f32>
}

// A middle axis into few results (GpuRows, strided): a sum and a mean in
// one loop.
func.func @middle(%x: tensor<8x50x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %sum = tc.reduce_sum %x axes = [1] : tensor<8x50x4xf32> -> tensor<8x4xf32>
  %mean = tc.reduce_mean %x axes = [1] : tensor<8x50x4xf32> -> tensor<8x4xf32>
  return %sum, %mean : tensor<8x4xf32>, tensor<8x4xf32>
}

// The maximum over the leading axis (no column skeleton for maxima):
// GpuRows, few results.
func.func @leading_max(%x: tensor<100x6xf32>) -> tensor<6xf32> {
  %max = tc.reduce_max %x axes = [0] : tensor<100x6xf32> -> tensor<6xf32>
  return %max : tensor<6xf32>
}

// Rows shorter than a warp: a thread per result (PerResult).
func.func @short_rows(%x: tensor<300x8xf32>) -> tensor<300xf32> {
  %sum = tc.reduce_sum %x axes = [1] : tensor<300x8xf32> -> tensor<300xf32>
  return %sum : tensor<300xf32>
}

// Sums over the leading axes (a bias gradient, GpuColumns) of a value the
// same loop computes and stores: 700 rows of 20 columns (1 tile) split
// into 3 parts (the rows over 256, rounded up), whose sums the tile's last
// block adds;
// and a mean over the two leading axes of 10 rows (1 part).
func.func @columns(%x: tensor<700x20xf32>, %y: tensor<2x5x12xf32>)
    -> (tensor<20xf32>, tensor<700x20xf32>, tensor<12xf32>) {
  %twice = tc.add %x, %x : tensor<700x20xf32>, tensor<700x20xf32> -> tensor<700x20xf32>
  %sum = tc.reduce_sum %twice axes = [0] : tensor<700x20xf32> -> tensor<20xf32>
  %mean = tc.reduce_mean %y axes = [0, 1] : tensor<2x5x12xf32> -> tensor<12xf32>
  return %sum, %twice, %mean : tensor<20xf32>, tensor<700x20xf32>, tensor<12xf32>
}

// More parts than a block's 8 groups of 32 lanes, two sums in one loop
// (tc::columnTotals<2>): 2,600 rows of 40 columns (2 tiles, the second 8
// columns wide) in 11 parts of about 236 rows, so that each tile's last
// block's groups 0-2 add two parts each before columnTotal adds the groups.
// The first argument takes the rounding cases' NaNs, so that every column
// of %x is checked.
func.func @many_parts(%cases: tensor<4xf32>, %x: tensor<2600x40xf32>)
    -> (tensor<4xf32>, tensor<2600x40xf32>, tensor<40xf32>, tensor<40xf32>) {
  %doubled = tc.add %cases, %cases : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %twice = tc.add %x, %x : tensor<2600x40xf32>, tensor<2600x40xf32> -> tensor<2600x40xf32>
  %sum = tc.reduce_sum %twice axes = [0] : tensor<2600x40xf32> -> tensor<40xf32>
  %squares = tc.mul %twice, %x : tensor<2600x40xf32>, tensor<2600x40xf32> -> tensor<2600x40xf32>
  %mean = tc.reduce_mean %squares axes = [0] : tensor<2600x40xf32> -> tensor<40xf32>
  return %doubled, %twice, %sum, %mean
      : tensor<4xf32>, tensor<2600x40xf32>, tensor<40xf32>, tensor<40xf32>
}

// LayerNorm's gamma and beta gradients with more parts than groups: 2,304
// rows of 256 columns (8 tiles, 256-thread blocks of 8 groups) in 9 parts
// of 256 rows (TC_COLUMN_TOTALS).
func.func @layer_norm_grad_many_parts(%rng: tensor<2xi64>, %r: tensor<2304x256xf32>,
                                      %s: tensor<2304x256xf32>, %g: tensor<256xf32>,
                                      %mean: tensor<2304x1xf32>, %rstd: tensor<2304x1xf32>,
                                      %dy: tensor<2304x256xf32>)
    -> (tensor<2304x256xf32>, tensor<2304x256xf32>, tensor<256xf32>, tensor<256xf32>) {
  %dr, %ds, %dg, %db = tc.residual_layer_norm_grad %r, %s, %g, %mean, %rstd, %dy, %rng
      rate = 0.0 key = 4
      : tensor<2304x256xf32>, tensor<256xf32>, tensor<2304x1xf32>, tensor<2xi64>
  return %dr, %ds, %dg, %db
      : tensor<2304x256xf32>, tensor<2304x256xf32>, tensor<256xf32>, tensor<256xf32>
}

// LayerNorm's gamma and beta gradients over 1,024 rows: on CUDA the tile of
// 32 columns splits its rows into 4 parts among blocks, and the last block
// of a tile adds the parts (TC_COLUMN_TOTALS). The RNG state comes
// first, so that no LayerNorm input holds the rounding cases' NaNs.
func.func @layer_norm_grad_columns(%rng: tensor<2xi64>, %r: tensor<1024x16xf32>,
                                   %s: tensor<1024x16xf32>, %g: tensor<16xf32>,
                                   %mean: tensor<1024x1xf32>, %rstd: tensor<1024x1xf32>,
                                   %dy: tensor<1024x16xf32>)
    -> (tensor<1024x16xf32>, tensor<1024x16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %dr, %ds, %dg, %db = tc.residual_layer_norm_grad %r, %s, %g, %mean, %rstd, %dy, %rng
      rate = 0.0 key = 4
      : tensor<1024x16xf32>, tensor<16xf32>, tensor<1024x1xf32>, tensor<2xi64>
  return %dr, %ds, %dg, %db
      : tensor<1024x16xf32>, tensor<1024x16xf32>, tensor<16xf32>, tensor<16xf32>
}

// The same over 20 columns (the tile of 32 part empty) and 1,025 rows:
// 4 parts of 257 rows, the last of 254.
func.func @layer_norm_grad_uneven(%rng: tensor<2xi64>, %r: tensor<1025x20xf32>,
                                  %s: tensor<1025x20xf32>, %g: tensor<20xf32>,
                                  %mean: tensor<1025x1xf32>, %rstd: tensor<1025x1xf32>,
                                  %dy: tensor<1025x20xf32>)
    -> (tensor<1025x20xf32>, tensor<1025x20xf32>, tensor<20xf32>, tensor<20xf32>) {
  %dr, %ds, %dg, %db = tc.residual_layer_norm_grad %r, %s, %g, %mean, %rstd, %dy, %rng
      rate = 0.0 key = 4
      : tensor<1025x20xf32>, tensor<20xf32>, tensor<1025x1xf32>, tensor<2xi64>
  return %dr, %ds, %dg, %db
      : tensor<1025x20xf32>, tensor<1025x20xf32>, tensor<20xf32>, tensor<20xf32>
}
