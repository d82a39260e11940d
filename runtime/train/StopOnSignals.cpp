//===- StopOnSignals.cpp - SIGINT and SIGTERM end a run after its step -----===//

#include "runtime/train/StopOnSignals.h"

#include <atomic>
#include <csignal>

namespace tc::rt {
namespace {

std::atomic<int> stopSignal{0};

extern "C" void requestStop(int signal) {
  if (stopSignal != 0) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
  }
  stopSignal = signal;
}

} // namespace

StopOnSignals::StopOnSignals() {
  stopSignal = 0;
  for (int s : {SIGINT, SIGTERM}) {
    previous_[s == SIGINT] = std::signal(s, requestStop);
    if (previous_[s == SIGINT] == SIG_IGN)
      std::signal(s, SIG_IGN);
  }
}

StopOnSignals::~StopOnSignals() {
  std::signal(SIGINT, previous_[1]);
  std::signal(SIGTERM, previous_[0]);
}

int StopOnSignals::stopRequested() const { return stopSignal; }

} // namespace tc::rt
