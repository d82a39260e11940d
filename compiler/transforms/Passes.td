//===- Passes.td - the passes over the tc dialect ---------*- tablegen -*-===//

#ifndef TC_TRANSFORMS_PASSES_TD
#define TC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TcDecompose : Pass<"tc-decompose", "mlir::func::FuncOp"> {
  let summary = "Expands softmax and layer_norm into elementwise ops and "
                "reductions";
  let description = [{
    Rewrites composite operations into the primitive ones they are defined
    by, so that a graph can be checked against its own definition (the
    interpreter evaluates both) and generic elementwise fusion can see inside
    them:

    * `tc.softmax` -> `reduce_max`, `sub`, `exp`, `reduce_sum`, `div`
    * `tc.layer_norm` -> `reduce_mean`, `sub`, `mul`, `reduce_mean`, `add`,
      `rsqrt`, `mul`, `mul`, `add`
  }];
  let dependentDialects = ["::tc::TcDialect"];
  let options = [
    ListOption<"ops", "ops", "std::string",
               "Composite ops to expand: softmax, layer_norm (default: all)">
  ];
}

def TcApplyPrecision : Pass<"tc-apply-precision", "mlir::ModuleOp"> {
  let summary = "Puts the GEMMs of a module in the chosen precision";
  let description = [{
    Records `precision` (f32, bf16 or tf32: support/Precision.h) as the
    module attribute `tc.precision`, which the later stages read (tf32:
    tc-lower-to-plan's GEMM compute type; the .tcx records the name).

    For `bf16`, every `tc.matmul` and `tc.linear` with an f32 result reads
    its GEMM operands in bf16: each f32 operand (matmul: lhs and rhs;
    linear: input and weight) is replaced by its `tc.convert` to bf16, one
    conversion per value, placed right after the value is defined, so all
    GEMMs reading a value share it. The result stays f32 (f32
    accumulation), and so does a linear's bias; parameters, gradients, the
    optimizer, LayerNorm, softmax and the loss are untouched. Runs after the
    forward fusions and before tc-autodiff, whose reverse rules then give
    the backward over the conversions. `f32` and `tf32` change no op.

    A module already recorded in another precision is refused.
  }];
  let dependentDialects = ["::tc::TcDialect"];
  let options = [
    Option<"precision", "precision", "std::string", "\"f32\"",
           "The precision: f32, bf16 or tf32 (support/Precision.h)">
  ];
}

def TcAutodiff : Pass<"tc-autodiff", "mlir::ModuleOp"> {
  let summary = "Builds the reverse-mode gradient function of every loss";
  let description = [{
    For each function whose first result is a rank-0 floating-point tensor
    (a loss) and that has parameters (arguments with `tc.param`), or for the
    functions named in `functions=`, adds `@<name>_grad`: the same arguments,
    the same results, followed by the gradient of result #0 with respect to
    each parameter, in argument order (result attribute `tc.grad_of` names
    the parameter).

    Every differentiable op implements the reverse rule of
    `ReverseOpInterface` (dialects/tc/ReverseRules.cpp). The pass marks the
    values that depend on a parameter (integer values, masks and ids are
    never active), walks the function backwards accumulating the gradient
    of each active value that is used several times, and finally erases
    every op whose result nothing uses, so only what the backward needs stays
    alive. Dropout's rule reapplies the same dropout (same RNG state and key)
    to the gradient: the mask is regenerated, not stored.
  }];
  let dependentDialects = ["::tc::TcDialect"];
  let options = [
    ListOption<"functions", "functions", "std::string",
               "Functions to differentiate (default: every loss function "
               "with parameters)">
  ];
}

def TcBuildTrainStep : Pass<"tc-build-train-step", "mlir::ModuleOp"> {
  let summary = "Builds the training step around every gradient function";
  let description = [{
    For each gradient function built by tc-autodiff (results: the summed
    loss, the token count, then one gradient per parameter), adds
    `@train_step_<bucket>` (for `@forward_<bucket>_grad`; otherwise
    `@<name>_train_step`) that runs one optimizer step:

    1. the gradient function, inlined, on each of `accumulation-steps` micro-batches
       (data inputs get a leading dimension of that size when it is > 1;
       micro-batch i draws dropout masks at RNG step `step * k + i`),
       summing losses, token counts and gradients;
    2. gradients divided by the token count (the objective is the mean loss
       per target token), then optionally clipped to a global L2 norm of
       `gradient-clip` (scaled by min(1, clip / (norm + 1e-6)), as
       torch.nn.utils.clip_grad_norm_);
    3. the learning rate of the paper, `lr = lr-scale * d-model^-0.5 *
       min(step^-0.5, step * warmup-steps^-1.5)`, with `step` (1-based) read
       from the RNG state `rng = (seed, step)`;
    4. Adam as torch.optim.Adam computes it: `m = b1 m + (1 - b1) g`,
       `v = b2 v + (1 - b2) g^2`, `p -= lr / (1 - b1^step) * m /
       (sqrt(v) / sqrt(1 - b2^step) + eps)`.

    Arguments: the parameters, the first moments (`tc.input =
    "adam_m.<param>"`), the second moments (`"adam_v.<param>"`), then the
    gradient function's data inputs. Results (named by `tc.output`): the
    updated parameters, first and second moments, then `loss` (summed),
    `tokens` and `learning_rate`.
  }];
  let dependentDialects = ["::tc::TcDialect", "::mlir::func::FuncDialect"];
  let options = [
    Option<"dModel", "d-model", "int64_t", "512",
           "d_model, which scales the learning rate">,
    Option<"warmupSteps", "warmup-steps", "int64_t", "4000",
           "Steps of linear learning-rate warmup">,
    Option<"learningRateScale", "lr-scale", "double", "1.0",
           "Factor on the learning rate of the schedule">,
    Option<"adamBeta1", "adam-beta1", "double", "0.9", "Adam's beta1">,
    Option<"adamBeta2", "adam-beta2", "double", "0.98", "Adam's beta2">,
    Option<"adamEpsilon", "adam-epsilon", "double", "1e-9", "Adam's epsilon">,
    Option<"gradientClip", "gradient-clip", "double", "0.0",
           "Clip gradients to this global L2 norm (0: no clipping)">,
    Option<"accumulationSteps", "accumulation-steps", "int64_t", "1",
           "Micro-batches whose gradients one step sums">
  ];
}

def TcFuseLinear : Pass<"tc-fuse-linear", "mlir::ModuleOp"> {
  let summary = "Fuses bias addition and ReLU into the GEMM before them";
  let description = [{
    Rewrites `relu?(x W^T + b)` — a `tc.matmul` with `transpose_rhs` and a
    rank-2 weight, whose only user adds a rank-1 bias, optionally followed
    by the add's only user `tc.relu` — into one `tc.linear`: a GEMM with a
    bias (and ReLU) epilogue. Its reverse rule masks the gradient with the
    ReLU's output, and computes the input and weight gradients with two
    GEMMs and the bias gradient with one row sum. Runs on the forward graph,
    before autodiff, so the backward is fused by construction.
  }];
  let dependentDialects = ["::tc::TcDialect"];
}

def TcFuseQkv : Pass<"tc-fuse-qkv", "mlir::ModuleOp"> {
  let summary = "Fuses the Q, K and V projections into one GEMM";
  let description = [{
    Finds two or three `tc.linear` projections of the same input whose
    weights are parameters, each followed by the head split
    `reshape [B, L, h, dh]` + `transpose [0, 2, 1, 3]` (self-attention's Q,
    K, V; encoder-decoder attention's K, V), and computes them with one
    GEMM over the concatenated weight `[n * out, in]` (adjacent parameters,
    so a view of the parameter buffer) and bias, one head split of all of
    them to `[n, B, h, L, dh]` and a `tc.split` along axis 0 (contiguous
    views). The backward is then one GEMM for the weight gradient and one for
    the input gradient. Also a flat form: two or three such projections
    read as `[B, L, out]` by no view and no return (the incremental
    decoder step's Q, K, V), computed by one GEMM whose result is viewed as
    `[n, B, L, out]` and split. Runs after tc-fuse-linear, before autodiff.
  }];
  let dependentDialects = ["::tc::TcDialect"];
}

def TcFuseLogSoftmaxTopK : Pass<"tc-fuse-log-softmax-top-k",
                                "mlir::ModuleOp"> {
  let summary = "Fuses a decoder step's log-softmax, addend, top-k and "
                "column into one row kernel";
  let description = [{
    Finds `tc.top_k` of `tc.add(log_softmax(x) [viewed as R x N], addend
    [N])` whose sum is read otherwise only by one slice of a column
    (`[R, 1]`), and replaces the four with one `tc.log_softmax_top_k`: the
    same values, ties and indices, without storing the distribution (a
    decoder step's 64 x 4,000 was written by the log-softmax and the add
    and read by the add, the top-k and the slice).
  }];
  let dependentDialects = ["::tc::TcDialect"];
}

def TcFuseResidualLayerNorm : Pass<"tc-fuse-residual-layer-norm",
                                   "mlir::ModuleOp"> {
  let summary = "Fuses dropout + residual add + LayerNorm into one op";
  let description = [{
    Rewrites `layer_norm(x + dropout(s))` (or `layer_norm(x + s)`) whose
    add and dropout have no other users into `tc.residual_layer_norm`, which
    also returns each row's mean and rstd; its reverse rule is one
    `tc.residual_layer_norm_grad` that reuses them and regenerates the
    dropout mask. Runs before autodiff.
  }];
  let dependentDialects = ["::tc::TcDialect"];
}

def TcFuseMaskedSoftmax : Pass<"tc-fuse-masked-softmax", "mlir::ModuleOp"> {
  let summary = "Fuses attention's scale, mask, softmax and dropout";
  let description = [{
    Rewrites `dropout?(softmax(select(mask, scores * c, fill)))` over the
    last axis, with splat constants `c` and `fill` and no other users of the
    intermediate values, into `tc.masked_softmax`; its reverse rule is one
    `tc.masked_softmax_grad` that regenerates the dropout mask. A softmax
    whose output is also used elsewhere keeps its dropout separate. Runs
    before autodiff.
  }];
  let dependentDialects = ["::tc::TcDialect"];
}

def TcFuseEmbedding : Pass<"tc-fuse-embedding", "mlir::ModuleOp"> {
  let summary = "Fuses embedding lookup, scale, positions and dropout";
  let description = [{
    Rewrites `dropout?(embedding(table, ids) * c + positions)` — `c` a splat
    constant, `positions` a `[T, D]` tensor added to every sentence, no
    other users of the intermediate values — into one `tc.embed`. Its
    reverse rule regenerates the dropout mask, scatters `c * dy` into the
    table's gradient and sums `dy` over the batch for learned positions.
    Runs before autodiff.
  }];
  let dependentDialects = ["::tc::TcDialect"];
}

def TcFuseAdam : Pass<"tc-fuse-adam", "mlir::ModuleOp"> {
  let summary = "Fuses the per-parameter Adam updates into one multi-tensor op";
  let description = [{
    Matches, for each parameter, the chain tc-build-train-step emits

    ```
    m' = m * b1 + g * (1 - b1)
    v' = v * b2 + g * g * (1 - b2)
    p' = p - m' / (sqrt(v') * c2 + eps) * step_size
    ```

    and replaces all of them (those sharing b1, b2, eps, step_size and c2)
    with one `tc.adam`: one kernel reading p, g, m, v and writing p', m', v'
    once, instead of about a dozen kernels per parameter. When every g is
    `raw * s` with one rank-0 `s` (the per-token mean, or the clipping
    factor), Adam reads `raw` and applies `s` itself (`grad_scale`). Chains
    that differ in shape from this are left untouched.
  }];
  let dependentDialects = ["::tc::TcDialect"];
}

def TcFuseElementwise : Pass<"tc-fuse-elementwise", "mlir::ModuleOp"> {
  let summary = "Groups producer-consumer chains of elementwise ops into "
                "tc.fused kernels";
  let description = [{
    Walks the function in order and adds an elementwise op (arithmetic,
    unary functions, compare, select, convert, dropout, broadcast_to) to the
    group of a producer of one of its operands when they compute the same
    shape and every other operand is a constant, already in the group, or
    defined before the group starts. A reduction (sum, max, mean) whose
    input a group computes joins it too, as a last step over that shape.
    Each group of two or more ops becomes a `tc.fused` op placed where the
    group starts: one kernel that reads each input once and writes only the
    values used outside the group. Ops of other kinds (GEMMs, the fused
    row-wise ops, data movement) are left alone.
  }];
  let dependentDialects = ["::tc::TcDialect"];
}

def TcFuseConvert : Pass<"tc-fuse-convert", "mlir::ModuleOp"> {
  let summary = "Lets row ops and bf16 GEMMs store the bf16 copy a "
                "tc.convert makes of their result";
  let description = [{
    Mixed precision converts values to bf16 for the GEMMs that read them
    (tc-apply-precision). A convert whose input an elementwise group makes
    joins that group (tc-fuse-elementwise); one of a row op's result
    (`tc.masked_softmax`, `tc.masked_softmax_grad`, `tc.residual_layer_norm`,
    `tc.cross_entropy_grad`: result #0) or of a `tc.matmul` of bf16
    operands would be a kernel of its own. Where the convert is the only
    reader of that f32 result, the result becomes bf16 (`narrowed
    tensor<...xbf16>` for a row op, a bf16 result type for the matmul) and
    the convert goes: the kernel stores its value rounded once to bf16, as
    the convert would have (bit for bit: the f32 value, rounded to nearest
    even; a GEMM sums in f32 and rounds its sum as it stores it), and the
    interpreter rounds it the same way. Where other ops read the result in
    f32 too, a `tc.residual_layer_norm`'s output and a
    `tc.residual_layer_norm_grad`'s sublayer gradient get a bf16 copy (the
    ops' optional last result, `bf16 copy tensor<...>`), which the kernel
    stores beside the f32 value and the convert's readers read; any other
    such result keeps its convert, and so does a `tc.linear`'s: its bias is
    f32, and cuBLASLt adds a bias into a bf16 result only in bf16. A convert
    left whose input a column sum (`tc.reduce_sum` over every dimension but
    the last) also reads, a projection's output gradient and its bias
    gradient, joins that sum in one `tc.fused`: one kernel, one pass over
    the input.

    First, converts move above the view ops (`tc.reshape`, `tc.transpose`,
    `tc.split`) whose every result only converts to bf16 read: one convert
    of the view's input, and the view of that in bf16 (the same bits:
    rounding is elementwise). Attention's head split then views
    bf16 values and folds into the GEMMs' strides, as it does in f32,
    instead of being a transpose kernel that moves f32 values for a
    convert to narrow; a convert that reaches a row op's or a bf16 matmul's
    result folds as above. A transpose of an f32 GEMM's result that only it
    reads, which the GEMM writes in place, keeps its convert below it; the
    head merge's matmul (bf16 operands) stores bf16 through it instead.
  }];
  let dependentDialects = ["::tc::TcDialect"];
}

def TcFuseEmbeddingGrad : Pass<"tc-fuse-embedding-grad", "mlir::ModuleOp"> {
  let summary = "Adds each lookup's embedding gradient onto the table's "
                "other gradient in place";
  let description = [{
    Rewrites `tc.add` of two `[V, D]` tables, one a `tc.embedding_grad`
    result read only by the add and the other a table of its own read only
    by it (a `tc.matmul` result, a lookup's table, an earlier
    `tc.embedding_grad_add`), into `tc.embedding_grad_add` of the lookup
    onto the other part, in place; and an add of a `tc.matmul` result and a
    chain of `tc.embedding_grad_add` that starts from a lookup's table into
    the chain rebuilt onto the GEMM's result. A tied embedding's gradient
    (the output layer's GEMM plus the target's and the source's lookups) no
    longer writes a table of zeros per lookup nor adds two tables: only the
    rows of the ids are touched. Each lookup's rows are added onto the part
    before them in token order, where they were summed from zero and then
    added: the gradient differs in its last bits. Each rewrite is local to
    one add, so micro-batches keep their own sums (data parallelism stays
    exact). Runs on the training step after autodiff, before
    tc-fuse-elementwise (which would take the adds into its kernels).
  }];
  let dependentDialects = ["::tc::TcDialect"];
}

def TcFuseLossGrad : Pass<"tc-fuse-loss-grad", "mlir::ModuleOp"> {
  let summary = "Fuses a training step's loss and its gradient into one row "
                "kernel";
  let description = [{
    Finds `tc.cross_entropy` and `tc.cross_entropy_grad` of the same logits
    and targets (with the same smoothing and ignored index), where nothing
    reads the loss or its count before the gradient, and replaces the two
    with one `tc.cross_entropy_with_grad` at the gradient's place: each row's
    maximum and sum of exponentials are computed once, where the loss and
    its gradient each computed them (on the host two more passes over a row
    of the vocabulary, its exponentials among them; on a GPU one more read
    of the logits). The same arithmetic, so the same bits. It joins a
    forward op and a backward one, so it runs after autodiff, on the
    training step; a gradient narrowed to bf16 (tc-fuse-convert) stays so.
  }];
  let dependentDialects = ["::tc::TcDialect"];
}

def TcUseParamCopies : Pass<"tc-use-param-copies", "mlir::ModuleOp"> {
  let summary = "bf16 GEMMs read the parameters' bf16 copies, which the "
                "fused Adam writes, instead of converting the weights";
  let description = [{
    In bf16 every weight a GEMM reads is a `tc.convert` of an f32 parameter
    P: a conversion kernel per weight in every training step and every
    decoder step. This pass gives each such P a bf16 copy, the function
    input `bf16.P` (and, in a training step, the output `bf16.P`): the
    converts of P read the copy instead and go, and the step's `tc.adam`
    takes every parameter's copy and writes `bf16(p')` in place, rounded once
    from the stored new value (the bits the convert would have made). The
    copies lie in the executable's `param_copies` space, each at its
    parameter's offset in elements; the runtime rounds the parameters it
    writes itself (initialisation, checkpoints, `.npz`). A function with no
    such convert is unchanged (f32).

    Where a function returns updated parameters (`param.P`) that no
    `tc.adam` writes (`--fusion` without `adam`), a copy would go stale:
    the pass then changes nothing.
  }];
  let dependentDialects = ["::tc::TcDialect", "::mlir::func::FuncDialect"];
}

def TcRecompute : Pass<"tc-recompute", "mlir::ModuleOp"> {
  let summary = "Meets a memory budget by making activations again in the "
                "backward instead of keeping them";
  let description = [{
    For each training step whose arena (the activations and temporaries of
    one step, as the memory plan places them) is larger than `budget`
    bytes, clones forward ops right before the backward reads their
    results, so that the forward's results die at their last forward read.
    A result is made again for the reads after the longest stretch of ops
    that reads none of it (at least 8 ops), only where every operand of the
    op is live there anyway (an argument, or read there or later: a clone
    never extends another value's lifetime), and never after the step's
    `tc.adam` (which updates the parameters in place). A clone may itself be
    split again. Levels, cheapest first, each applied in full before the
    next is tried, until the arena fits:

    1. elementwise groups (`tc.fused`), dropout (its mask drawn again from
       the same Philox key and counter) and conversions (`tc.convert`);
    2. `tc.residual_layer_norm` (LayerNorm's outputs from its inputs);
    3. `tc.masked_softmax` (attention's probabilities from its scores, where
       the scores are still live);
    4. `tc.linear`, a GEMM with its bias and ReLU epilogue (the attention
       projections and the FFN's layers, from their inputs).

    Other GEMMs (`tc.matmul`: attention's scores and context), reductions
    and in-place updates are never recomputed, and neither is anything of a
    step compiled without fusions (its ops are not these). A clone reads
    what the original read, so the step computes the same bits. Each step
    records `tc.recompute` (its arena with and without, the level used,
    the number of clones and their GEMM FLOPs), which `tc-compile --stats`
    shows for the first bucket. When level 4 leaves a step over the budget,
    the pass fails naming the largest step's smallest arena (the budget
    every bucket would fit), as an error when `diagnose` is set and as the
    module attribute `tc.memory_budget_unmet` for tc-compile. `budget` 0
    turns the pass off.
  }];
  let dependentDialects = ["::tc::TcDialect", "::mlir::func::FuncDialect"];
  let options = [
    Option<"budget", "budget", "int64_t", "0",
           "The most bytes a training step's arena may take (0: no budget)">,
    Option<"diagnose", "diagnose", "bool", "true",
           "Report an unmet budget as an error diagnostic (tc-compile reports "
           "it itself)">
  ];
}

def TcLowerToPlan : Pass<"tc-lower-to-plan", "mlir::ModuleOp"> {
  let summary = "Lowers tc functions to the plan dialect: buffers and steps";
  let description = [{
    Replaces each function with a plan function (see the plan dialect):
    the buffer assignment decides which ops are views (reshapes, transposes,
    slices, splits and concatenations that are strides of their input or
    are written in place by their producers: attention's head split and
    merge), GEMMs (`plan.gemm` with leading dimensions and batch strides) or
    generated kernels (`plan.launch` of a kernel function holding the one tc
    op; identical kernels are shared); the memory plan puts parameters,
    gradients and Adam moments in flat buffers and the rest in one arena by
    liveness. A `tc.all_reduce` becomes `plan.allreduce` steps and one
    `plan.wait` at its place: its inputs in the grads space are cut into
    buckets of contiguous gradients of at least `bucket-bytes` (the last
    one may be smaller), each reduced right after the last step writing it,
    so that the sum runs while the backward goes on; its other inputs (the
    loss, the token count) are reduced at its place. Values returned that
    are not written in place are copied into the outputs buffer.
    `functions` keeps only the functions whose names start with one of the
    prefixes (all when empty). In a module of precision tf32 (`tc.precision`,
    set by tc-apply-precision) every f32 GEMM computes in TF32
    (`compute tf32`).
  }];
  let options = [
    ListOption<"functions", "functions", "std::string",
               "Name prefixes of the functions to lower (others are dropped)">,
    Option<"bucketBytes", "bucket-bytes", "int64_t", "25 << 20",
           "Bytes of gradients per plan.allreduce (the last bucket may be "
           "smaller)">
  ];
  let dependentDialects = ["::tc::TcDialect", "::tc::plan::PlanDialect"];
}

#endif // TC_TRANSFORMS_PASSES_TD
