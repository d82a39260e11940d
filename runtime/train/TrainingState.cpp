//===- TrainingState.cpp - a run's state between the device and the host --===//

#include "runtime/train/TrainingState.h"

namespace tc::rt {

void loadState(Device &device, const TrainingState &state) {
  // Empty moments (a fresh run): the device's are zero already.
  for (auto [space, bytes] :
       {std::pair(tcx::Space::Params, &state.params),
        std::pair(tcx::Space::AdamM, &state.firstMoments),
        std::pair(tcx::Space::AdamV, &state.secondMoments)})
    if (!bytes->empty())
      device.write(space, 0, bytes->data(), bytes->size());
}

void saveState(Device &device, int64_t paramBytes, TrainingState &state) {
  for (auto [space, bytes] :
       {std::pair(tcx::Space::Params, &state.params),
        std::pair(tcx::Space::AdamM, &state.firstMoments),
        std::pair(tcx::Space::AdamV, &state.secondMoments)}) {
    bytes->resize(paramBytes);
    device.read(space, 0, bytes->data(), bytes->size());
  }
}

void releaseState(TrainingState &state) {
  for (std::vector<uint8_t> *bytes :
       {&state.params, &state.firstMoments, &state.secondMoments})
    std::vector<uint8_t>().swap(*bytes);
}

} // namespace tc::rt
