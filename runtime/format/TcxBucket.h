//===- TcxBucket.h - a .tcx bucket as the contract's BucketShape ----------===//
//
// tcx.fbs's `Bucket` (a function's, and the run config's) is the flatbuffer
// form of contract::BucketShape; the runtime reads it as one here and works
// with BucketShape only.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_FORMAT_TCXBUCKET_H
#define TC_RUNTIME_FORMAT_TCXBUCKET_H

#include "runtime/format/BucketShape.h"
#include "tcx_generated.h"

namespace tc::tcx {

inline contract::BucketShape shapeOf(const Bucket &bucket) {
  return {bucket.batch(), bucket.source_length(), bucket.target_length()};
}

} // namespace tc::tcx

#endif // TC_RUNTIME_FORMAT_TCXBUCKET_H
