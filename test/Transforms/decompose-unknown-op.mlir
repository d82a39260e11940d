// An unknown op name in tc-decompose's ops= option is a clean error (non-zero
// exit and a message naming it), not a crash.

// RUN: not tc-opt %s --tc-decompose=ops=foo 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not tc-opt %s --tc-decompose=ops=softmax,foo 2>&1 | FileCheck %s --check-prefix=ERR

// ERR: error: tc-decompose: unknown op 'foo' in ops=; expected softmax or layer_norm
// ERR-NOT: Stack dump

func.func @softmax(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = tc.softmax %x axis = 1 : tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
