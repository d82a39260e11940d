//===- HostBackend.cpp - C++ for the host's compiler ------------------------===//
//
// Host kernels are C functions with OpenMP loops; the host's compiler
// builds them into a shared library (compiler/export/HostCompiler.cpp).
//
//===----------------------------------------------------------------------===//

#include "compiler/codegen/Preludes.h"
#include "compiler/codegen/TargetBackend.h"

namespace tc::codegen {
namespace {

// Philox's AVX2 form (support/PhiloxAvx2.h): the host prelude's dropout
// masks use it on AVX2 machines.
const char kPhiloxAvx2[] =
#include "compiler/codegen/PhiloxAvx2.inc"
    ;
const char kHostPrelude[] =
#include "compiler/codegen/preludes/Host.inc"
    ;

class HostBackend final : public TargetBackend {
public:
  Target target() const override { return Target::Host; }

  std::string prelude() const override {
    return commonPrelude() + kPhiloxAvx2 + kHostPrelude;
  }

  /// A host kernel runs once, as a call; its OpenMP loops split the work.
  std::pair<int64_t, int64_t> launchGeometry(mlir::Operation *) const override {
    return {1, 1};
  }

protected:
  std::string_view declarationHead() const override {
    return "extern \"C\" void ";
  }
  std::string_view
  tableSpelling(const support::ElementTypeInfo &row) const override {
    return row.hostType;
  }
};

} // namespace

const TargetBackend &hostBackend() {
  static const HostBackend backend;
  return backend;
}

} // namespace tc::codegen
