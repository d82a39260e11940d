//===- TransformerBuilder.h - model description -> tc IR ------------------===//
//
// Builds the Transformer of Vaswani et al. (2017) as functions of the tc
// dialect, one set per shape bucket (B = batch, S = source length, T = target
// length), all taking the same parameters in the same order:
//
//   @forward_BxSxT(params..., source_ids, target_in, target_out, rng)
//       -> (summed label-smoothed loss, token count)
//   @encode_BxS(params..., source_ids) -> memory [B, S, d_model]
//   @decode_BxSxT(params..., memory, source_ids, target_prefix)
//       -> logits [B, T, vocab]   (row t predicts token t + 1)
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_FRONTEND_TRANSFORMERBUILDER_H
#define TC_COMPILER_FRONTEND_TRANSFORMERBUILDER_H

#include "compiler/frontend/ModelDescription.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace tc {

mlir::OwningOpRef<mlir::ModuleOp>
buildTransformer(mlir::MLIRContext &context,
                 const ModelDescription &description);

} // namespace tc

#endif // TC_COMPILER_FRONTEND_TRANSFORMERBUILDER_H
