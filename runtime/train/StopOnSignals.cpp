//===- StopOnSignals.cpp - SIGINT and SIGTERM end a run after its step -----===//

#include "runtime/train/StopOnSignals.h"

#include <atomic>
#include <csignal>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <unistd.h>

namespace tc::rt {
namespace {

std::atomic<bool> stopWanted{false}; ///< a StopOnSignals lives
std::atomic<int> stopSignal{0};
pthread_t signalThread;

/// Threads that shared libraries started before main() (OpenBLAS's pool
/// starts in its constructor) do not block the signals, so the kernel may
/// pick one of them: the signal is passed on to the signal thread, which
/// decides. Such threads idle or run OpenBLAS, whose kernels keep their stack
/// pointer on their stack; every thread started later blocks the signals.
extern "C" void passToSignalThread(int signal) {
  pthread_kill(signalThread, signal); // async-signal-safe
}

/// Ends the process as `signal`'s default action does, from the signal
/// thread: the only thread where it is then unblocked.
[[noreturn]] void endBy(int signal) {
  struct sigaction action = {};
  action.sa_handler = SIG_DFL;
  sigaction(signal, &action, nullptr);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, signal);
  pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
  raise(signal); // this thread's: delivered before raise returns
  _exit(128 + signal);
}

void receive(sigset_t signals) {
  for (;;) {
    int signal = 0;
    if (sigwait(&signals, &signal) != 0)
      continue;
    if (!stopWanted || stopSignal != 0)
      endBy(signal);
    stopSignal = signal;
  }
}

} // namespace

void receiveStopSignalsOnOwnThread() {
  static std::once_flag started;
  std::call_once(started, [] {
    sigset_t signals;
    sigemptyset(&signals);
    for (int s : {SIGINT, SIGTERM}) {
      struct sigaction current;
      if (sigaction(s, nullptr, &current) == 0 && current.sa_handler != SIG_IGN)
        sigaddset(&signals, s);
    }
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    std::thread receiver(receive, signals);
    signalThread = receiver.native_handle();
    receiver.detach();
    struct sigaction pass = {};
    pass.sa_handler = passToSignalThread;
    sigfillset(&pass.sa_mask);
    pass.sa_flags = SA_RESTART;
    for (int s : {SIGINT, SIGTERM})
      if (sigismember(&signals, s) == 1)
        sigaction(s, &pass, nullptr);
  });
}

StopOnSignals::StopOnSignals() {
  stopSignal = 0;
  stopWanted = true;
}

StopOnSignals::~StopOnSignals() { stopWanted = false; }

int StopOnSignals::stopRequested() const { return stopSignal; }

} // namespace tc::rt
