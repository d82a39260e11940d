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

#endif // TC_TRANSFORMS_PASSES_TD
