//===- TcOps.td - operations of the tc dialect -------------*- tablegen -*-===//
//
// Every operation the forward pass of the Transformer needs. Shapes are static;
// verifiers check every shape rule and name the operand and the expected vs
// actual shapes when one is broken (see TcOps.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TC_OPS_TD
#define TC_OPS_TD

include "TcBase.td"
include "TcInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

// An op whose C++ verify() is one shared helper, named in `verifier`.
class Tc_VerifiedBy<string helper> {
  code extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() { return }] # helper # [{(*this); }
  }];
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def Tc_ConstantOp : Tc_Op<"constant",
    [ConstantLike, Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "A constant tensor";
  let description = [{
    ```mlir
    %c = tc.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Tc_AnyTensor:$result);
  let assemblyFormat = "attr-dict $value";
  let builders = [
    // A float tensor of `type` filled with `value`.
    OpBuilder<(ins "::mlir::RankedTensorType":$type, "double":$value), [{
      build($_builder, $_state, ::mlir::DenseElementsAttr::get(type,
          $_builder.getFloatAttr(type.getElementType(), value)));
    }]>
  ];
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise arithmetic with broadcasting
//===----------------------------------------------------------------------===//

class Tc_BinaryOp<string mnemonic, string expr,
                  TypeConstraint operandType = Tc_ArithTensor>
    : Tc_Op<mnemonic, [Pure, Tc_Elementwise, AllElementTypesMatch<["lhs", "rhs", "result"]>,
                       DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]>,
      Tc_VerifiedBy<"verifyBroadcastingOp"> {
  let summary = "Elementwise " # expr # " with NumPy broadcasting";
  let description = [{
    `result = }] # expr # [{`, elementwise. The operands broadcast with NumPy's
    rules (see the dialect description); the result has the broadcast shape.
    Integer operands (`i32`, `i64`; not for `div`) compute in 64-bit integer
    arithmetic, e.g. the step counter of the RNG state.

    ```mlir
    %r = tc.}] # mnemonic # [{ %x, %b : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins operandType:$lhs, operandType:$rhs);
  let results = (outs operandType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_AddOp : Tc_BinaryOp<"add", "lhs + rhs">;
def Tc_SubOp : Tc_BinaryOp<"sub", "lhs - rhs">;
def Tc_MulOp : Tc_BinaryOp<"mul", "lhs * rhs">;
def Tc_DivOp : Tc_BinaryOp<"div", "lhs / rhs", Tc_FloatTensor>;
def Tc_MaxOp : Tc_BinaryOp<"max", "max(lhs, rhs)">;
def Tc_MinOp : Tc_BinaryOp<"min", "min(lhs, rhs)">;

class Tc_UnaryOp<string mnemonic, string expr>
    : Tc_Op<mnemonic, [Pure, Tc_Elementwise, SameOperandsAndResultType, DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]> {
  let summary = "Elementwise " # expr;
  let description = [{
    `result = }] # expr # [{`, elementwise.

    ```mlir
    %r = tc.}] # mnemonic # [{ %x : tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Tc_FloatTensor:$input);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def Tc_NegOp : Tc_UnaryOp<"neg", "-x">;
def Tc_ExpOp : Tc_UnaryOp<"exp", "exp(x)">;
def Tc_LogOp : Tc_UnaryOp<"log", "log(x)">;
def Tc_SqrtOp : Tc_UnaryOp<"sqrt", "sqrt(x)">;
def Tc_RsqrtOp : Tc_UnaryOp<"rsqrt", "1 / sqrt(x)">;
def Tc_TanhOp : Tc_UnaryOp<"tanh", "tanh(x)">;
def Tc_ReluOp : Tc_UnaryOp<"relu", "max(x, 0)">;

def Tc_CompareOp : Tc_Op<"compare",
    [Pure, Tc_Elementwise, AllElementTypesMatch<["lhs", "rhs"]>]>,
    Tc_VerifiedBy<"verifyBroadcastingOp"> {
  let summary = "Elementwise comparison with NumPy broadcasting, giving a mask";
  let description = [{
    `result = lhs <predicate> rhs`, elementwise, as an `i1` mask. The
    predicate is one of `eq`, `ne`, `lt`, `le`, `gt`, `ge`.

    ```mlir
    %m = tc.compare lt, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Tc_ComparePredicate:$predicate, Tc_NumericTensor:$lhs,
                       Tc_NumericTensor:$rhs);
  let results = (outs Tc_MaskTensor:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def Tc_SelectOp : Tc_Op<"select",
    [Pure, Tc_Elementwise, AllElementTypesMatch<["on_true", "on_false", "result"]>,
     DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]>,
    Tc_VerifiedBy<"verifyBroadcastingOp"> {
  let summary = "Elementwise choice by a mask, with NumPy broadcasting";
  let description = [{
    `result = condition ? on_true : on_false`, elementwise; all three operands
    broadcast together. This is how masks are applied:

    ```mlir
    %neg = tc.constant dense<-1.0e9> : tensor<f32>
    %s = tc.select %mask, %scores, %neg
        : tensor<1x1x4x4xi1>, tensor<2x8x4x4xf32>, tensor<f32> -> tensor<2x8x4x4xf32>
    ```
  }];
  let arguments = (ins Tc_MaskTensor:$condition, Tc_NumericTensor:$on_true,
                       Tc_NumericTensor:$on_false);
  let results = (outs Tc_NumericTensor:$result);
  let assemblyFormat = [{
    $condition `,` $on_true `,` $on_false attr-dict `:` type($condition) `,`
    type($on_true) `,` type($on_false) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_ConvertOp : Tc_Op<"convert",
    [Pure, Tc_Elementwise, SameOperandsAndResultShape, DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]> {
  let summary = "Elementwise conversion between element types";
  let description = [{
    Converts every element to the result's element type: integers to floats
    exactly where representable, floats to floats by rounding to nearest,
    floats to integers by truncation toward zero, saturating at the integer
    type's range, NaN to 0; anything to `i1` as "is not zero"; `i1` to 0 or
    1.

    ```mlir
    %f = tc.convert %count : tensor<i32> -> tensor<f32>
    ```
  }];
  let arguments = (ins Tc_AnyTensor:$input);
  let results = (outs Tc_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class Tc_ReduceOp<string mnemonic, string what>
    : Tc_Op<mnemonic, [Pure, Tc_Reduction, SameOperandsAndResultElementType, DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]>,
      Tc_VerifiedBy<"verifyReduceOp"> {
  let summary = "The " # what # " over the given axes";
  let description = [{
    Reduces `input` over `axes` (distinct, each in [0, rank)). The reduced
    dimensions are dropped from the result, or kept with size 1 when
    `keep_dims` is present. Sums accumulate in double precision in the
    interpreter.

    ```mlir
    %r = tc.}] # mnemonic # [{ %x axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
    %k = tc.}] # mnemonic # [{ %x axes = [1] keep_dims : tensor<2x3xf32> -> tensor<2x1xf32>
    ```
  }];
  let arguments = (ins Tc_FloatTensor:$input, DenseI64ArrayAttr:$axes,
                       UnitAttr:$keep_dims);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = [{
    $input `axes` `=` $axes (`keep_dims` $keep_dims^)? attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_ReduceSumOp : Tc_ReduceOp<"reduce_sum", "sum">;
def Tc_ReduceMaxOp : Tc_ReduceOp<"reduce_max", "maximum">;
def Tc_ReduceMeanOp : Tc_ReduceOp<"reduce_mean", "mean">;

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

def Tc_MatmulOp : Tc_Op<"matmul",
    [Pure, DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]> {
  let summary = "Batched matrix product with optional transposes";
  let description = [{
    `result[..., m, n] = sum_k op(lhs)[..., m, k] * op(rhs)[..., k, n]`, where
    `op` transposes the last two dimensions of an operand when
    `transpose_lhs` / `transpose_rhs` is present. Both operands have rank >= 2;
    their leading (batch) dimensions broadcast with NumPy's rules, so an
    activation `[B, T, in]` times a weight `[out, in]` is

    ```mlir
    %y = tc.matmul %x, %w {transpose_rhs}
        : tensor<2x5x8xf32>, tensor<16x8xf32> -> tensor<2x5x16xf32>
    ```

    Both operands have one element type; the result has it too, or is `f32`
    when the operands are `bf16`: the products are accumulated
    and returned in f32 (mixed precision, tc-apply-precision).
  }];
  let arguments = (ins Tc_FloatTensor:$lhs, Tc_FloatTensor:$rhs,
                       UnitAttr:$transpose_lhs, UnitAttr:$transpose_rhs);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Neural-network operations
//===----------------------------------------------------------------------===//

def Tc_SoftmaxOp : Tc_Op<"softmax",
    [Pure, Tc_RowWise, SameOperandsAndResultType, DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]> {
  let summary = "Softmax along one axis";
  let description = [{
    `result = exp(x - max(x)) / sum(exp(x - max(x)))` along `axis`
    (in [0, rank)). Executables compute it along the last axis only, in a
    row kernel (tc-fuse-masked-softmax replaces the frontend's); the
    interpreter along any.

    ```mlir
    %p = tc.softmax %scores axis = 3 : tensor<2x8x4x4xf32>
    ```
  }];
  let arguments = (ins Tc_FloatTensor:$input, I64Attr:$axis);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = "$input `axis` `=` $axis attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tc_LogSoftmaxOp : Tc_Op<"log_softmax",
    [Pure, Tc_RowWise, SameOperandsAndResultType]> {
  let summary = "Log-softmax over the last dimension, in one row kernel";
  let description = [{
    `result = x - max(x) - log(sum(exp(x - max(x))))` along the last
    dimension: the incremental decoder's log-probabilities over the
    vocabulary, one kernel a row where tc.reduce_max, tc.sub, tc.exp,
    tc.reduce_sum, tc.log and tc.sub took five passes. The interpreter's
    arithmetic is that chain's: the max and the shifted `x - max` in f32,
    the sum of the exponentials in f64, rounded to f32 before its log. The
    kernels take their exponentials from the row kernels' `tc::rowExp`
    (within 2 ulp of exp), so they agree with it to a tolerance, not to
    the bit. A row that is all `-inf` gives NaN, as the chain does.

    It is inference-only (no reverse rule; training takes its loss from
    tc.cross_entropy) and f32 only: mixed precision leaves it alone.

    ```mlir
    %logp = tc.log_softmax %logits : tensor<64x4000xf32>
    ```
  }];
  let arguments = (ins Tc_F32Tensor:$input);
  let results = (outs Tc_F32Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tc_LayerNormOp : Tc_Op<"layer_norm",
    [Pure, Tc_RowWise, AllTypesMatch<["input", "result"]>,
     AllElementTypesMatch<["input", "gamma", "beta"]>, DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]> {
  let summary = "Layer normalisation over the last dimension";
  let description = [{
    `result = (x - mean) / sqrt(var + epsilon) * gamma + beta`, with the mean
    and the biased variance taken over the last dimension `D` of `input`;
    `gamma` and `beta` have shape `[D]`.

    ```mlir
    %y = tc.layer_norm %x, %g, %b epsilon = 1.0e-06
        : tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>
    ```
  }];
  let arguments = (ins Tc_FloatTensor:$input, Tc_FloatTensor:$gamma,
                       Tc_FloatTensor:$beta, F64Attr:$epsilon);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta `epsilon` `=` $epsilon attr-dict `:`
    type($input) `,` type($gamma) `,` type($beta)
  }];
  let hasVerifier = 1;
}

def Tc_EmbeddingOp : Tc_Op<"embedding",
    [Pure, AllElementTypesMatch<["table", "result"]>, DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]> {
  let summary = "Rows of an embedding table gathered by token ids";
  let description = [{
    `result[..., :] = table[ids[...], :]` for a table `[V, D]` and `i32` ids
    of any shape; the result has shape `ids.shape + [D]`. An id outside
    `[0, V)` is an error at run time.

    An optional `padding_id` (PyTorch's `padding_idx`) leaves the lookup as
    it is but gives the table no gradient from the positions of that id: the
    reverse is a tc.embedding_grad with the same `padding_id`. The
    Transformer's frontend sets it to the padding token, whose positions
    every attention masks and the loss ignores, so their gradient is zero
    and skipping it changes no sum (test/Transforms/padding_check.py); it
    spares the gradient kernels padding's rows, half of a batch's tokens at
    the paper's batch, which one GPU block would otherwise add in turn.

    ```mlir
    %e = tc.embedding %table, %ids : tensor<100x8xf32>, tensor<2x5xi32> -> tensor<2x5x8xf32>
    ```
  }];
  let arguments = (ins Tc_FloatTensor:$table, Tc_IdTensor:$ids,
                       OptionalAttr<I64Attr>:$padding_id);
  let results = (outs Tc_FloatTensor:$result);
  let builders = [
    // A lookup with no padding_id (one with no backward, or no padding).
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$table,
                   "::mlir::Value":$ids), [{
      build($_builder, $_state, result, table, ids, ::mlir::IntegerAttr());
    }]>
  ];
  let assemblyFormat = [{
    $table `,` $ids attr-dict `:` type($table) `,` type($ids) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_DropoutOp : Tc_Op<"dropout",
    [Pure, Tc_Elementwise, AllTypesMatch<["input", "result"]>, DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]> {
  let summary = "Dropout with a counter-based random mask";
  let description = [{
    Keeps each element with probability `1 - rate` and scales kept elements by
    `1 / (1 - rate)`; `rate` is in [0, 1) and a rate of 0 is the identity.

    The mask is a pure function of `(seed, step)` (the operand `rng`, a
    `tensor<2xi64>`), the op's `key` and the element's row-major index `i`:
    Philox 4x32-10 with key `(seed mod 2^32, key mod 2^32)` and counter
    `(i / 4 mod 2^32, i / 4 / 2^32, step mod 2^32, step / 2^32)` gives four
    32-bit words; word `i mod 4`, shifted right by 8 and scaled by 2^-24, is a
    uniform `u` in [0, 1), and the element is kept when `u >= rate`. Every
    backend draws the same mask, the backward pass regenerates it, and a
    resumed run draws what an uninterrupted one would (support/Philox.h).

    ```mlir
    %y = tc.dropout %x, %rng rate = 1.0e-01 key = 3
        : tensor<2x5x8xf32>, tensor<2xi64>
    ```
  }];
  let arguments = (ins Tc_FloatTensor:$input, Tc_RngState:$rng, F64Attr:$rate,
                       I64Attr:$key);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $rng `rate` `=` $rate `key` `=` $key attr-dict `:` type($input)
    `,` type($rng)
  }];
  let hasVerifier = 1;
}

def Tc_CausalMaskOp : Tc_Op<"causal_mask", [Pure]> {
  let summary = "The mask that lets position i attend to positions j <= i";
  let description = [{
    `result[i, j] = (j <= i)` for a `[T, T]` result of `i1`: true where
    attention is allowed.

    ```mlir
    %m = tc.causal_mask : tensor<4x4xi1>
    ```
  }];
  let results = (outs Tc_MaskTensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tc_PaddingMaskOp : Tc_Op<"padding_mask",
    [Pure, SameOperandsAndResultShape]> {
  let summary = "The mask that is true at real tokens and false at padding";
  let description = [{
    `result = (ids != pad_id)`, elementwise, as `i1`. Reshape it to
    `[B, 1, 1, S]` to mask the keys of attention scores `[B, h, T, S]`.

    ```mlir
    %m = tc.padding_mask %ids pad_id = 0 : tensor<2x5xi32> -> tensor<2x5xi1>
    ```
  }];
  let arguments = (ins Tc_IdTensor:$ids, I64Attr:$pad_id);
  let results = (outs Tc_MaskTensor:$result);
  let assemblyFormat = [{
    $ids `pad_id` `=` $pad_id attr-dict `:` type($ids) `->` type($result)
  }];
}

def Tc_PositionalEncodingOp : Tc_Op<"positional_encoding", [Pure]> {
  let summary = "The sinusoidal positional encoding of Vaswani et al.";
  let description = [{
    For a `[T, D]` result: `PE[pos, 2i] = sin(pos / 10000^(2i / D))` and
    `PE[pos, 2i + 1] = cos(pos / 10000^(2i / D))`.

    ```mlir
    %pe = tc.positional_encoding : tensor<5x8xf32>
    ```
  }];
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Incremental decoding
//===----------------------------------------------------------------------===//

def Tc_PrefixMaskOp : Tc_Op<"prefix_mask", [Pure]> {
  let summary = "The mask of the filled cache positions of each row";
  let description = [{
    `result[r, j] = (j <= position[r])` for a `[R, T]` result of `i1` and
    `i32` positions `[R]`: the keys an incremental decoder step at
    `position[r]` may attend to (the cache holds positions `0..position[r]`
    once the step has written its own). Reshape it to `[R, 1, 1, T]` to mask
    attention scores `[R, h, 1, T]`.

    ```mlir
    %m = tc.prefix_mask %position : tensor<4xi32> -> tensor<4x8xi1>
    ```
  }];
  let arguments = (ins Tc_IdTensor:$position);
  let results = (outs Tc_MaskTensor:$result);
  let assemblyFormat = [{
    $position attr-dict `:` type($position) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_CacheUpdateOp : Tc_Op<"cache_update", [Pure, Tc_UpdatesInPlace,
    AllTypesMatch<["cache", "result"]>]> {
  let summary = "A key or value cache extended by one position a row";
  let description = [{
    One self-attention cache `[R, T, C]` of an incremental decoder, for the
    step at `position[r]` of each row `r`:

    - `result[r, position[r]] = value[r, 0]`: this step's key or value;
    - `result[r, j] = cache[r, j]` for every other `j`.

    `value` is `[R, 1, C]` and `position` `i32 [R]`; a position outside
    `[0, T)` writes nothing. Nothing moves when beam search reselects rows:
    a row's earlier positions stay where they were written, and
    `tc.beam_history` says which row holds each. The cache has no other
    use: the executable updates it in place, in the buffer of the decoder
    step's input, where it stays for the next step.

    ```mlir
    %k1 = tc.cache_update %k, %new, %position
        : tensor<4x8x16xf32>, tensor<4x1x16xf32>, tensor<4xi32>
    ```
  }];
  let arguments = (ins Tc_FloatTensor:$cache, Tc_FloatTensor:$value,
                       Tc_IdTensor:$position);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = [{
    $cache `,` $value `,` $position attr-dict `:` type($cache) `,`
    type($value) `,` type($position)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$cache, "::mlir::Value":$value,
                   "::mlir::Value":$position), [{
      build($_builder, $_state, cache.getType(), cache, value, position);
    }]>
  ];
  let hasVerifier = 1;
}

def Tc_BeamHistoryOp : Tc_Op<"beam_history", [Pure, Tc_UpdatesInPlace,
    AllTypesMatch<["history", "result"]>]> {
  let summary = "Which cache row holds each position of each row's prefix";
  let description = [{
    The parent table of an incremental decoder's beam search: `history`
    `i32 [R, T]` gives, for each row `r` and position `j` of the hypothesis
    it holds, the cache row whose position `j` holds that hypothesis's key
    and value (`tc.cache_update` writes position `j` of row `r` at step
    `j`, and nothing moves it). For the step at `position[r]`, continuing
    the hypothesis of row `origin[r]` (beam search reselects rows;
    `origin[r] = r` keeps it):

    - `result[r, j] = history[origin[r], j]` for `j < position[r]`;
    - `result[r, position[r]] = r`: this step's key and value;
    - `result[r, j] = history[r, j]` for `j > position[r]` (unused).

    Each origin must be in `[0, R)` and each position in `[0, T)` (a row
    outside them is left alone), and row `origin[r]` must hold at least
    `position[r]` positions. The caller keeps what the table names: a
    row's cache positions written at earlier steps must not be written
    again while any row's table still names them (tc's translator reuses
    rows only a whole beam at a time, from position 0, and origins stay
    within a beam). Reselection moves `R x T` integers, not every
    layer's keys and values. The table has no other use: the executable
    updates it in place, as the caches.

    ```mlir
    %h1 = tc.beam_history %h, %origin, %position
        : tensor<4x8xi32>, tensor<4xi32>, tensor<4xi32>
    ```
  }];
  let arguments = (ins Tc_IdTensor:$history, Tc_IdTensor:$origin,
                       Tc_IdTensor:$position);
  let results = (outs Tc_IdTensor:$result);
  let assemblyFormat = [{
    $history `,` $origin `,` $position attr-dict `:` type($history) `,`
    type($origin) `,` type($position)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$history, "::mlir::Value":$origin,
                   "::mlir::Value":$position), [{
      build($_builder, $_state, history.getType(), history, origin, position);
    }]>
  ];
  let hasVerifier = 1;
}

def Tc_CachedAttentionOp : Tc_Op<"cached_attention", [Pure,
    AttrSizedOperandSegments]> {
  let summary = "One decoder step's attention over cached keys and values";
  let description = [{
    The attention of an incremental decoder step, fused: for each row `r`
    and head `h` of `query` `[R, 1, h * dk]`, position `j` being read from
    cache row `c = history[r, j]` (with `history`), else `slot[r]` (with
    `slot`), else `r`:

    - `score[j] = query[r, 0, h] . keys[c, j, h] / sqrt(dk)` over the key
      positions `j` the row may attend to: `j <= limit[r]` (with `limit`)
      and `key_mask[c, j]` (with `key_mask`);
    - `weight = softmax(score)` over those positions only;
    - `result[r, 0, h] = sum_j weight[j] values[c, j, h]`, the heads merged
      (`[R, 1, h * dv]`, ready for the output projection); zeros for a row
      that may attend to no position.

    `keys` `[C, L, h * dk]` and `values` `[C, L, h * dv]` are the cache
    rows; `slot`, `limit` (`i32 [R]`), `history` (`i32 [R, L]`, the parent
    table of `tc.beam_history`; not with `slot`) and `key_mask`
    (`i1 [C, L]`) are optional. Self-attention passes `limit` = the row's
    position (the positions written so far) and the beam's `history`;
    cross-attention passes `slot` (the row of the sentence's one copy of
    the encoder's keys and values) and its source's `key_mask`. A cache row
    outside `[0, C)` reads nothing (a slot's: zeros). Only the allowed
    positions are read, so a step's cost follows the filled prefix, not the
    cache length `L`.

    It is inference-only (no reverse rule) and f32 only: it is not a GEMM,
    so mixed precision leaves it alone.

    ```mlir
    %ctx = tc.cached_attention %q, %k, %v limit %position {heads = 2 : i64}
        : (tensor<4x1x8xf32>, tensor<4x6x8xf32>, tensor<4x6x8xf32>,
           tensor<4xi32>) -> tensor<4x1x8xf32>
    %beam = tc.cached_attention %q, %k, %v history %h limit %position
        {heads = 2 : i64}
        : (tensor<4x1x8xf32>, tensor<4x6x8xf32>, tensor<4x6x8xf32>,
           tensor<4x6xi32>, tensor<4xi32>) -> tensor<4x1x8xf32>
    %cross = tc.cached_attention %q, %ck, %cv slot %table mask %source
        {heads = 2 : i64}
        : (tensor<4x1x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>,
           tensor<4xi32>, tensor<2x5xi1>) -> tensor<4x1x8xf32>
    ```
  }];
  let arguments = (ins Tc_F32Tensor:$query, Tc_F32Tensor:$keys,
                       Tc_F32Tensor:$values, Optional<Tc_IdTensor>:$slot,
                       Optional<Tc_IdTensor>:$history,
                       Optional<Tc_IdTensor>:$limit,
                       Optional<Tc_MaskTensor>:$key_mask, I64Attr:$heads);
  let results = (outs Tc_F32Tensor:$result);
  let assemblyFormat = [{
    $query `,` $keys `,` $values (`slot` $slot^)? (`history` $history^)?
    (`limit` $limit^)? (`mask` $key_mask^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Data parallelism
//===----------------------------------------------------------------------===//

def Tc_TopKOp : Tc_Op<"top_k", [Pure]> {
  let summary = "The k largest elements of each row of the last dimension";
  let description = [{
    For each row of the last dimension (of size `N`), the `k` largest
    elements in order, largest first, and their indices in the row; equal
    elements go lower index first (so the result is unique). `values` has
    the input's shape with the last dimension `k` and its element type;
    `indices` the same shape in `i32`. `k` is in `[1, N]`. An incremental
    decoder step returns its log-probabilities' top-k instead of the whole
    distribution.

    ```mlir
    %v, %i = tc.top_k %log_probs k = 8 : tensor<64x4000xf32> -> tensor<64x8xf32>, tensor<64x8xi32>
    ```
  }];
  let arguments = (ins Tc_FloatTensor:$input, I64Attr:$k);
  let results = (outs Tc_FloatTensor:$values, Tc_IdTensor:$indices);
  let assemblyFormat = [{
    $input `k` `=` $k attr-dict `:` type($input) `->` type($values) `,` type($indices)
  }];
  let hasVerifier = 1;
}

def Tc_LogSoftmaxTopKOp : Tc_Op<"log_softmax_top_k", [Pure, Tc_RowWise]> {
  let summary = "A beam's candidates: each row's log-softmax plus an addend, "
                "its top k and one column, in one row kernel";
  let description = [{
    For each row of `input` [R, N]: `c = log_softmax(row) + addend` (the
    addend [N] the same for every row: 0 or `-inf`, the tokens a beam never
    continues with), then `values` and `indices` [R, k] as `tc.top_k` of
    `c` (largest first, equal ones lower index first) and `column_values`
    [R, 1] the row's `c[column]` (the end of sentence's, which the addend
    does not mask). It is exactly the chain tc.log_softmax, tc.add,
    tc.top_k and tc.slice, which tc-fuse-log-softmax-top-k rewrites into it
    (docs/fusion/log-softmax-top-k.md): each `c` is computed as the chain
    computes it, so the same values tie, but the distribution is neither
    stored nor read again (a decoder step's 64 x 4,000 was written once and
    read three times).

    Inference-only and f32 only, as tc.log_softmax.

    ```mlir
    %v, %i, %eos = tc.log_softmax_top_k %logits, %never k = 8 column = 2 : tensor<64x4000xf32>, tensor<4000xf32> -> tensor<64x8xf32>, tensor<64x8xi32>, tensor<64x1xf32>
    ```
  }];
  let arguments = (ins Tc_F32Tensor:$input, Tc_F32Tensor:$addend,
                       I64Attr:$k, I64Attr:$column);
  let results = (outs Tc_F32Tensor:$values, Tc_IdTensor:$indices,
                      Tc_F32Tensor:$column_values);
  let assemblyFormat = [{
    $input `,` $addend `k` `=` $k `column` `=` $column attr-dict `:`
    type($input) `,` type($addend) `->` type($values) `,` type($indices) `,`
    type($column_values)
  }];
  let hasVerifier = 1;
}

def Tc_AllReduceOp : Tc_Op<"all_reduce",
    [DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Sums each tensor over all ranks of a data-parallel job";
  let description = [{
    `results[i]` is the elementwise sum of `inputs[i]` over every rank of
    the job (one rank: `inputs[i]` itself). tc-build-train-step reduces the
    summed gradients, the summed loss and the token count with it, so that
    what follows (per-token normalisation, the global norm for clipping,
    Adam) sees the global batch on every rank.

    The executable reduces in place: each input has no other use. It has
    side effects (every rank must reach it, in the same order), so it is
    never removed, duplicated or reordered. `tc-lower-to-plan` turns it
    into `plan.allreduce` steps (the gradients in buckets, each placed
    after its last write, overlapping the rest of the backward) and one
    `plan.wait`.

    ```mlir
    %g, %loss, %tokens = tc.all_reduce %g0, %loss0, %tokens0
        : tensor<4x8xf32>, tensor<f32>, tensor<i32>
    ```
  }];
  let arguments = (ins Variadic<Tc_NumericTensor>:$inputs);
  let results = (outs Variadic<Tc_NumericTensor>:$results);
  let assemblyFormat = [{
    $inputs attr-dict `:` type($inputs)
  }];
  let hasVerifier = 1;
}

def Tc_CrossEntropyOp : Tc_Op<"cross_entropy", [Pure, Tc_RowWise, DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]> {
  let summary = "Label-smoothed cross-entropy, summed over non-padding tokens";
  let description = [{
    For logits `[..., V]` and `i32` targets `[...]`, with `logp =
    log_softmax(logits)` along the last dimension and smoothing `eps` in
    [0, 1), the loss of one token with target `t` is

    `(1 - eps) * -logp[t] + eps * mean_v(-logp[v])`

    (the definition of PyTorch's `CrossEntropyLoss(label_smoothing=eps)`).
    Tokens whose target equals `ignore_index` contribute nothing. The results
    are the summed loss (rank 0, the logits' element type) and the number of
    tokens counted (rank-0 `i32`).

    ```mlir
    %loss, %tokens = tc.cross_entropy %logits, %targets label_smoothing = 1.0e-01
        ignore_index = 0 : tensor<2x5x100xf32>, tensor<2x5xi32> -> tensor<f32>, tensor<i32>
    ```
  }];
  let arguments = (ins Tc_FloatTensor:$logits, Tc_IdTensor:$targets,
                       F64Attr:$label_smoothing, I64Attr:$ignore_index);
  let results = (outs Tc_FloatTensor:$loss, StaticShapeTensorOf<[I32]>:$tokens);
  let assemblyFormat = [{
    $logits `,` $targets `label_smoothing` `=` $label_smoothing `ignore_index`
    `=` $ignore_index attr-dict `:` type($logits) `,` type($targets) `->`
    type($loss) `,` type($tokens)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

def Tc_ReshapeOp : Tc_Op<"reshape",
    [Pure, Tc_View, SameOperandsAndResultElementType, DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]> {
  let summary = "The same elements, in row-major order, under another shape";
  let description = [{
    ```mlir
    %r = tc.reshape %x : tensor<2x5x8xf32> -> tensor<2x5x2x4xf32>
    ```
  }];
  let arguments = (ins Tc_AnyTensor:$input);
  let results = (outs Tc_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Tc_TransposeOp : Tc_Op<"transpose",
    [Pure, Tc_View, SameOperandsAndResultElementType, DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]> {
  let summary = "Permutes the dimensions";
  let description = [{
    `result.shape[i] = input.shape[permutation[i]]`.

    ```mlir
    %t = tc.transpose %x permutation = [0, 2, 1, 3]
        : tensor<2x5x2x4xf32> -> tensor<2x2x5x4xf32>
    ```
  }];
  let arguments = (ins Tc_AnyTensor:$input, DenseI64ArrayAttr:$permutation);
  let results = (outs Tc_AnyTensor:$result);
  let assemblyFormat = [{
    $input `permutation` `=` $permutation attr-dict `:` type($input) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def Tc_BroadcastToOp : Tc_Op<"broadcast_to",
    [Pure, Tc_Elementwise, SameOperandsAndResultElementType, DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]> {
  let summary = "Broadcasts to the result shape with NumPy's rules";
  let description = [{
    ```mlir
    %b = tc.broadcast_to %x : tensor<1x8xf32> -> tensor<5x8xf32>
    ```
  }];
  let arguments = (ins Tc_AnyTensor:$input);
  let results = (outs Tc_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Tc_SliceOp : Tc_Op<"slice",
    [Pure, Tc_View, SameOperandsAndResultElementType, DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]> {
  let summary = "A contiguous box of the input";
  let description = [{
    `result[i...] = input[offsets + i...]`; the box's size is the result
    shape, and it must lie inside the input.

    ```mlir
    %q = tc.slice %qkv offsets = [0, 0, 0] : tensor<2x5x24xf32> -> tensor<2x5x8xf32>
    ```
  }];
  let arguments = (ins Tc_AnyTensor:$input, DenseI64ArrayAttr:$offsets);
  let results = (outs Tc_AnyTensor:$result);
  let assemblyFormat = [{
    $input `offsets` `=` $offsets attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_ConcatOp : Tc_Op<"concat",
    [Pure, Tc_View, SameOperandsAndResultElementType, DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]> {
  let summary = "Joins tensors along one axis";
  let description = [{
    All inputs have the same rank and agree on every dimension but `axis`.

    ```mlir
    %c = tc.concat %a, %b axis = 1 : tensor<2x3xf32>, tensor<2x4xf32> -> tensor<2x7xf32>
    ```
  }];
  let arguments = (ins Variadic<Tc_AnyTensor>:$inputs, I64Attr:$axis);
  let results = (outs Tc_AnyTensor:$result);
  let assemblyFormat = [{
    $inputs `axis` `=` $axis attr-dict `:` type($inputs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_SplitOp : Tc_Op<"split",
    [Pure, Tc_View, DeclareOpInterfaceMethods<Tc_ReverseOpInterface>]> {
  let summary = "Cuts a tensor into consecutive pieces along one axis";
  let description = [{
    The results are consecutive slices of `input` along `axis`, in order;
    they cover it exactly and agree with it in every other dimension. Along
    axis 0 every piece is a contiguous view.

    ```mlir
    %q, %k, %v = tc.split %qkv axis = 0
        : tensor<3x2x4x5x8xf32> -> tensor<1x2x4x5x8xf32>, tensor<1x2x4x5x8xf32>, tensor<1x2x4x5x8xf32>
    ```
  }];
  let arguments = (ins Tc_AnyTensor:$input, I64Attr:$axis);
  let results = (outs Variadic<Tc_AnyTensor>:$results);
  let assemblyFormat = [{
    $input `axis` `=` $axis attr-dict `:` type($input) `->` type($results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Gradients that are best expressed as one op (built by tc-autodiff)
//===----------------------------------------------------------------------===//

def Tc_SoftmaxGradOp : Tc_Op<"softmax_grad",
    [Pure, Tc_RowWise, AllTypesMatch<["output", "output_grad", "result"]>]> {
  let summary = "The gradient of tc.softmax from its output";
  let description = [{
    With `y = softmax(x)` along `axis` and `dy` the gradient of `y`:
    `dx = y * (dy - sum(dy * y))`, the sum along `axis` (in executables,
    the last axis only, as tc.softmax).

    ```mlir
    %dx = tc.softmax_grad %y, %dy axis = 3 : tensor<2x8x4x4xf32>
    ```
  }];
  let arguments = (ins Tc_FloatTensor:$output, Tc_FloatTensor:$output_grad,
                       I64Attr:$axis);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = [{
    $output `,` $output_grad `axis` `=` $axis attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_LayerNormGradOp : Tc_Op<"layer_norm_grad",
    [Pure, Tc_RowWise, AllTypesMatch<["input", "output_grad", "input_grad"]>,
     AllTypesMatch<["gamma", "gamma_grad", "beta_grad"]>]> {
  let summary = "The gradients of tc.layer_norm";
  let description = [{
    Recomputes the mean and `rstd = 1 / sqrt(var + epsilon)` of each row of
    `input` (over the last dimension, size `D`); with `xhat = (x - mean) *
    rstd` and `g = dy * gamma`:

    * `input_grad = rstd * (g - mean(g) - xhat * mean(g * xhat))`
    * `gamma_grad = sum over rows of dy * xhat`
    * `beta_grad = sum over rows of dy`

    ```mlir
    %dx, %dg, %db = tc.layer_norm_grad %x, %g, %dy epsilon = 1.0e-05
        : tensor<2x5x8xf32>, tensor<8xf32>
    ```
  }];
  let arguments = (ins Tc_FloatTensor:$input, Tc_FloatTensor:$gamma,
                       Tc_FloatTensor:$output_grad, F64Attr:$epsilon);
  let results = (outs Tc_FloatTensor:$input_grad, Tc_FloatTensor:$gamma_grad,
                      Tc_FloatTensor:$beta_grad);
  let assemblyFormat = [{
    $input `,` $gamma `,` $output_grad `epsilon` `=` $epsilon attr-dict `:`
    type($input) `,` type($gamma)
  }];
  let hasVerifier = 1;
}

def Tc_CrossEntropyGradOp : Tc_Op<"cross_entropy_grad", [Pure, Tc_RowWise]> {
  let summary = "The gradient of tc.cross_entropy's summed loss w.r.t. the logits";
  let description = [{
    For a counted token (target `t` not `ignore_index`) with `p =
    softmax(logits)` over the vocabulary `V`:
    `dlogits[v] = loss_grad * (p[v] - (1 - eps) * [v == t] - eps / V)`;
    ignored tokens get zeros. Log-probabilities are never materialised.
    `result` has the logits' type, or is stored narrowed (`narrowed
    tensor<...xbf16>`: tc-fuse-convert).

    ```mlir
    %dl = tc.cross_entropy_grad %logits, %targets, %dloss label_smoothing = 1.0e-01
        ignore_index = 0 : tensor<2x5x100xf32>, tensor<2x5xi32>, tensor<f32>
    ```
  }];
  let arguments = (ins Tc_FloatTensor:$logits, Tc_IdTensor:$targets,
                       Tc_FloatTensor:$loss_grad, F64Attr:$label_smoothing,
                       I64Attr:$ignore_index);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = [{
    $logits `,` $targets `,` $loss_grad `label_smoothing` `=` $label_smoothing
    `ignore_index` `=` $ignore_index attr-dict `:` type($logits) `,`
    type($targets) `,` type($loss_grad)
    `` custom<NarrowedType>(type($result), ref(type($logits)))
  }];
  let hasVerifier = 1;
}

def Tc_CrossEntropyWithGradOp : Tc_Op<"cross_entropy_with_grad",
    [Pure, Tc_RowWise]> {
  let summary = "tc.cross_entropy and tc.cross_entropy_grad of one logits, "
                "in one pass over their rows";
  let description = [{
    `%grad` is `tc.cross_entropy_grad %logits, %targets, %loss_grad` and
    `%loss, %tokens` are `tc.cross_entropy %logits, %targets`, with the same
    `label_smoothing` and `ignore_index`: the two ops a training step makes
    of its loss, computed from one softmax of each row (its maximum, its sum
    of exponentials), where the two ops each computed their own
    (tc-fuse-loss-grad). `loss_grad` is the step's seed, known before the
    loss. `grad` is result #0 so that, like tc.cross_entropy_grad's result,
    it may be stored narrowed (`narrowed tensor<...xbf16>`: tc-fuse-convert).

    ```mlir
    %dl, %loss, %tokens = tc.cross_entropy_with_grad %logits, %targets, %dloss
        label_smoothing = 1.0e-01 ignore_index = 0
        : tensor<2x5x100xf32>, tensor<2x5xi32>, tensor<f32>
        -> tensor<f32>, tensor<i32>
    ```
  }];
  let arguments = (ins Tc_FloatTensor:$logits, Tc_IdTensor:$targets,
                       Tc_FloatTensor:$loss_grad, F64Attr:$label_smoothing,
                       I64Attr:$ignore_index);
  let results = (outs Tc_FloatTensor:$grad, Tc_FloatTensor:$loss,
                      StaticShapeTensorOf<[I32]>:$tokens);
  let assemblyFormat = [{
    $logits `,` $targets `,` $loss_grad `label_smoothing` `=` $label_smoothing
    `ignore_index` `=` $ignore_index attr-dict `:` type($logits) `,`
    type($targets) `,` type($loss_grad)
    `` custom<NarrowedType>(type($grad), ref(type($logits)))
    `->` type($loss) `,` type($tokens)
  }];
  let hasVerifier = 1;
}

def Tc_EmbeddingGradOp : Tc_Op<"embedding_grad",
    [Pure, AllElementTypesMatch<["output_grad", "result"]>]> {
  let summary = "The gradient of tc.embedding's table: a scatter-add";
  let description = [{
    `result[v, :] = sum of output_grad[..., :] over the positions whose id is
    v`, for a result (the table's gradient) of shape `[V, D]`; the positions
    whose id is the optional `padding_id` add nothing (see tc.embedding).

    ```mlir
    %dt = tc.embedding_grad %ids, %dy
        : tensor<2x5xi32>, tensor<2x5x8xf32> -> tensor<100x8xf32>
    ```
  }];
  let arguments = (ins Tc_IdTensor:$ids, Tc_FloatTensor:$output_grad,
                       OptionalAttr<I64Attr>:$padding_id);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = [{
    $ids `,` $output_grad attr-dict `:` type($ids) `,` type($output_grad) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def Tc_EmbeddingGradAddOp : Tc_Op<"embedding_grad_add",
    [Pure, Tc_UpdatesInPlace, AllTypesMatch<["base", "result"]>,
     AllElementTypesMatch<["output_grad", "result"]>]> {
  let summary = "tc.embedding_grad added to a table's other gradient, in "
                "place";
  let description = [{
    `result = base`, then for each position in order whose id `v` is in the
    table, `result[v, :] += output_grad[..., :]`: the scatter-add of
    tc.embedding_grad onto `base` (a tied table's output-layer gradient, or
    another lookup's), written in `base`'s buffer (tc-fuse-embedding-grad).
    Only the rows of the ids are touched: no table of zeros, no sum of two
    tables. The positions whose id is the optional `padding_id` add nothing.

    ```mlir
    %dt = tc.embedding_grad_add %base, %ids, %dy
        : tensor<100x8xf32>, tensor<2x5xi32>, tensor<2x5x8xf32>
    ```
  }];
  let arguments = (ins Tc_FloatTensor:$base, Tc_IdTensor:$ids,
                       Tc_FloatTensor:$output_grad,
                       OptionalAttr<I64Attr>:$padding_id);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = [{
    $base `,` $ids `,` $output_grad attr-dict `:` type($base) `,` type($ids)
    `,` type($output_grad)
  }];
  let hasVerifier = 1;
}

include "TcFusedOps.td"

#endif // TC_OPS_TD
