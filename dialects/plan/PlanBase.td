//===- PlanBase.td - the plan dialect and its buffer attribute -*- tablegen -*-===//
//
// The plan dialect is the level below tc: what an executable does, step by
// step, on bytes. No tensors are left; every operand is a strided view of one
// of a few flat buffers (the arena, the parameters, the gradients, the Adam
// moments, the inputs, the outputs and the constants).
//
//===----------------------------------------------------------------------===//

#ifndef PLAN_BASE_TD
#define PLAN_BASE_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"

def Plan_Dialect : Dialect {
  let name = "plan";
  let cppNamespace = "::tc::plan";
  let summary = "Buffers, kernel launches, GEMM calls and collectives of an executable";
  let description = [{
    A function of the plan dialect is a `func.func` without arguments whose
    body is a list of steps: `plan.launch` (one generated kernel),
    `plan.gemm` (one library GEMM call, batched, with a bias/ReLU epilogue),
    `plan.copy` (a strided copy), `plan.allreduce` (starts a sum over the
    ranks of a data-parallel job: a gradient bucket, the loss, the token
    count) and `plan.wait` (ends the sums started). Steps run in order. Their operands are
    `#plan.buf` views: a buffer space, a byte offset into it, an element
    type, a shape and strides in elements.

    The kernels a function launches are `func.func` symbols of the same
    module, each holding exactly one tc operation over tensors (a `tc.fused`
    group, a row-wise op, `tc.adam`, ...): the code generators of every target
    print their source from that op, and the interpreter can run them alone.

    Function attributes: `plan.arena_bytes` (the size of its scratch arena),
    `plan.inputs` and `plan.outputs` (dictionaries `{name, buffer}` binding
    the runtime's data to buffers). Module attributes: `plan.params` (the
    parameter table: name, buffer in the `params` space, initializer),
    `plan.param_bytes`, and `plan.param_copy_bytes` where a function reads
    the parameters' bf16 copies (the `param_copies` space, kept up to date by
    the fused Adam and by the runtime); `plan.constant` ops hold the
    constants' bytes.
  }];
  let useDefaultAttributePrinterParser = 1;
}

def Plan_Space : I32EnumAttr<"Space", "a flat buffer of an executable", [
    I32EnumAttrCase<"arena", 0>,     // scratch of one function, reused by liveness
    I32EnumAttrCase<"params", 1>,    // all parameters, in argument order
    I32EnumAttrCase<"grads", 2>,     // their gradients, at the parameters' offsets
    I32EnumAttrCase<"adam_m", 3>,    // Adam's first moments, same offsets
    I32EnumAttrCase<"adam_v", 4>,    // Adam's second moments, same offsets
    I32EnumAttrCase<"inputs", 5>,    // the data a call binds (token ids, RNG state)
    I32EnumAttrCase<"outputs", 6>,   // the results a call returns (loss, logits)
    I32EnumAttrCase<"constants", 7>, // bytes stored in the executable
    I32EnumAttrCase<"param_copies", 8> // the parameters rounded to bf16, at
                                       // half their params offsets
  ]> {
  let cppNamespace = "::tc::plan";
  let genSpecializedAttr = 0;
}

def Plan_BufferAttr : AttrDef<Plan_Dialect, "Buffer"> {
  let mnemonic = "buf";
  let summary = "A strided view of a flat buffer";
  let description = [{
    `#plan.buf<arena + 1024 : 2x4x6x4xf32, strides [96, 4, 16, 1]>`: the
    elements `[i, j, k, l]` of the view lie at byte
    `1024 + (96 i + 4 j + 16 k + l) * 4` of the function's arena. Strides are
    in elements; a contiguous row-major view may leave them out.
  }];
  let parameters = (ins "Space":$space, "int64_t":$offset,
                        ArrayRefParameter<"int64_t">:$shape,
                        ArrayRefParameter<"int64_t">:$strides,
                        "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Row-major strides of `shape`.
    static ::llvm::SmallVector<int64_t> contiguousStrides(::llvm::ArrayRef<int64_t> shape);
    bool isContiguous() const;
    int64_t numElements() const;
    /// Bytes of one element (1 for i1).
    int64_t elementBytes() const;
    /// One byte past the last element the view touches.
    int64_t endOffset() const;
  }];
}

def Plan_BufferArrayAttr : TypedArrayAttrBase<Plan_BufferAttr, "buffer views">;

#endif // PLAN_BASE_TD
