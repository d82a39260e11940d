// The memory plan of a training step (tc-compile --stats on a .mlir file): a
// buffer per tensor a kernel writes, shared when lifetimes do not overlap;
// views extend the life of what they view; arguments are not in the arena.
// RUN: tc-compile %s --stats | FileCheck %s

// Buffers of 64 bytes (16 x f32), by op index: %a lives [0, 5] (its views
// are read up to op 5), %b [1, 2], %c [2, 5], %d [5, 6]; %e, returned, is
// written straight into the outputs buffer. No reuse: 4 x 64 = 256. At ops
// 2 and 5 three buffers are live: peak 192. %d reuses %b's bytes.
// CHECK: "arena_bytes": 192,
// CHECK: "no_reuse_bytes": 256,
// CHECK: "peak_activation_bytes": 192
func.func @train_step_t(%x: tensor<16xf32>) -> tensor<16xf32> {
  %a = tc.exp %x : tensor<16xf32>
  %b = tc.neg %a : tensor<16xf32>
  %c = tc.exp %b : tensor<16xf32>
  %v = tc.reshape %a : tensor<16xf32> -> tensor<4x4xf32>
  %w = tc.reshape %v : tensor<4x4xf32> -> tensor<16xf32>
  %d = tc.add %c, %w : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
  %e = tc.neg %d : tensor<16xf32>
  return %e : tensor<16xf32>
}

