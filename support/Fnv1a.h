//===- Fnv1a.h - the FNV-1a 64 hash of tc's checksums and fingerprints -----===//
//
// FNV-1a 64 catches accidents (a bit flipped, a file cut short or swapped),
// not edits: it is not collision resistant (docs/robustness.md).
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_FNV1A_H
#define TC_SUPPORT_FNV1A_H

#include <cstddef>
#include <cstdint>

namespace tc::support {

inline constexpr uint64_t kFnv1aStart = 0xcbf29ce484222325ull;

/// `hash` continued over `size` bytes at `data`: hashing two buffers in turn
/// gives the hash of their concatenation.
inline uint64_t fnv1a(const void *data, size_t size,
                      uint64_t hash = kFnv1aStart) {
  const unsigned char *bytes = static_cast<const unsigned char *>(data);
  for (size_t i = 0; i < size; ++i) {
    hash ^= bytes[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

} // namespace tc::support

#endif // TC_SUPPORT_FNV1A_H
