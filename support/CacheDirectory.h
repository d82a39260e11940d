//===- CacheDirectory.h - where compiled kernels are kept -----------------===//
//
// $TC_CACHE_DIR, else $XDG_CACHE_HOME/tc, else ~/.cache/tc (a temporary
// directory of the user's own when there is no home): tc-compile caches kernel
// builds there and the runtime writes the shared objects it loads there.
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_CACHEDIRECTORY_H
#define TC_SUPPORT_CACHEDIRECTORY_H

#include <string>

namespace tc::support {

/// The subdirectory `name` of the cache, created if missing; false with
/// `error` saying which directory could not be created.
bool cacheDirectory(const std::string &name, std::string &directory,
                    std::string &error);

} // namespace tc::support

#endif // TC_SUPPORT_CACHEDIRECTORY_H
