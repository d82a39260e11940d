// Copy kernels: a tc.transpose or tc.slice that is not a view its reader
// takes (a kernel reads contiguous buffers only) becomes a kernel that
// copies it (OpKernels.cpp, copyLoop): on the host a result row per
// iteration, on CUDA a thread per element. A transpose and a slice with
// offsets in both dimensions, each the table of an embedding lookup (which
// copies rows exactly). (A decoder step's rank-4 copy, the Q/K/V split of
// tc-fuse-qkv's flat form, runs in HostKernelTest.)

func.func @transposed_table(%x: tensor<8x6xf32>, %ids: tensor<5x1xi32>) -> tensor<5x1x8xf32> {
  %t = tc.transpose %x permutation = [1, 0] : tensor<8x6xf32> -> tensor<6x8xf32>
  %e = tc.embedding %t, %ids : tensor<6x8xf32>, tensor<5x1xi32> -> tensor<5x1x8xf32>
  return %e : tensor<5x1x8xf32>
}

func.func @sliced_table(%x: tensor<9x12xf32>, %ids: tensor<5x1xi32>) -> tensor<5x1x8xf32> {
  %s = tc.slice %x offsets = [3, 2] : tensor<9x12xf32> -> tensor<4x8xf32>
  %e = tc.embedding %s, %ids : tensor<4x8xf32>, tensor<5x1xi32> -> tensor<5x1x8xf32>
  return %e : tensor<5x1x8xf32>
}
