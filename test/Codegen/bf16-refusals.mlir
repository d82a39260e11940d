// Row kernels (softmax, LayerNorm, cross-entropy and their gradients)
// compute on f32 tensors only, and mixed precision keeps them f32: a bf16
// operand is refused with a diagnostic naming the kernel, the op and the
// value, for either target, never emitted as code that computes it wrong.
// So is a bf16 tensor in the embedding gradient (and Adam), whose kernels
// compute in their tensors' type: f32 in every precision.
// RUN: split-file %s %t
// --emit=cpp stops at the first kernel it cannot emit; --emit=cuda prints
// the others and a note for each it cannot (an executable is refused).
// RUN: not tc-compile %t/softmax.mlir --emit=cpp 2>&1 | FileCheck %s --check-prefixes=CPP,ROW
// RUN: tc-compile %t/softmax.mlir --emit=cuda 2>&1 >/dev/null | FileCheck %s --check-prefixes=CUDA,ROW,CUDA-COUNT
// CPP: softmax.mlir: error: kernel 'softmax_k0' (tc.masked_softmax):
// CUDA: tc-compile: note: kernel softmax_k0:
// ROW-SAME: 'tc.masked_softmax': operand #0 is bf16, but row kernels (softmax, LayerNorm, cross-entropy and their gradients) compute on f32 tensors only; convert it to f32 first (tc.convert)
// CUDA-COUNT: tc-compile: 0 CUDA kernels, 1 without a CUDA skeleton yet
// Result #0 may be bf16 (tc-fuse-convert's narrowed store); any other bf16
// result (a LayerNorm's statistics) is refused.
// RUN: not tc-compile %t/layer-norm.mlir --emit=cpp 2>&1 | FileCheck %s --check-prefix=STATS
// STATS: 'tc.residual_layer_norm': result #1 is bf16, but row kernels (softmax, LayerNorm, cross-entropy and their gradients) compute on f32 tensors only
// RUN: not tc-compile %t/embedding-grad.mlir --emit=cpp 2>&1 | FileCheck %s --check-prefix=GRAD
// RUN: tc-compile %t/embedding-grad.mlir --emit=cuda 2>&1 >/dev/null | FileCheck %s --check-prefix=GRAD
// GRAD: 'tc.embedding_grad': operand #1 is bf16, but its kernel updates f32 tensors only (parameters, Adam's moments and gradients stay f32 in every precision)

//--- softmax.mlir
func.func @softmax(%s: tensor<2x6xbf16>, %m: tensor<2x6xi1>, %rng: tensor<2xi64>) -> tensor<2x6xbf16> {
  %out, %probs = tc.masked_softmax %s, %m, %rng scale = 5.0e-01 fill = -1.0e+09 rate = 0.0 key = 0 : tensor<2x6xbf16>, tensor<2x6xi1>, tensor<2xi64>
  return %out : tensor<2x6xbf16>
}

//--- layer-norm.mlir
func.func @layer_norm(%x: tensor<2x8xf32>, %g: tensor<8xf32>, %rng: tensor<2xi64>) -> (tensor<2x8xbf16>, tensor<2x1xbf16>) {
  %y, %mean, %rstd = tc.residual_layer_norm %x, %x, %g, %g, %rng rate = 0.0 key = 1 epsilon = 1.0e-05 : tensor<2x8xf32>, tensor<8xf32>, tensor<2xi64> narrowed tensor<2x8xbf16> -> tensor<2x1xbf16>
  return %y, %mean : tensor<2x8xbf16>, tensor<2x1xbf16>
}

//--- embedding-grad.mlir
func.func @embedding_grad(%ids: tensor<2x5xi32>, %dy: tensor<2x5x8xbf16>) -> tensor<24x8xbf16> {
  %0 = tc.embedding_grad %ids, %dy : tensor<2x5xi32>, tensor<2x5x8xbf16> -> tensor<24x8xbf16>
  return %0 : tensor<24x8xbf16>
}
