//===- ExportOptions.h - what tc-compile writes, for which target ----------===//
//
// The settings of one export (compiler/export/TcxWriter.h): the target and
// its architectures, with the defaults and checks of tc-compile's --target,
// --cpu and --arch flags, so that every caller (the tool, the tests) gets
// the same executable for the same spelling.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_EXPORT_EXPORTOPTIONS_H
#define TC_COMPILER_EXPORT_EXPORTOPTIONS_H

#include "compiler/codegen/Target.h"
#include "support/Precision.h"

#include <string>
#include <vector>

namespace tc {

struct ModelDescription;

struct ExportOptions {
  std::string modelDescription; ///< the .toml text, stored for tc-inspect
  std::string producer;         ///< "tc-compile 0.1"
  /// The description's training and data settings for tc-run (none for a
  /// .mlir input).
  const ModelDescription *description = nullptr;
  Target target = Target::Host;
  /// Host: the x86-64 level of the kernels (support/HostCpu.h).
  std::string hostCpu;
  /// Cuda: compute capabilities x 10 (80, 90): CUBIN for each, PTX for the
  /// newest.
  std::vector<unsigned> cudaArchitectures;
};

/// The options for `target` as tc-compile's flags spell them: `cpu` is
/// "native" (the best level this machine has) or a level; `architectures`
/// are "sm_80"-style names, sm_80 and sm_90 when none are given. False with
/// `error` naming the flag and what it accepts.
bool setTarget(ExportOptions &options, Target target, const std::string &cpu,
               const std::vector<std::string> &architectures,
               std::string &error);

/// Whether the target of `options` runs GEMMs in `precision`: TF32 is a
/// CUDA tensor-core mode, which no CPU has; bf16 and TF32 GEMMs on CUDA need
/// their tensor cores, sm_80 or newer. False with `error` and the `fix`.
bool checkPrecision(const ExportOptions &options, support::Precision precision,
                    std::string &error, std::string &fix);

} // namespace tc

#endif // TC_COMPILER_EXPORT_EXPORTOPTIONS_H
