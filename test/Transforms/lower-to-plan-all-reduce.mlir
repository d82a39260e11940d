// tc.all_reduce -> plan.allreduce steps and a plan.wait (tc-lower-to-plan).
// RUN: tc-opt %s --split-input-file --tc-lower-to-plan="bucket-bytes=128" --verify-diagnostics | FileCheck %s
// RUN: tc-opt %s --split-input-file --tc-lower-to-plan --verify-diagnostics | FileCheck %s --check-prefix=ONE

// Three gradients of 16 floats (64 bytes) written into the grads space by
// their kernels, in the order c, b, a. With buckets of at least 128 bytes the
// grads space is cut into [a, b] and [c]: [c] is started right after c's
// kernel, while b and a are still to come; [a, b] after the last of its
// writes (a's). The loss and the token count, in the arena, are summed at the
// tc.all_reduce's place; then the wait, and only then Adam reads the sums.
// CHECK-LABEL: func.func @buckets()
// CHECK-NEXT: plan.launch @{{.*}} outs [#plan.buf<grads + 128 : 16xf32>]
// CHECK-NEXT: plan.allreduce <grads + 128 : 16xf32>
// CHECK-NEXT: plan.launch @{{.*}} outs [#plan.buf<grads + 64 : 16xf32>]
// CHECK-NEXT: plan.launch @{{.*}} outs [#plan.buf<grads + 0 : 16xf32>]
// CHECK-NEXT: plan.allreduce <grads + 0 : 32xf32>
// CHECK-NEXT: plan.launch @{{.*}} outs [#plan.buf<arena + [[LOSS:[0-9]+]] : f32>]
// CHECK-NEXT: plan.launch @{{.*}} outs [#plan.buf<arena + [[TOKENS:[0-9]+]] : i32>]
// CHECK-NEXT: plan.allreduce <arena + [[LOSS]] : f32>
// CHECK-NEXT: plan.allreduce <arena + [[TOKENS]] : i32>
// CHECK-NEXT: plan.wait
// CHECK-NEXT: plan.launch
// CHECK-SAME: ins [#plan.buf<params + 0 : 16xf32>, #plan.buf<params + 64 : 16xf32>, #plan.buf<params + 128 : 16xf32>, #plan.buf<grads + 0 : 16xf32>, #plan.buf<grads + 64 : 16xf32>, #plan.buf<grads + 128 : 16xf32>
// Buckets of 25 MiB (the default): one for all the gradients, after the
// last write.
// ONE-LABEL: func.func @buckets()
// ONE-NEXT: plan.launch
// ONE-NEXT: plan.launch
// ONE-NEXT: plan.launch
// ONE-NEXT: plan.allreduce <grads + 0 : 48xf32>
// ONE-NEXT: plan.launch
// ONE-NEXT: plan.launch
// ONE-NEXT: plan.allreduce <arena
// ONE-NEXT: plan.allreduce <arena
// ONE-NEXT: plan.wait
func.func @buckets(%a: tensor<16xf32> {tc.param = "a"}, %b: tensor<16xf32> {tc.param = "b"}, %c: tensor<16xf32> {tc.param = "c"},
                   %ma: tensor<16xf32> {tc.input = "adam_m.a"}, %mb: tensor<16xf32> {tc.input = "adam_m.b"}, %mc: tensor<16xf32> {tc.input = "adam_m.c"},
                   %va: tensor<16xf32> {tc.input = "adam_v.a"}, %vb: tensor<16xf32> {tc.input = "adam_v.b"}, %vc: tensor<16xf32> {tc.input = "adam_v.c"},
                   %x: tensor<16xf32> {tc.input = "x"}, %n: tensor<i32> {tc.input = "n"}, %s: tensor<f32> {tc.input = "s"})
    -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>, tensor<i32>) {
  %gc = tc.exp %x : tensor<16xf32>
  %gb = tc.neg %x : tensor<16xf32>
  %ga = tc.sqrt %x : tensor<16xf32>
  %loss = tc.reduce_sum %x axes = [0] : tensor<16xf32> -> tensor<f32>
  %tokens = tc.add %n, %n : tensor<i32>, tensor<i32> -> tensor<i32>
  %g:5 = tc.all_reduce %ga, %gb, %gc, %loss, %tokens : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>, tensor<i32>
  %np:3, %nm:3, %nv:3 = tc.adam params(%a, %b, %c : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) grads(%g#0, %g#1, %g#2 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) m(%ma, %mb, %mc : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) v(%va, %vb, %vc : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) step_size(%s : tensor<f32>) rsqrt_correction2(%s : tensor<f32>) grad_scale(%s : tensor<f32>) {beta1 = 0.9, beta2 = 0.98, epsilon = 1.0e-9} -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>), (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>), (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
  return %nm#0, %nv#1, %np#2, %g#3, %g#4 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>, tensor<i32>
}

// -----

// An input the step does not compute (an argument) cannot be summed in
// place.
func.func @argument(%x: tensor<4xf32> {tc.input = "x"}) -> tensor<4xf32> {
  // expected-error @+1 {{tc-lower-to-plan: a tc.all_reduce input lies in the inputs space; only gradients and values computed by the function are reduced}}
  %s = tc.all_reduce %x : tensor<4xf32>
  return %s : tensor<4xf32>
}
