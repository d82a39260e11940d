// Flat buffers around tc.adam (tc-compile --emit=plan on a .mlir file):
// the gradient of q is written by its kernel straight into the grads buffer
// at q's offset; that of p (p itself, a parameter) is copied there (no
// tc.all_reduce here, so no plan.allreduce: test/Transforms/lower-to-plan-
// all-reduce.mlir has them); Adam, whose operands each get
// their own kernel argument even when a value repeats,
// Adam updates parameters and moments in place, and a returned value is
// written straight into the outputs buffer: nothing is left in the arena.
// RUN: tc-compile %s --emit=plan | FileCheck %s

// CHECK-LABEL: func.func @train_step_adam()
// CHECK-SAME: plan.arena_bytes = 0
// CHECK-SAME: plan.inputs = [{buffer = #plan.buf<inputs + 0 : f32>, name = "arg6"}]
// CHECK-SAME: plan.outputs = [{buffer = #plan.buf<outputs + 0 : 16xf32>, name = "result3"}]
// CHECK-NEXT: plan.launch @[[EXP:.*]] ins [#plan.buf<params + 64 : 16xf32>] outs [#plan.buf<grads + 64 : 16xf32>]
// CHECK-NEXT: plan.copy <params + 0 : 16xf32> -> <grads + 0 : 16xf32>
// CHECK-NEXT: plan.launch @[[ADAM:.*]] ins [#plan.buf<params + 0 : 16xf32>, #plan.buf<params + 64 : 16xf32>, #plan.buf<grads + 0 : 16xf32>, #plan.buf<grads + 64 : 16xf32>, #plan.buf<adam_m + 0 : 16xf32>, #plan.buf<adam_m + 64 : 16xf32>, #plan.buf<adam_v + 0 : 16xf32>, #plan.buf<adam_v + 64 : 16xf32>, #plan.buf<inputs + 0 : f32>, #plan.buf<inputs + 0 : f32>, #plan.buf<inputs + 0 : f32>]
// CHECK-SAME: outs [#plan.buf<params + 0 : 16xf32>, #plan.buf<params + 64 : 16xf32>, #plan.buf<adam_m + 0 : 16xf32>, #plan.buf<adam_m + 64 : 16xf32>, #plan.buf<adam_v + 0 : 16xf32>, #plan.buf<adam_v + 64 : 16xf32>]
// CHECK-NEXT: plan.launch @{{.*}} ins [#plan.buf<adam_m + 64 : 16xf32>] outs [#plan.buf<outputs + 0 : 16xf32>]
// CHECK-NEXT: return
// CHECK-DAG: func.func private @[[EXP]]({{.*}}) -> tensor<16xf32> attributes {plan.kernel}
// CHECK-DAG: func.func private @[[ADAM]]({{.*}}) attributes {plan.kernel}
// CHECK-DAG: tc.adam params(%arg0, %arg1 : {{.*}}) grads(%arg2, %arg3 : {{.*}}) m(%arg4, %arg5 : {{.*}}) v(%arg6, %arg7 : {{.*}}) step_size(%arg8 : tensor<f32>) rsqrt_correction2(%arg9 : tensor<f32>) grad_scale(%arg10 : tensor<f32>)
func.func @train_step_adam(%p: tensor<16xf32> {tc.param = "p"}, %q: tensor<16xf32> {tc.param = "q"},
                           %m: tensor<16xf32> {tc.input = "adam_m.p"}, %m2: tensor<16xf32> {tc.input = "adam_m.q"},
                           %v: tensor<16xf32> {tc.input = "adam_v.p"}, %v2: tensor<16xf32> {tc.input = "adam_v.q"},
                           %s: tensor<f32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %g = tc.exp %q : tensor<16xf32>
  %np:2, %nm:2, %nv:2 = tc.adam params(%p, %q : tensor<16xf32>, tensor<16xf32>) grads(%p, %g : tensor<16xf32>, tensor<16xf32>) m(%m, %m2 : tensor<16xf32>, tensor<16xf32>) v(%v, %v2 : tensor<16xf32>, tensor<16xf32>) step_size(%s : tensor<f32>) rsqrt_correction2(%s : tensor<f32>) grad_scale(%s : tensor<f32>) {beta1 = 0.9, beta2 = 0.98, epsilon = 1.0e-9} -> (tensor<16xf32>, tensor<16xf32>), (tensor<16xf32>, tensor<16xf32>), (tensor<16xf32>, tensor<16xf32>)
  %h = tc.neg %nm#1 : tensor<16xf32>
  return %np#0, %nm#0, %nv#1, %h : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}
