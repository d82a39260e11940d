// tc.cached_attention on CUDA: a block of one warp per (row, head), its
// scores in shared memory (f32, one per cache position: 48 KiB holds
// 12,288), the blocks capped at 4,096 (the warps of a block then take
// (row, head) pairs grid-stride); a longer cache keeps a thread per (row,
// head) with its scores in local memory (NVRTC refuses more than 48 KiB of
// shared data: 13,000 positions failed in ptxas). The plan records each
// launch's geometry.
// RUN: split-file %s %t
// RUN: tc-compile %t/short.mlir --emit=cuda 2>/dev/null | FileCheck %s --check-prefix=WARP
// RUN: tc-compile %t/short.mlir --emit=plan | FileCheck %s --check-prefix=WARP-PLAN
// RUN: tc-compile %t/long.mlir --emit=cuda 2>/dev/null | FileCheck %s --check-prefix=THREAD
// RUN: tc-compile %t/long.mlir --emit=plan | FileCheck %s --check-prefix=THREAD-PLAN
// WARP-LABEL: void short_k0(
// WARP:      __shared__ float score[L];
// WARP:      for (int64_t task = blockIdx.x; task < R * H; task += gridDim.x) {
// WARP:        auto allowed = [&](int64_t j) {
// WARP:        s = tc::dotInLanes<LANES>(DK, q, k) * scale;
// A lane's channels (lane, lane + 32, ...) share each position's weight.
// WARP:        float context[(DV + 31) / 32] = {};
// WARP:        const float weight = score[j] / sum,
// WARP:          context[e] += weight * v[lane + 32 * e];
// WARP-PLAN: plan.launch @{{.*}} grid [4096, 1, 1] block [32, 1, 1]
// THREAD-LABEL: void long_k0(
// THREAD-NOT: __shared__
// THREAD:     TC_FOR(task, R * (H / HT)) {
// THREAD:       auto allowed = [&](int64_t j) {
// THREAD:         score[t][j] = tc::dotInLanes<LANES>(DK, q + t * DK, k + t * DK) * scale;
// THREAD-PLAN: plan.launch @{{.*}} grid [1, 1, 1] block [32, 1, 1]

//--- short.mlir
// 2,100 rows of 2 heads: 4,200 pairs on 4,096 blocks; 12,288 positions.
func.func @short(%q: tensor<2100x1x16xf32>, %k: tensor<1x12288x16xf32>,
                 %v: tensor<1x12288x16xf32>, %slot: tensor<2100xi32>)
    -> tensor<2100x1x16xf32> {
  %0 = tc.cached_attention %q, %k, %v slot %slot {heads = 2 : i64}
      : (tensor<2100x1x16xf32>, tensor<1x12288x16xf32>,
         tensor<1x12288x16xf32>, tensor<2100xi32>) -> tensor<2100x1x16xf32>
  return %0 : tensor<2100x1x16xf32>
}

//--- long.mlir
// 12,289 positions: a thread per (row, head), 8 pairs in one block.
func.func @long(%q: tensor<4x1x16xf32>, %k: tensor<1x12289x16xf32>,
                %v: tensor<1x12289x16xf32>, %slot: tensor<4xi32>)
    -> tensor<4x1x16xf32> {
  %0 = tc.cached_attention %q, %k, %v slot %slot {heads = 2 : i64}
      : (tensor<4x1x16xf32>, tensor<1x12289x16xf32>,
         tensor<1x12289x16xf32>, tensor<4xi32>) -> tensor<4x1x16xf32>
  return %0 : tensor<4x1x16xf32>
}
