//===- ParameterInit.cpp - parameters from the executable's initializers --===//

#include "runtime/train/ParameterInit.h"
#include "runtime/Random.h"

#include <cmath>

namespace tc::rt {

void initializeParameters(const tcx::Executable &executable, uint8_t *params,
                          uint64_t seed) {
  if (!executable.parameters())
    return;
  uint32_t index = 0;
  for (const tcx::Parameter *p : *executable.parameters()) {
    RandomStream random(seed, index++);
    const tcx::Buffer &buffer = *p->buffer();
    auto *values = reinterpret_cast<float *>(params + buffer.offset());
    int64_t n = 1;
    for (int64_t extent : *buffer.shape())
      n *= extent;
    double bound = p->scale();
    if (p->init() == tcx::InitKind::XavierUniform) {
      int64_t fanOut = buffer.shape()->size() > 0 ? buffer.shape()->Get(0) : 1;
      int64_t fanIn = n / std::max<int64_t>(fanOut, 1);
      bound = std::sqrt(6.0 / double(fanIn + fanOut));
    }
    for (int64_t i = 0; i < n; ++i) {
      switch (p->init()) {
      case tcx::InitKind::Zeros:
        values[i] = 0.0f;
        break;
      case tcx::InitKind::Ones:
        values[i] = 1.0f;
        break;
      case tcx::InitKind::Normal:
        values[i] = float(p->scale() * random.normal());
        break;
      default:
        values[i] = float((2.0 * random.uniform() - 1.0) * bound);
        break;
      }
    }
  }
}

} // namespace tc::rt
