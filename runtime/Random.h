//===- Random.h - counter-based random streams for the runtime ------------===//
//
// Parameter initialisation and synthetic data draw from Philox 4x32-10
// (support/Philox.h, the RNG of dropout) keyed by (seed, stream): a
// stream's state is just its position, so a checkpoint stores one integer
// and a resumed run draws exactly what an uninterrupted one would.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_RANDOM_H
#define TC_RUNTIME_RANDOM_H

#include "support/Philox.h"

#include <cmath>
#include <cstdint>

namespace tc::rt {

class RandomStream {
public:
  RandomStream(uint64_t seed, uint32_t stream, uint64_t position = 0)
      : seed_(seed), stream_(stream), position_(position) {}

  /// The next 32 random bits.
  uint32_t next() {
    uint64_t block = position_ / 4;
    PhiloxCounter words = philox4x32(
        {uint32_t(block), uint32_t(block >> 32), uint32_t(seed_ >> 32), 0},
        {uint32_t(seed_), stream_});
    return words[position_++ % 4];
  }
  /// Uniform in [0, 1), a multiple of 2^-32.
  double uniform() { return next() * (1.0 / 4294967296.0); }
  /// Uniform integer in [low, high).
  int64_t integer(int64_t low, int64_t high) {
    return low + int64_t(uniform() * double(high - low));
  }
  /// Standard normal (Box-Muller).
  double normal() {
    double u1 = 1.0 - uniform(), u2 = uniform(); // u1 in (0, 1]
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
  uint64_t position() const { return position_; }

private:
  uint64_t seed_;
  uint32_t stream_;
  uint64_t position_;
};

} // namespace tc::rt

#endif // TC_RUNTIME_RANDOM_H
