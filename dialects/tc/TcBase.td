//===- TcBase.td - the tc dialect, its types and attributes -*- tablegen -*-===//
//
// The tc dialect is the graph level of the compiler: static-shaped tensor
// operations that express a Transformer's forward pass (and, later, its
// backward pass and optimizer step).
//
//===----------------------------------------------------------------------===//

#ifndef TC_BASE_TD
#define TC_BASE_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"

def Tc_Dialect : Dialect {
  let name = "tc";
  let cppNamespace = "::tc";
  let summary = "Static-shaped tensor graph of a Transformer training step";
  let description = [{
    The `tc` dialect holds the graph of a model as functions (`func.func`) over
    statically shaped tensors. Floating-point values are `f32` (with `f16`,
    `bf16` and `f64` accepted), token ids are `i32`, masks are `i1`.

    Parameters are function arguments that carry two argument attributes:
    `tc.param` (a stable, readable name such as
    `"decoder.layers.3.cross_attn.q.weight"`) and `tc.init` (how the runtime
    initialises it, e.g. `#tc.init<xavier_uniform>`), so that a graph describes
    itself. Data inputs (token ids, the dropout RNG state) may carry
    `tc.input = "source_ids"` so that a runtime binds them by name.

    Elementwise operations broadcast their operands with NumPy's rules: shapes
    are aligned at their last dimension, a missing leading dimension counts as
    1, and two dimensions are compatible when they are equal or one of them is
    1. The result type must be exactly the broadcast shape; the verifier checks
    it. `tc.max` and `tc.min` propagate NaN, as `torch.maximum` does.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasRegionArgAttrVerify = 1;
}

class Tc_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tc_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Op categories (dialects/tc/TcTraits.h): how an op is computed, queried with
// op->hasTrait<tc::OpTrait::...>() by passes and code generators.
//===----------------------------------------------------------------------===//

class Tc_Category<string name> : NativeOpTrait<name> {
  let cppNamespace = "::tc::OpTrait";
}
// Each result element from the same (broadcast) element of each operand.
def Tc_Elementwise : Tc_Category<"Elementwise">;
// A reduction over some axes of its input.
def Tc_Reduction : Tc_Category<"Reduction">;
// Computed a block per row of the last dimension by a row kernel.
def Tc_RowWise : Tc_Category<"RowWise">;
// A strided view of its operands.
def Tc_View : Tc_Category<"View">;
// Its result is its first operand updated in place: a decoder step's state.
def Tc_UpdatesInPlace : Tc_Category<"UpdatesInPlace">;

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Tc_FloatElement : AnyTypeOf<[F32, F16, BF16, F64]>;
def Tc_FloatTensor : StaticShapeTensorOf<[Tc_FloatElement]>;
// Ops that compute only in f32 (mixed precision keeps them f32).
def Tc_F32Tensor : StaticShapeTensorOf<[F32]>;
def Tc_IdTensor : StaticShapeTensorOf<[I32]>;
def Tc_MaskTensor : StaticShapeTensorOf<[I1]>;
def Tc_NumericTensor : StaticShapeTensorOf<[Tc_FloatElement, I32]>;
def Tc_ArithTensor : StaticShapeTensorOf<[Tc_FloatElement, I32, I64]>;
def Tc_AnyTensor : StaticShapeTensorOf<[Tc_FloatElement, I32, I64, I1]>;
def Tc_RngState : TypeConstraint<
    CPred<"::llvm::isa<::mlir::RankedTensorType>($_self) && "
          "::llvm::cast<::mlir::RankedTensorType>($_self).getShape() == "
          "::llvm::ArrayRef<int64_t>{2} && "
          "::llvm::cast<::mlir::RankedTensorType>($_self)"
          ".getElementType().isInteger(64)">,
    "tensor<2xi64> holding (seed, step)">;
def Tc_Scalar : TypeConstraint<
    CPred<"::llvm::isa<::mlir::RankedTensorType>($_self) && "
          "::llvm::cast<::mlir::RankedTensorType>($_self).getRank() == 0">,
    "rank-0 tensor">;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def Tc_ComparePredicate : I32EnumAttr<"ComparePredicate",
    "comparison of tc.compare", [
      I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ne", 1>,
      I32EnumAttrCase<"lt", 2>, I32EnumAttrCase<"le", 3>,
      I32EnumAttrCase<"gt", 4>, I32EnumAttrCase<"ge", 5>]> {
  let cppNamespace = "::tc";
}

def Tc_InitKind : I32EnumAttr<"InitKind", "parameter initializer", [
      I32EnumAttrCase<"zeros", 0>, I32EnumAttrCase<"ones", 1>,
      I32EnumAttrCase<"xavier_uniform", 2>, I32EnumAttrCase<"normal", 3>,
      I32EnumAttrCase<"uniform", 4>]> {
  let cppNamespace = "::tc";
  let genSpecializedAttr = 0;
}

def Tc_InitAttr : AttrDef<Tc_Dialect, "Init"> {
  let mnemonic = "init";
  let summary = "How the runtime initialises a parameter";
  let description = [{
    Argument attribute `tc.init` of a parameter:

    * `#tc.init<zeros>`, `#tc.init<ones>`
    * `#tc.init<xavier_uniform>`: U(-a, a), a = sqrt(6 / (fan_in + fan_out)),
      with fan_out, fan_in the two dimensions of an [out, in] weight
    * `#tc.init<normal(0.044)>`: N(0, std^2) with the given standard deviation
    * `#tc.init<uniform(0.1)>`: U(-bound, bound)
  }];
  let parameters = (ins "InitKind":$kind, "::llvm::APFloat":$scale);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // TC_BASE_TD
