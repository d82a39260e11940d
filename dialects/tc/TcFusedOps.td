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
    For each parameter `p` with gradient `grad` and moments `m`, `v`, with
    `g = grad * grad_scale`:

    ```
    m' = beta1 * m + (1 - beta1) * g
    v' = beta2 * v + (1 - beta2) * g^2
    p' = p - step_size * m' / (sqrt(v') * rsqrt_correction2 + epsilon)
    ```

    with the rank-0 `step_size = lr / (1 - beta1^t)` and `rsqrt_correction2
    = 1 / sqrt(1 - beta2^t)` computed once per step; the rank-0
    `grad_scale` (the per-token normalisation, or the clipping factor) is
    applied as the gradients are read instead of in a pass of its own. Built
    by tc-fuse-adam from the per-parameter chains of tc-build-train-step.

    With `param_copies` (one bf16 tensor per parameter, or none), it also
    writes each new parameter rounded to bf16, `copy' = bf16(p')`, in place
    of its copy: the weights the next step's bf16 GEMMs read, with no
    conversion kernel (tc-use-param-copies).
  }];
  let arguments = (ins Variadic<Tc_FloatTensor>:$params,
                       Variadic<Tc_FloatTensor>:$grads,
                       Variadic<Tc_FloatTensor>:$first_moments,
                       Variadic<Tc_FloatTensor>:$second_moments,
                       Tc_FloatTensor:$step_size,
                       Tc_FloatTensor:$rsqrt_correction2,
                       Tc_FloatTensor:$grad_scale,
                       Variadic<Tc_FloatTensor>:$param_copies,
                       F64Attr:$beta1, F64Attr:$beta2, F64Attr:$epsilon);
  let results = (outs Variadic<Tc_FloatTensor>:$new_params,
                      Variadic<Tc_FloatTensor>:$new_first_moments,
                      Variadic<Tc_FloatTensor>:$new_second_moments,
                      Variadic<Tc_FloatTensor>:$new_param_copies);
  let assemblyFormat = [{
    `params` `(` ($params^ `:` type($params))? `)`
    `grads` `(` ($grads^ `:` type($grads))? `)`
    `m` `(` ($first_moments^ `:` type($first_moments))? `)`
    `v` `(` ($second_moments^ `:` type($second_moments))? `)`
    `step_size` `(` $step_size `:` type($step_size) `)`
    `rsqrt_correction2` `(` $rsqrt_correction2 `:` type($rsqrt_correction2) `)`
    `grad_scale` `(` $grad_scale `:` type($grad_scale) `)`
    (`copies` `(` $param_copies^ `:` type($param_copies) `)`)? attr-dict `->`
    `(` type($new_params) `)` `,` `(` type($new_first_moments) `)` `,`
    `(` type($new_second_moments) `)`
    (`,` `copies` `(` type($new_param_copies)^ `)`)?
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

def Tc_LinearOp : Tc_Op<"linear", [Pure,
    DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]> {
  let summary = "A GEMM with a bias (and ReLU) epilogue: act(x W^T + b)";
  let description = [{
    `result = act(input W^T + bias)` for `input [..., in]`, `weight [out, in]`
    (stored as PyTorch stores it) and `bias [out]`; `act` is ReLU when
    `relu` is present, else the identity. One library GEMM whose epilogue
    adds the bias and applies the activation (cuBLASLt's RELU_BIAS). Built by
    tc-fuse-linear. Input and weight have one element type; the bias and the
    result have it too, or are `f32` when input and weight are `bf16` (f32
    accumulation, as tc.matmul).

    ```mlir
    %h = tc.linear %x, %w, %b {relu} : tensor<2x5x8xf32>, tensor<32x8xf32>, tensor<32xf32> -> tensor<2x5x32xf32>
    ```
  }];
  let arguments = (ins Tc_FloatTensor:$input, Tc_FloatTensor:$weight,
                       Tc_FloatTensor:$bias, UnitAttr:$relu);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight `,` $bias attr-dict `:` type($input) `,` type($weight)
    `,` type($bias) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_ResidualLayerNormOp : Tc_Op<"residual_layer_norm", [Pure, Tc_RowWise,
    AllTypesMatch<["residual", "sublayer"]>,
    AllTypesMatch<["mean", "rstd"]>, AllTypesMatch<["gamma", "beta"]>,
    DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]> {
  let summary = "LayerNorm(residual + Dropout(sublayer)), keeping mean and rstd";
  let description = [{
    `s = residual + dropout(sublayer)` (dropout as tc.dropout with `rng`,
    `rate` and `key`), then `result = layer_norm(s)` over the last dimension
    with `gamma`, `beta` and `epsilon`. Also returns the mean and `rstd = 1 /
    sqrt(var + epsilon)` of every row ([..., 1]), which the backward reuses.
    Built by tc-fuse-residual-layer-norm. `result` has the residual's type,
    or is stored narrowed (`narrowed tensor<...xbf16>`: tc-fuse-convert).
    With `result_bf16` (`bf16 copy`) the kernel also stores an f32
    `result` rounded to bf16, for the GEMMs that read it while the next
    residual reads the f32 value (tc-fuse-convert).
  }];
  let arguments = (ins Tc_FloatTensor:$residual, Tc_FloatTensor:$sublayer,
                       Tc_FloatTensor:$gamma, Tc_FloatTensor:$beta,
                       Tc_RngState:$rng, F64Attr:$rate, I64Attr:$key,
                       F64Attr:$epsilon);
  let results = (outs Tc_FloatTensor:$result, Tc_FloatTensor:$mean,
                      Tc_FloatTensor:$rstd,
                      Optional<Tc_FloatTensor>:$result_bf16);
  let assemblyFormat = [{
    $residual `,` $sublayer `,` $gamma `,` $beta `,` $rng `rate` `=` $rate
    `key` `=` $key `epsilon` `=` $epsilon attr-dict `:` type($residual) `,`
    type($gamma) `,` type($rng)
    `` custom<NarrowedType>(type($result), ref(type($residual))) `->`
    type($mean) (`bf16` `copy` type($result_bf16)^)?
  }];
  let hasVerifier = 1;
}

def Tc_ResidualLayerNormGradOp : Tc_Op<"residual_layer_norm_grad", [Pure, Tc_RowWise,
    AllTypesMatch<["residual", "sublayer", "output_grad", "residual_grad",
                   "sublayer_grad"]>,
    AllTypesMatch<["gamma", "gamma_grad", "beta_grad"]>,
    AllTypesMatch<["mean", "rstd"]>]> {
  let summary = "The gradients of tc.residual_layer_norm";
  let description = [{
    Recomputes `xhat = (residual + dropout(sublayer) - mean) * rstd` from the
    saved row statistics; with `g = output_grad * gamma`:
    `residual_grad = rstd * (g - mean(g) - xhat * mean(g * xhat))`,
    `sublayer_grad = dropout(residual_grad)` (the forward's mask),
    `gamma_grad = sum of output_grad * xhat`, `beta_grad = sum of
    output_grad` over the rows. With `sublayer_grad_bf16` (`bf16 copy`) the
    kernel also stores `sublayer_grad` rounded to bf16, for the GEMMs that
    read it while a bias gradient sums the f32 value (tc-fuse-convert).
  }];
  let arguments = (ins Tc_FloatTensor:$residual, Tc_FloatTensor:$sublayer,
                       Tc_FloatTensor:$gamma, Tc_FloatTensor:$mean,
                       Tc_FloatTensor:$rstd, Tc_FloatTensor:$output_grad,
                       Tc_RngState:$rng, F64Attr:$rate, I64Attr:$key);
  let results = (outs Tc_FloatTensor:$residual_grad,
                      Tc_FloatTensor:$sublayer_grad,
                      Tc_FloatTensor:$gamma_grad, Tc_FloatTensor:$beta_grad,
                      Optional<Tc_FloatTensor>:$sublayer_grad_bf16);
  let assemblyFormat = [{
    $residual `,` $sublayer `,` $gamma `,` $mean `,` $rstd `,` $output_grad
    `,` $rng `rate` `=` $rate `key` `=` $key attr-dict `:` type($residual)
    `,` type($gamma) `,` type($mean) `,` type($rng)
    (`bf16` `copy` type($sublayer_grad_bf16)^)?
  }];
  let hasVerifier = 1;
}

def Tc_MaskedSoftmaxOp : Tc_Op<"masked_softmax", [Pure, Tc_RowWise,
    AllTypesMatch<["scores", "probs"]>,
    DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]> {
  let summary = "Scale, mask, softmax and dropout of attention scores";
  let description = [{
    `probs = softmax(select(mask, scores * scale, fill))` along the last
    dimension, `result = dropout(probs)` (with `rng`, `rate`, `key`; the
    identity at rate 0). `mask` (i1) broadcasts to the scores and is true
    where attention is allowed. `probs` is kept for the backward. Built by
    tc-fuse-masked-softmax. `result` has the scores' type, or is stored
    narrowed (`narrowed tensor<...xbf16>`: tc-fuse-convert).
  }];
  let arguments = (ins Tc_FloatTensor:$scores, Tc_MaskTensor:$mask,
                       Tc_RngState:$rng, F64Attr:$scale, F64Attr:$fill,
                       F64Attr:$rate, I64Attr:$key);
  let results = (outs Tc_FloatTensor:$result, Tc_FloatTensor:$probs);
  let assemblyFormat = [{
    $scores `,` $mask `,` $rng `scale` `=` $scale `fill` `=` $fill `rate` `=`
    $rate `key` `=` $key attr-dict `:` type($scores) `,` type($mask) `,`
    type($rng) `` custom<NarrowedType>(type($result), ref(type($scores)))
  }];
  let hasVerifier = 1;
}

def Tc_MaskedSoftmaxGradOp : Tc_Op<"masked_softmax_grad", [Pure, Tc_RowWise,
    AllTypesMatch<["probs", "output_grad"]>]> {
  let summary = "The gradient of tc.masked_softmax w.r.t. the scores";
  let description = [{
    `dp = dropout(output_grad)` (the forward's mask), then `result = scale *
    select(mask, probs * (dp - sum(dp * probs)), 0)` along the last
    dimension. `result` has the probs' type, or is stored narrowed
    (tc-fuse-convert).
  }];
  let arguments = (ins Tc_FloatTensor:$probs, Tc_FloatTensor:$output_grad,
                       Tc_MaskTensor:$mask, Tc_RngState:$rng, F64Attr:$scale,
                       F64Attr:$rate, I64Attr:$key);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = [{
    $probs `,` $output_grad `,` $mask `,` $rng `scale` `=` $scale `rate` `=`
    $rate `key` `=` $key attr-dict `:` type($probs) `,` type($mask) `,`
    type($rng) `` custom<NarrowedType>(type($result), ref(type($probs)))
  }];
  let hasVerifier = 1;
}

def Tc_EmbedOp : Tc_Op<"embed", [Pure,
    AllElementTypesMatch<["table", "positions", "result"]>,
    DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]> {
  let summary = "Embedding lookup * scale + positions, then dropout";
  let description = [{
    `result[b, t, :] = dropout(table[ids[b, t], :] * scale + positions[t, :])`
    for ids `[B, T]`, a table `[V, D]` and positions `[T, D]` (sinusoids or
    a slice of a learned table); dropout as tc.dropout with `rng`, `rate`
    and `key`; `padding_id` as tc.embedding's. One kernel. Built by
    tc-fuse-embedding.
  }];
  let arguments = (ins Tc_FloatTensor:$table, Tc_IdTensor:$ids,
                       Tc_FloatTensor:$positions, Tc_RngState:$rng,
                       F64Attr:$scale, F64Attr:$rate, I64Attr:$key,
                       OptionalAttr<I64Attr>:$padding_id);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = [{
    $table `,` $ids `,` $positions `,` $rng `scale` `=` $scale `rate` `=`
    $rate `key` `=` $key attr-dict `:` type($table) `,` type($ids) `,`
    type($positions) `,` type($rng) `->` type($result)
  }];
  let hasVerifier = 1;
}

#endif // TC_FUSED_OPS_TD
