// Hand-computed values of every elementwise op, through tc-interpret.
// RUN: tc-interpret %s --function=add --print | FileCheck %s --check-prefix=ADD
// RUN: tc-interpret %s --function=sub --print | FileCheck %s --check-prefix=SUB
// RUN: tc-interpret %s --function=mul --print | FileCheck %s --check-prefix=MUL
// RUN: tc-interpret %s --function=div --print | FileCheck %s --check-prefix=DIV
// RUN: tc-interpret %s --function=max --print | FileCheck %s --check-prefix=MAX
// RUN: tc-interpret %s --function=unary --print | FileCheck %s --check-prefix=UNARY
// RUN: tc-interpret %s --function=compare --print | FileCheck %s --check-prefix=CMP
// RUN: tc-interpret %s --function=select --print | FileCheck %s --check-prefix=SEL
// RUN: tc-interpret %s --function=convert --print | FileCheck %s --check-prefix=CONV

// Row [10, 20, 30] broadcast over both rows.
// ADD:      result #0: f32 [2, 3]
// ADD-NEXT: {{^\[\[}}11, 22, 33],
// ADD-NEXT: {{^}} [14, 25, 36]]
func.func @add() -> tensor<2x3xf32> {
  %a = tc.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = tc.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %r = tc.add %a, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// Column [1, 2] (shape [2, 1]) broadcast along the rows; lhs broadcasts too.
// SUB:      result #0: f32 [2, 3]
// SUB-NEXT: {{^\[\[}}0, -1, -2],
// SUB-NEXT: {{^}} [1, 0, -1]]
func.func @sub() -> tensor<2x3xf32> {
  %a = tc.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %b = tc.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %r = tc.sub %a, %b : tensor<2x1xf32>, tensor<3xf32> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// MUL:      result #0: f64 [3]
// MUL-NEXT: {{^}}[2, -4, 7]
func.func @mul() -> tensor<3xf64> {
  %a = tc.constant dense<[1.0, -2.0, 3.5]> : tensor<3xf64>
  %b = tc.constant dense<2.0> : tensor<f64>
  %r = tc.mul %a, %b : tensor<3xf64>, tensor<f64> -> tensor<3xf64>
  return %r : tensor<3xf64>
}

// DIV:      result #0: f32 [3]
// DIV-NEXT: {{^}}[0.25, 0.25, 0.1875]
func.func @div() -> tensor<3xf32> {
  %a = tc.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = tc.constant dense<[4.0, 8.0, 16.0]> : tensor<3xf32>
  %r = tc.div %a, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// MAX:      result #0: f32 [3]
// MAX-NEXT: {{^}}[1, 0, 3]
func.func @max() -> tensor<3xf32> {
  %a = tc.constant dense<[1.0, -2.0, 3.0]> : tensor<3xf32>
  %z = tc.constant dense<0.0> : tensor<f32>
  %r = tc.max %a, %z : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// UNARY:      result #0: f32 [2]
// UNARY-NEXT: {{^}}[-1, 2]
// UNARY-NEXT: result #1: f32 [2]
// UNARY-NEXT: {{^}}[1, 2.71828]
// UNARY-NEXT: result #2: f32 [2]
// UNARY-NEXT: {{^}}[0, 2]
// UNARY-NEXT: result #3: f32 [2]
// UNARY-NEXT: {{^}}[2, 1.41421]
// UNARY-NEXT: result #4: f32 [2]
// UNARY-NEXT: {{^}}[0.5, 2]
// UNARY-NEXT: result #5: f32 [2]
// UNARY-NEXT: {{^}}[0, 0.761594]
// UNARY-NEXT: result #6: f32 [3]
// UNARY-NEXT: {{^}}[0, 0, 2.5]
func.func @unary() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>,
                       tensor<2xf32>, tensor<2xf32>, tensor<3xf32>) {
  %a = tc.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %neg = tc.neg %a : tensor<2xf32>
  %b = tc.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %exp = tc.exp %b : tensor<2xf32>
  %c = tc.constant dense<[1.0, 7.3890561]> : tensor<2xf32>
  %log = tc.log %c : tensor<2xf32>
  %d = tc.constant dense<[4.0, 2.0]> : tensor<2xf32>
  %sqrt = tc.sqrt %d : tensor<2xf32>
  %e = tc.constant dense<[4.0, 0.25]> : tensor<2xf32>
  %rsqrt = tc.rsqrt %e : tensor<2xf32>
  %tanh = tc.tanh %b : tensor<2xf32>
  %f = tc.constant dense<[-1.0, 0.0, 2.5]> : tensor<3xf32>
  %relu = tc.relu %f : tensor<3xf32>
  return %neg, %exp, %log, %sqrt, %rsqrt, %tanh, %relu
      : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>,
        tensor<2xf32>, tensor<2xf32>, tensor<3xf32>
}

// [1, 2, 3] against 2 with each predicate; i32 operands compare too.
// CMP:      result #0: i1 [3]
// CMP-NEXT: {{^}}[0, 1, 0]
// CMP-NEXT: result #1: i1 [3]
// CMP-NEXT: {{^}}[1, 0, 1]
// CMP-NEXT: result #2: i1 [3]
// CMP-NEXT: {{^}}[1, 0, 0]
// CMP-NEXT: result #3: i1 [3]
// CMP-NEXT: {{^}}[1, 1, 0]
// CMP-NEXT: result #4: i1 [3]
// CMP-NEXT: {{^}}[0, 0, 1]
// CMP-NEXT: result #5: i1 [3]
// CMP-NEXT: {{^}}[0, 1, 1]
func.func @compare() -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi1>,
                         tensor<3xi1>, tensor<3xi1>, tensor<3xi1>) {
  %a = tc.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %two = tc.constant dense<2.0> : tensor<f32>
  %ai = tc.constant dense<[1, 2, 3]> : tensor<3xi32>
  %twoi = tc.constant dense<2> : tensor<i32>
  %eq = tc.compare eq, %a, %two : tensor<3xf32>, tensor<f32> -> tensor<3xi1>
  %ne = tc.compare ne, %ai, %twoi : tensor<3xi32>, tensor<i32> -> tensor<3xi1>
  %lt = tc.compare lt, %a, %two : tensor<3xf32>, tensor<f32> -> tensor<3xi1>
  %le = tc.compare le, %ai, %twoi : tensor<3xi32>, tensor<i32> -> tensor<3xi1>
  %gt = tc.compare gt, %a, %two : tensor<3xf32>, tensor<f32> -> tensor<3xi1>
  %ge = tc.compare ge, %a, %two : tensor<3xf32>, tensor<f32> -> tensor<3xi1>
  return %eq, %ne, %lt, %le, %gt, %ge
      : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>,
        tensor<3xi1>
}

// A [2, 1] mask and a scalar fill broadcast against [2, 2] values.
// SEL:      result #0: f32 [2, 2]
// SEL-NEXT: {{^\[\[}}1, 2],
// SEL-NEXT: {{^}} [-1, -1]]
func.func @select() -> tensor<2x2xf32> {
  %m = tc.constant dense<[[true], [false]]> : tensor<2x1xi1>
  %x = tc.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %fill = tc.constant dense<-1.0> : tensor<f32>
  %r = tc.select %m, %x, %fill : tensor<2x1xi1>, tensor<2x2xf32>, tensor<f32> -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// i32 -> f32 exactly, f32 -> i32 toward zero (saturating, NaN -> 0), f32 ->
// bf16 to nearest, i1 -> f32.
// CONV:      result #0: f32 [2]
// CONV-NEXT: {{^}}[1, -2]
// CONV-NEXT: result #1: i32 [2]
// CONV-NEXT: {{^}}[2, -2]
// CONV-NEXT: result #2: bf16 [1]
// CONV-NEXT: {{^}}[0.100098]
// CONV-NEXT: result #3: f32 [2]
// CONV-NEXT: {{^}}[1, 0]
// CONV-NEXT: result #4: i32 [4]
// CONV-NEXT: {{^}}[2147483647, 0, -2147483648, -7]
func.func @convert() -> (tensor<2xf32>, tensor<2xi32>, tensor<1xbf16>, tensor<2xf32>, tensor<4xi32>) {
  %i = tc.constant dense<[1, -2]> : tensor<2xi32>
  %f = tc.convert %i : tensor<2xi32> -> tensor<2xf32>
  %x = tc.constant dense<[2.7, -2.7]> : tensor<2xf32>
  %t = tc.convert %x : tensor<2xf32> -> tensor<2xi32>
  %p = tc.constant dense<[0.1]> : tensor<1xf32>
  %b = tc.convert %p : tensor<1xf32> -> tensor<1xbf16>
  %m = tc.constant dense<[true, false]> : tensor<2xi1>
  %mf = tc.convert %m : tensor<2xi1> -> tensor<2xf32>
  // Out of range saturates, NaN becomes 0.
  %w = tc.constant dense<[3.0e+09, 0x7FC00000, -1.0e+20, -7.9]> : tensor<4xf32>
  %s = tc.convert %w : tensor<4xf32> -> tensor<4xi32>
  return %f, %t, %b, %mf, %s : tensor<2xf32>, tensor<2xi32>, tensor<1xbf16>, tensor<2xf32>, tensor<4xi32>
}

// Integer arithmetic is exact in 64 bits (2^53 + 1 survives); i32 wraps; min.
// RUN: tc-interpret %s --function=integers --print | FileCheck %s --check-prefix=INT
// INT:      result #0: i64 [2]
// INT-NEXT: {{^}}[9007199254740993, 10]
// INT-NEXT: result #1: i32 [1]
// INT-NEXT: {{^}}[-2147483648]
// INT-NEXT: result #2: i64 [2]
// INT-NEXT: {{^}}[0, -4]
func.func @integers() -> (tensor<2xi64>, tensor<1xi32>, tensor<2xi64>) {
  %a = tc.constant dense<[9007199254740992, 7]> : tensor<2xi64>
  %b = tc.constant dense<[1, 3]> : tensor<2xi64>
  %sum = tc.add %a, %b : tensor<2xi64>, tensor<2xi64> -> tensor<2xi64>
  %max = tc.constant dense<2147483647> : tensor<1xi32>
  %one = tc.constant dense<1> : tensor<1xi32>
  %wrap = tc.add %max, %one : tensor<1xi32>, tensor<1xi32> -> tensor<1xi32>
  %c = tc.constant dense<[3, -4]> : tensor<2xi64>
  %z = tc.constant dense<0> : tensor<i64>
  %m = tc.min %c, %z : tensor<2xi64>, tensor<i64> -> tensor<2xi64>
  return %sum, %wrap, %m : tensor<2xi64>, tensor<1xi32>, tensor<2xi64>
}
