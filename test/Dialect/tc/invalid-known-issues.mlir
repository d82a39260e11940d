// Verifier behaviour that should be but is not yet: each case fails today, so
// the file is XFAIL. Once every case passes, lit reports XPASS: then remove
// the XFAIL line (and move the cases into invalid.mlir).
// XFAIL: *

// RUN: tc-opt %s --split-input-file --verify-diagnostics

// The argument attribute's name is quoted once, as 'tc.param'. Today the
// StringAttr is streamed as an attribute and prints '"tc.param"'.
// expected-error @+1 {{argument #0 carries 'tc.param' but has type 'tensor<4xi32>'; parameters are floating-point tensors}}
func.func @param_on_i32(%w: tensor<4xi32> {tc.param = "w"}) {
  return
}

// -----

// Same quoting for an unknown tc argument attribute (today '"tc.frozen"').
// expected-error @+1 {{unknown tc argument attribute 'tc.frozen'; expected 'tc.param'}}
func.func @unknown_arg_attr(%w: tensor<4xf32> {tc.param = "w", tc.frozen}) {
  return
}

// -----

// A parameter has a static shape (the runtime allocates and initialises it,
// and no tc op accepts a dynamic tensor). Today tensor<?x8xf32> is accepted.
// expected-error-re @+1 {{argument #0 {{.*}}tensor<?x8xf32>}}
func.func @param_dynamic_shape(%w: tensor<?x8xf32> {tc.param = "w", tc.init = #tc.init<zeros>}) {
  return
}

// -----

// A parameter's element type is one the dialect computes in (f32, f16, bf16,
// f64). Today any FloatType passes, e.g. f8E4M3FN.
// expected-error-re @+1 {{argument #0 {{.*}}tensor<8xf8E4M3FN>}}
func.func @param_f8(%w: tensor<8xf8E4M3FN> {tc.param = "w"}) {
  return
}
