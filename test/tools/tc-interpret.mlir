// tc-interpret's command line: inputs, parameters, outputs and every error.
// RUN: rm -rf %t && mkdir -p %t/params
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([[1, 2, 3], [4, 5, 6]], np.float32)); np.save('%t/params/scale.npy', np.array([10, 20, 30], np.float32)); np.save('%t/bad.npy', np.zeros((3, 2), np.float32)); np.save('%t/ids.npy', np.array([0, 7], np.int32))"

// Parameters come from --params-dir, the other arguments from --input.
// RUN: tc-interpret %s --function=scale --params-dir=%t/params --input=%t/x.npy --print --output-dir=%t/out | FileCheck %s --check-prefix=OUT
// RUN: %python -c "import numpy as np; r = np.load('%t/out/result0.npy'); assert r.dtype == np.float32 and r.tolist() == [[10, 40, 90], [40, 100, 180]], r"
// RUN: %python -c "import numpy as np; r = np.load('%t/out/result1.npy'); assert r.dtype == np.int32 and r.shape == (), r"
// OUT-LABEL: result #0: f32 [2, 3]
// OUT-NEXT: {{^\[\[}}10, 40, 90],
// OUT-NEXT: {{^}} [40, 100, 180]]
// OUT-NEXT: result #1: i32 []
// OUT-NEXT: {{^}}6{{$}}
func.func @scale(%x: tensor<2x3xf32>,
                 %w: tensor<3xf32> {tc.param = "scale", tc.init = #tc.init<ones>})
    -> (tensor<2x3xf32>, tensor<i32>) {
  %y = tc.mul %x, %w : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %n = tc.constant dense<6> : tensor<i32>
  return %y, %n : tensor<2x3xf32>, tensor<i32>
}

// An argument without a value.
// RUN: not tc-interpret %s --function=scale --input=%t/x.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: @scale argument #1 (tensor<3xf32>) has no value
// MISSING: note: give one more --input=FILE.npy, or --params-dir=DIR for parameters

// An input of the wrong shape names the argument and both shapes.
// RUN: not tc-interpret %s --function=scale --params-dir=%t/params --input=%t/bad.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: tc-interpret.mlir:[[@LINE-15]]:1: error: argument #0 expects 'tensor<2x3xf32>' but was given f32 [3, 2]

// Too many inputs, an unknown function, a missing file.
// RUN: not tc-interpret %s --function=scale --params-dir=%t/params --input=%t/x.npy --input=%t/x.npy 2>&1 | FileCheck %s --check-prefix=EXTRA
// EXTRA: error: 1 --input file(s) more than @scale has arguments for
// RUN: not tc-interpret %s --function=nope 2>&1 | FileCheck %s --check-prefix=NOFN
// NOFN: error: no function @nope
// RUN: not tc-interpret %s 2>&1 | FileCheck %s --check-prefix=SEVERAL
// SEVERAL: error: the module has several functions; name one with --function=NAME
// RUN: not tc-interpret %s --function=scale --params-dir=%t/nowhere --input=%t/x.npy 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: error: {{.*}}nowhere/scale.npy: cannot open

// An id outside the table is a run-time error (exit 1) at the op.
// RUN: not tc-interpret %s --function=lookup --input=%t/ids.npy 2>&1 | FileCheck %s --check-prefix=IDS
// RUN: bash -c 'tc-interpret %s --function=lookup --input=%t/ids.npy; test $? -eq 1' 2>/dev/null
// IDS: tc-interpret.mlir:[[@LINE+3]]:8: error: at run time: id 7 at position 1 is outside the table's [0, 4)
func.func @lookup(%ids: tensor<2xi32>) -> tensor<2x3xf32> {
  %table = tc.constant dense<1.0> : tensor<4x3xf32>
  %e = tc.embedding %table, %ids : tensor<4x3xf32>, tensor<2xi32> -> tensor<2x3xf32>
  return %e : tensor<2x3xf32>
}
