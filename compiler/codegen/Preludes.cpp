//===- Preludes.cpp - the source every generated kernel file starts with ---===//

#include "compiler/codegen/Preludes.h"
#include "compiler/codegen/TargetBackend.h"

namespace tc::codegen {

std::string kernelPrelude(Target target) {
  return targetBackend(target).prelude();
}

} // namespace tc::codegen
