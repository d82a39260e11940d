//===- TcTraits.h - the categories of tc ops -------------------------------===//
//
// How an op is computed, as op traits (declared in TcBase.td): passes,
// analyses and the code generators ask `op->hasTrait<tc::OpTrait::RowWise>()`
// instead of keeping their own lists of ops, so the lists cannot disagree.
// test/unit/OpCategoryTest.cpp checks the traits against what the plan
// lowering and the kernel dispatcher do with every op.
//
//===----------------------------------------------------------------------===//

#ifndef TC_DIALECT_TC_TCTRAITS_H
#define TC_DIALECT_TC_TCTRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace tc::OpTrait {

/// Each result element depends only on the same element of each operand,
/// after NumPy broadcasting: one loop over the result computes it, so
/// tc-fuse-elementwise groups these ops.
template <typename ConcreteType>
class Elementwise : public mlir::OpTrait::TraitBase<ConcreteType, Elementwise> {
};

/// Reduces its input over some axes: the last step of an elementwise group
/// over the input's shape.
template <typename ConcreteType>
class Reduction : public mlir::OpTrait::TraitBase<ConcreteType, Reduction> {};

/// Computed by a row kernel: a block per row of its first operand's last
/// dimension, with block-wide sums and maxima (a rank-0 result is summed
/// over the rows in one block).
template <typename ConcreteType>
class RowWise : public mlir::OpTrait::TraitBase<ConcreteType, RowWise> {};

/// Moves no data in principle: a strided view of its operands (buffer
/// assignment turns it into one where every consumer can read it).
template <typename ConcreteType>
class View : public mlir::OpTrait::TraitBase<ConcreteType, View> {};

/// Its one result is its first operand updated in place, which nothing else
/// reads (its verifier checks): the state an incremental decoder step keeps
/// in its own input buffers (the caches, the beam's parent table).
template <typename ConcreteType>
class UpdatesInPlace
    : public mlir::OpTrait::TraitBase<ConcreteType, UpdatesInPlace> {};

} // namespace tc::OpTrait

#endif // TC_DIALECT_TC_TCTRAITS_H
