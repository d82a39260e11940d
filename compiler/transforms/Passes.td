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

#endif // TC_TRANSFORMS_PASSES_TD
