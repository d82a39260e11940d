//===- TcFusedOps.td - ops built by the fusion passes ------*- tablegen -*-===//
//
// Each op here is what one fusion pass produces; each becomes one kernel (or
// one GEMM with an epilogue). See docs/fusion/.
//
//===----------------------------------------------------------------------===//

#ifndef TC_FUSED_OPS_TD
#define TC_FUSED_OPS_TD

include "mlir/IR/RegionKindInterface.td"

def Tc_AdamOp : Tc_Op<"adam", [Pure, AttrSizedOperandSegments,
                                AttrSizedResultSegments]> {
  let summary = "One Adam step over every parameter (multi-tensor)";
  let description = [{
    For each parameter `p` with gradient `g` and moments `m`, `v`:

    ```
    m' = beta1 * m + (1 - beta1) * g
    v' = beta2 * v + (1 - beta2) * g^2
    p' = p - step_size * m' / (sqrt(v') * rsqrt_correction2 + epsilon)
    ```

    with the rank-0 `step_size = lr / (1 - beta1^t)` and `rsqrt_correction2
    = 1 / sqrt(1 - beta2^t)` computed once per step. Built by tc-fuse-adam
    from the per-parameter chains of tc-build-train-step.
  }];
  let arguments = (ins Variadic<Tc_FloatTensor>:$params,
                       Variadic<Tc_FloatTensor>:$grads,
                       Variadic<Tc_FloatTensor>:$first_moments,
                       Variadic<Tc_FloatTensor>:$second_moments,
                       Tc_FloatTensor:$step_size,
                       Tc_FloatTensor:$rsqrt_correction2,
                       F64Attr:$beta1, F64Attr:$beta2, F64Attr:$epsilon);
  let results = (outs Variadic<Tc_FloatTensor>:$new_params,
                      Variadic<Tc_FloatTensor>:$new_first_moments,
                      Variadic<Tc_FloatTensor>:$new_second_moments);
  let assemblyFormat = [{
    `params` `(` $params `)` `grads` `(` $grads `)` `m` `(` $first_moments `)`
    `v` `(` $second_moments `)` `step_size` `(` $step_size `)`
    `rsqrt_correction2` `(` $rsqrt_correction2 `)` attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Tc_FusedOp : Tc_Op<"fused", [IsolatedFromAbove,
    SingleBlockImplicitTerminator<"YieldOp">,
    DeclareOpInterfaceMethods<RegionKindInterface>]> {
  let summary = "A group of elementwise ops computed by one kernel";
  let description = [{
    The body computes the results from the block arguments (the operands)
    with elementwise tc ops; one generated kernel evaluates it, reading each
    operand and writing each result once. Built by tc-fuse-elementwise.

    ```mlir
    %r = tc.fused (%x, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
    ^bb0(%a: tensor<4x8xf32>, %c: tensor<8xf32>):
      %s = tc.add %a, %c : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
      %t = tc.relu %s : tensor<4x8xf32>
      tc.yield %t : tensor<4x8xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Tc_AnyTensor>:$inputs);
  let results = (outs Variadic<Tc_AnyTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, $results) $body
  }];
  let hasVerifier = 1;
}

def Tc_YieldOp : Tc_Op<"yield", [Pure, Terminator, HasParent<"FusedOp">]> {
  let summary = "The results of a tc.fused body";
  let arguments = (ins Variadic<Tc_AnyTensor>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let builders = [OpBuilder<(ins), [{ /* empty */ }]>];
}

#endif // TC_FUSED_OPS_TD
