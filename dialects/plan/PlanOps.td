//===- PlanOps.td - the steps of an executable -------------*- tablegen -*-===//

#ifndef PLAN_OPS_TD
#define PLAN_OPS_TD

include "dialects/plan/PlanBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

class Plan_Op<string mnemonic, list<Trait> traits = []>
    : Op<Plan_Dialect, mnemonic, traits>;

def Plan_LaunchOp : Plan_Op<"launch",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Runs one generated kernel";
  let description = [{
    Runs the kernel `@kernel` (a function of the module holding one tc
    operation) with `ins` bound to its arguments and `outs` to its results,
    in order. `grid` and `block` are the launch geometry of the CUDA target
    (blocks, threads per block); the host target runs the same kernel with
    OpenMP over the same work and ignores them. Every buffer is contiguous.

    ```mlir
    plan.launch @train_step_2x6x5_k3
        ins [#plan.buf<arena + 0 : 12x16xf32>]
        outs [#plan.buf<arena + 768 : 12x16xf32>]
        grid [1, 1, 1] block [192, 1, 1]
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel,
                       Plan_BufferArrayAttr:$inputs,
                       Plan_BufferArrayAttr:$outputs,
                       DenseI64ArrayAttr:$grid, DenseI64ArrayAttr:$block);
  let assemblyFormat = [{
    $kernel `ins` $inputs `outs` $outputs `grid` $grid `block` $block attr-dict
  }];
  let hasVerifier = 1;
}

def Plan_GemmCompute : I32EnumAttr<"GemmCompute",
    "what a GEMM's products are computed and summed in", [
    I32EnumAttrCase<"f32", 0>,  // f32 products summed in f32
    I32EnumAttrCase<"tf32", 1>  // f32 operands rounded to TF32, summed in f32
  ]> {
  let cppNamespace = "::tc::plan";
  let genSpecializedAttr = 0;
}
def Plan_GemmComputeAttr
    : EnumAttr<Plan_Dialect, Plan_GemmCompute, "gemm_compute">;

def Plan_GemmOp : Plan_Op<"gemm"> {
  let summary = "One library GEMM call: batched, strided, with an epilogue";
  let description = [{
    For every index `b` of the `batch` extents (row-major), with `A`, `B`,
    `C` the row-major matrices starting at `lhs`, `rhs`, `out` plus
    `sum_i b_i * *_batch_strides[i]` elements:

    `C[m, n] = act(alpha * sum_k op(A)[m, k] op(B)[k, n] + beta * C[m, n] + bias[n])`

    `op(A)` is `A` (`m x k`, leading dimension `lda`) or, with
    `transpose_lhs`, the transpose of `A` (`k x m`, leading dimension `lda`);
    likewise `B` with `transpose_rhs` and `ldb`; `C` is `m x n` with `ldc`.
    `act` is ReLU with `relu`. This is `cblas_sgemm(CblasRowMajor, ...)` per
    batch index, and a strided-batched cuBLAS call when there is one batch
    dimension. Attention's head split and merge are strides here, not copies.
    The views `lhs`, `rhs`, `out` (and `bias`) give the same data as tensors
    (for checking and for `tc-inspect`); the BLAS parameters are derived from
    them by the lowering.

    The operands are both f32 or both bf16 (mixed precision); a bias is
    f32, and so is the output, except that a product of bf16 operands with
    no bias and `beta` 0 may store its f32 sums rounded to bf16 (to
    nearest even: tc-fuse-convert's narrowed GEMM results). `compute` says what the products are computed and summed
    in: `f32` (the default, not printed) or `tf32` (f32 operands rounded to
    TF32 for the products, summed in f32: CUDA's tensor cores), which
    tc-lower-to-plan chooses for the f32 GEMMs of a module in precision tf32.
  }];
  let arguments = (ins Plan_BufferAttr:$lhs, Plan_BufferAttr:$rhs,
                       Plan_BufferAttr:$out, OptionalAttr<Plan_BufferAttr>:$bias,
                       I64Attr:$m, I64Attr:$n, I64Attr:$k,
                       UnitAttr:$transpose_lhs, UnitAttr:$transpose_rhs,
                       I64Attr:$lda, I64Attr:$ldb, I64Attr:$ldc,
                       DenseI64ArrayAttr:$batch,
                       DenseI64ArrayAttr:$lhs_batch_strides,
                       DenseI64ArrayAttr:$rhs_batch_strides,
                       DenseI64ArrayAttr:$out_batch_strides,
                       F32Attr:$alpha, F32Attr:$beta, UnitAttr:$relu,
                       DefaultValuedAttr<Plan_GemmComputeAttr,
                                         "::tc::plan::GemmCompute::f32">:$compute);
  let assemblyFormat = [{
    $lhs `,` $rhs `->` $out (`bias` $bias^)? (`compute` $compute^)? attr-dict
  }];
  let hasVerifier = 1;
}

def Plan_CopyOp : Plan_Op<"copy"> {
  let summary = "Copies one strided view into another of the same shape";
  let description = [{
    ```mlir
    plan.copy #plan.buf<arena + 64 : f32> -> #plan.buf<outputs + 0 : f32>
    ```
  }];
  let arguments = (ins Plan_BufferAttr:$source, Plan_BufferAttr:$target);
  let assemblyFormat = "$source `->` $target attr-dict";
  let hasVerifier = 1;
}

def Plan_AllReduceOp : Plan_Op<"allreduce"> {
  let summary = "Starts summing a buffer over all ranks, in place";
  let description = [{
    A contiguous `f32` or `i32` buffer of the `grads` space (a bucket of
    gradients) or of the arena (the summed loss, the token count) is summed
    across the ranks of a data-parallel job (MPI on CPUs, NCCL on GPUs).
    The sum is started here and may run while the following steps do; the
    next `plan.wait` ends it. So it is placed after the last step writing
    the buffer, and nothing between it and that `plan.wait` touches the
    buffer. Every rank starts the same reductions in the same order. With
    one rank it does nothing.
  }];
  let arguments = (ins Plan_BufferAttr:$buffer);
  let assemblyFormat = "$buffer attr-dict";
  let hasVerifier = 1;
}

def Plan_WaitOp : Plan_Op<"wait"> {
  let summary = "Waits until every started plan.allreduce is done";
  let description = [{
    The steps after it read the sums. With one rank it does nothing.
  }];
  let assemblyFormat = "attr-dict";
}

def Plan_ConstantOp : Plan_Op<"constant"> {
  let summary = "Bytes of the constants buffer, stored in the executable";
  let description = [{
    A module-level op: the runtime fills the `constants` space with `value`
    at the buffer's offset before running any function.
  }];
  let arguments = (ins Plan_BufferAttr:$buffer, ElementsAttr:$value);
  let assemblyFormat = "$buffer `=` $value attr-dict";
  let hasVerifier = 1;
}

#endif // PLAN_OPS_TD
