//===- StopSignalsTest.cpp - stop signals never interrupt compute code -----===//
//
// Its own executable: receiveStopSignalsOnOwnThread() must run before any
// other thread exists (main() below), as in tc-run.
//
// oneDNN 2.6's JIT sgemm moves rsp into a heap buffer while it runs, so a
// signal handler that runs on a thread inside it writes its frame over heap
// chunks (a crash in free() within a few hundred signals at 256^3, seen on
// AVX2 and AVX-512 CPUs). These tests send 2,000 stop signals while two
// threads run that sgemm: neither may be interrupted.
//
//===----------------------------------------------------------------------===//

#include "runtime/cpu/Sgemm.h"
#include "runtime/train/StopOnSignals.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <pthread.h>
#include <random>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace tc::rt;

namespace {

bool blocks(int signal) {
  sigset_t mask;
  pthread_sigmask(SIG_BLOCK, nullptr, &mask);
  return sigismember(&mask, signal) == 1;
}

/// oneDNN sgemm at 256^3 on this thread until `done`.
void multiplyUntil(const std::atomic<bool> &done) {
  constexpr int64_t n = 256;
  std::vector<float> a(n * n, 0.5f), b(n * n, 0.25f), c(n * n);
  while (!done)
    sgemm(SgemmLibrary::OneDnn, false, false, n, n, n, 1.0f, a.data(), n,
          b.data(), n, 0.0f, c.data(), n);
  EXPECT_FLOAT_EQ(c[0], 0.5f * 0.25f * n);
}

TEST(StopSignals, BlockedInEveryThreadStartedInMain) {
  for (int signal : {SIGINT, SIGTERM}) {
    EXPECT_TRUE(blocks(signal)) << strsignal(signal);
    bool inWorker = false;
    std::thread([&] { inWorker = blocks(signal); }).join();
    EXPECT_TRUE(inWorker) << strsignal(signal);
  }
}

TEST(StopSignals, StopsDuringSgemm) {
  std::atomic<bool> done{false};
  std::thread worker(multiplyUntil, std::cref(done));
  std::thread sender([&] {
    std::minstd_rand random(1);
    for (int i = 0; i < 2000; ++i) {
      // At a random point of an sgemm call (one takes about a millisecond).
      auto next = std::chrono::steady_clock::now() +
                  std::chrono::microseconds(random() % 200);
      while (std::chrono::steady_clock::now() < next)
        ;
      StopOnSignals stop; // each stop is a run's first signal
      int signal = i % 2 ? SIGINT : SIGTERM;
      kill(getpid(), signal);
      auto deadline =
          std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (!stop.stopRequested() &&
             std::chrono::steady_clock::now() < deadline)
        std::this_thread::yield();
      EXPECT_EQ(stop.stopRequested(), signal) << "stop " << i;
      if (stop.stopRequested() != signal)
        break;
    }
    done = true;
  });
  multiplyUntil(done);
  sender.join();
  worker.join();
}

} // namespace

int main(int argc, char **argv) {
  receiveStopSignalsOnOwnThread();
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
