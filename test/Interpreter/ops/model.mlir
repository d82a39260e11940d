// Hand-computed values of matmul and the Transformer-specific ops.
// RUN: tc-interpret %s --function=matmul --print | FileCheck %s --check-prefix=MM
// RUN: tc-interpret %s --function=bf16_matmul --print | FileCheck %s --check-prefix=BMM
// RUN: tc-interpret %s --function=embedding --print | FileCheck %s --check-prefix=EMB
// RUN: tc-interpret %s --function=embedding_grad --print | FileCheck %s --check-prefix=EMBGRAD
// RUN: tc-interpret %s --function=masks --print | FileCheck %s --check-prefix=MASK
// RUN: tc-interpret %s --function=positions --print | FileCheck %s --check-prefix=PE
// RUN: tc-interpret %s --function=cross_entropy --print | FileCheck %s --check-prefix=CE
// RUN: tc-interpret %s --function=dropout --print | FileCheck %s --check-prefix=DROP

// a = [[1, 2], [3, 4]], b = [[5, 6], [7, 8]]: a b, a b^T, a^T b, and a batch
// [2, 1, 2] times the unbatched b.
// MM:      result #0: f32 [2, 2]
// MM-NEXT: {{^\[\[}}19, 22],
// MM-NEXT: {{^}} [43, 50]]
// MM-NEXT: result #1: f32 [2, 2]
// MM-NEXT: {{^\[\[}}17, 23],
// MM-NEXT: {{^}} [39, 53]]
// MM-NEXT: result #2: f32 [2, 2]
// MM-NEXT: {{^\[\[}}26, 30],
// MM-NEXT: {{^}} [38, 44]]
// MM-NEXT: result #3: f32 [2, 1, 2]
// MM-NEXT: {{^\[\[\[}}19, 22]],
// MM-NEXT: {{^}} {{\[\[}}43, 50]]]
func.func @matmul() -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x1x2xf32>) {
  %a = tc.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = tc.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  %ab = tc.matmul %a, %b : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  %abt = tc.matmul %a, %b {transpose_rhs} : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  %atb = tc.matmul %a, %b {transpose_lhs} : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  %batch = tc.constant dense<[[[1.0, 2.0]], [[3.0, 4.0]]]> : tensor<2x1x2xf32>
  %bb = tc.matmul %batch, %b : tensor<2x1x2xf32>, tensor<2x2xf32> -> tensor<2x1x2xf32>
  return %ab, %abt, %atb, %bb : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x1x2xf32>
}

// A bf16 result is the f32 sum rounded to bf16, as a GEMM stores it (every
// rounding to bf16 goes through f32: Tensor.cpp): 1 + 2^-8 + 2^-30 is
// 1 + 2^-8 in f32 (a tie between bf16's 1 and 1 + 2^-7, to even: 1), where
// the exact sum rounded to bf16 once would be 1 + 2^-7; and 1 + 3 * 2^-8
// (the tie to even upwards: 1 + 2^-6).
// BMM:      result #0: bf16 [2, 1]
// BMM-NEXT: {{^\[\[}}1],
// BMM-NEXT: {{^}} [1.01562]]
func.func @bf16_matmul() -> tensor<2x1xbf16> {
  %a = tc.constant dense<[[1.0, 0.00390625, 9.31322574615478515625e-10], [1.0, 0.01171875, 0.0]]> : tensor<2x3xbf16>
  %ones = tc.constant dense<1.0> : tensor<3x1xbf16>
  %r = tc.matmul %a, %ones : tensor<2x3xbf16>, tensor<3x1xbf16> -> tensor<2x1xbf16>
  return %r : tensor<2x1xbf16>
}

// EMB:      result #0: f32 [2, 2, 2]
// EMB-NEXT: {{^\[\[\[}}20, 21],
// EMB-NEXT: {{^}}  [0, 1]],
// EMB-NEXT: {{^}} {{\[\[}}10, 11],
// EMB-NEXT: {{^}}  [10, 11]]]
func.func @embedding() -> tensor<2x2x2xf32> {
  %table = tc.constant dense<[[0.0, 1.0], [10.0, 11.0], [20.0, 21.0]]> : tensor<3x2xf32>
  %ids = tc.constant dense<[[2, 0], [1, 1]]> : tensor<2x2xi32>
  %e = tc.embedding %table, %ids : tensor<3x2xf32>, tensor<2x2xi32> -> tensor<2x2x2xf32>
  return %e : tensor<2x2x2xf32>
}

// Row v sums the rows of dy whose id is v, the padding_id's (1) excepted;
// the same with a base of ones.
// EMBGRAD:      result #0: f32 [3, 2]
// EMBGRAD-NEXT: {{^\[\[}}2, 20],
// EMBGRAD-NEXT: {{^}} [0, 0],
// EMBGRAD-NEXT: {{^}} [1, 10]]
// EMBGRAD-NEXT: result #1: f32 [3, 2]
// EMBGRAD-NEXT: {{^\[\[}}3, 21],
// EMBGRAD-NEXT: {{^}} [1, 1],
// EMBGRAD-NEXT: {{^}} [2, 11]]
func.func @embedding_grad() -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %ids = tc.constant dense<[[2, 0], [1, 1]]> : tensor<2x2xi32>
  %dy = tc.constant dense<[[[1.0, 10.0], [2.0, 20.0]], [[3.0, 30.0], [4.0, 40.0]]]> : tensor<2x2x2xf32>
  %g = tc.embedding_grad %ids, %dy {padding_id = 1 : i64} : tensor<2x2xi32>, tensor<2x2x2xf32> -> tensor<3x2xf32>
  %ones = tc.constant dense<1.0> : tensor<3x2xf32>
  %a = tc.embedding_grad_add %ones, %ids, %dy {padding_id = 1 : i64} : tensor<3x2xf32>, tensor<2x2xi32>, tensor<2x2x2xf32>
  return %g, %a : tensor<3x2xf32>, tensor<3x2xf32>
}

// MASK:      result #0: i1 [3, 3]
// MASK-NEXT: {{^\[\[}}1, 0, 0],
// MASK-NEXT: {{^}} [1, 1, 0],
// MASK-NEXT: {{^}} [1, 1, 1]]
// MASK-NEXT: result #1: i1 [2, 3]
// MASK-NEXT: {{^\[\[}}1, 1, 0],
// MASK-NEXT: {{^}} [1, 0, 0]]
func.func @masks() -> (tensor<3x3xi1>, tensor<2x3xi1>) {
  %causal = tc.causal_mask : tensor<3x3xi1>
  %ids = tc.constant dense<[[5, 9, 0], [7, 0, 0]]> : tensor<2x3xi32>
  %pad = tc.padding_mask %ids pad_id = 0 : tensor<2x3xi32> -> tensor<2x3xi1>
  return %causal, %pad : tensor<3x3xi1>, tensor<2x3xi1>
}

// PE[pos, 2i] = sin(pos / 10000^(2i/4)), PE[pos, 2i+1] = cos(...): the
// frequencies are 1 and 1/100.
// PE:      result #0: f32 [3, 4]
// PE-NEXT: {{^\[\[}}0, 1, 0, 1],
// PE-NEXT: {{^}} [0.841471, 0.540302, 0.00999983, 0.99995],
// PE-NEXT: {{^}} [0.909297, -0.416147, 0.0199987, 0.9998]]
func.func @positions() -> tensor<3x4xf32> {
  %pe = tc.positional_encoding : tensor<3x4xf32>
  return %pe : tensor<3x4xf32>
}

// logits [[0, 0, 0], [1, 2, 3]], targets [1, 0]:
//   no smoothing: ln 3 + (3 + ln(1 + e^-1 + e^-2) - 1) = 3.50622 over 2 tokens;
//   smoothing 0.1: 0.9 nll + 0.1 mean(-logp) per token = 3.40622;
//   ignore_index 0 drops the second token: ln 3 = 1.09861 over 1 token.
// CE:      result #0: f32 []
// CE-NEXT: {{^}}3.50622{{$}}
// CE-NEXT: result #1: i32 []
// CE-NEXT: {{^}}2{{$}}
// CE-NEXT: result #2: f32 []
// CE-NEXT: {{^}}3.40622{{$}}
// CE-NEXT: result #3: i32 []
// CE-NEXT: {{^}}2{{$}}
// CE-NEXT: result #4: f32 []
// CE-NEXT: {{^}}1.09861{{$}}
// CE-NEXT: result #5: i32 []
// CE-NEXT: {{^}}1{{$}}
func.func @cross_entropy() -> (tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>,
                               tensor<f32>, tensor<i32>) {
  %logits = tc.constant dense<[[0.0, 0.0, 0.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  %targets = tc.constant dense<[1, 0]> : tensor<2xi32>
  %l0, %n0 = tc.cross_entropy %logits, %targets label_smoothing = 0.0 ignore_index = -1
      : tensor<2x3xf32>, tensor<2xi32> -> tensor<f32>, tensor<i32>
  %l1, %n1 = tc.cross_entropy %logits, %targets label_smoothing = 0.1 ignore_index = -1
      : tensor<2x3xf32>, tensor<2xi32> -> tensor<f32>, tensor<i32>
  %l2, %n2 = tc.cross_entropy %logits, %targets label_smoothing = 0.1 ignore_index = 0
      : tensor<2x3xf32>, tensor<2xi32> -> tensor<f32>, tensor<i32>
  return %l0, %n0, %l1, %n1, %l2, %n2
      : tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>
}

// Rate 0.75 keeps 1/4 of the ones, scaled by 4. The expected masks come from an
// independent Python Philox 4x32-10 (seed 7, key 11, steps 3 and 4): the step
// changes the mask; rate 0 is the identity.
// DROP:      result #0: f32 [12]
// DROP-NEXT: {{^}}[4, 0, 0, 0, 4, 4, 0, 0, 0, 4, 0, 0]
// DROP-NEXT: result #1: f32 [12]
// DROP-NEXT: {{^}}[0, 0, 0, 0, 4, 0, 0, 4, 0, 0, 0, 0]
// DROP-NEXT: result #2: f32 [12]
// DROP-NEXT: {{^}}[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
func.func @dropout() -> (tensor<12xf32>, tensor<12xf32>, tensor<12xf32>) {
  %x = tc.constant dense<1.0> : tensor<12xf32>
  %rng3 = tc.constant dense<[7, 3]> : tensor<2xi64>
  %rng4 = tc.constant dense<[7, 4]> : tensor<2xi64>
  %a = tc.dropout %x, %rng3 rate = 0.75 key = 11 : tensor<12xf32>, tensor<2xi64>
  %b = tc.dropout %x, %rng4 rate = 0.75 key = 11 : tensor<12xf32>, tensor<2xi64>
  %c = tc.dropout %x, %rng4 rate = 0.0 key = 11 : tensor<12xf32>, tensor<2xi64>
  return %a, %b, %c : tensor<12xf32>, tensor<12xf32>, tensor<12xf32>
}
