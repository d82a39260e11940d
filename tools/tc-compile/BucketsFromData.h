//===- BucketsFromData.h - tc-compile --buckets-from -----------------------===//

#ifndef TC_TOOLS_TC_COMPILE_BUCKETSFROMDATA_H
#define TC_TOOLS_TC_COMPILE_BUCKETSFROMDATA_H

#include "compiler/frontend/ModelDescription.h"

#include <string>

namespace tc {

/// Replaces the buckets of `description` with `count` (0: as many as it
/// has) chosen for the pairs of the token file at `path`
/// (compiler/frontend/BucketChoice.h), and prints the padding share of the
/// description's buckets and of the chosen ones on stderr. False with
/// `error` when the file cannot be read or the description has no
/// training.batch_tokens.
bool chooseBucketsFromData(ModelDescription &description,
                           const std::string &path, int64_t count,
                           std::string &error);

/// `description`'s buckets as a TOML line, to record in the executable.
std::string bucketsAsToml(const ModelDescription &description);

} // namespace tc

#endif // TC_TOOLS_TC_COMPILE_BUCKETSFROMDATA_H
