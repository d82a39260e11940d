//===- MpiCommunicator.cpp - the ranks of an mpirun job (plug-in) ----------===//
//
// lib/tc-mpi-collective.so. One thread of its own makes every MPI call
// (MPI_THREAD_FUNNELED: it is the thread that initialises MPI): the device
// queues a gradient bucket's sum when the step's plan.allreduce starts it
// and goes on with the backward while this thread reduces; plan.wait waits
// for the queue to drain. Sums are MPI_Allreduce with MPI_SUM, which gives
// every rank the same bits (the ranks check it: Trainer's checksum).
//
//===----------------------------------------------------------------------===//

#include "runtime/Communicator.h"

#include <mpi.h>

#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace tc::rt {
namespace {

MPI_Datatype mpiType(ReduceElement type) {
  switch (type) {
  case ReduceElement::F32:
    return MPI_FLOAT;
  case ReduceElement::I32:
    return MPI_INT32_T;
  case ReduceElement::I64:
    return MPI_INT64_T;
  }
  return MPI_BYTE;
}

int64_t bytesOf(ReduceElement type) {
  return type == ReduceElement::I64 ? 8 : 4;
}

class MpiCommunicator final : public Communicator {
public:
  /// Starts the thread, which initialises MPI; false with `error` when MPI
  /// does not start.
  bool start(std::string &error) {
    // While a rank waits for a slower one, Open MPI polls; yielding lets the
    // rank's own compute threads have the core (unless the user chose).
    setenv("OMPI_MCA_mpi_yield_when_idle", "1", /*overwrite=*/0);
    std::promise<std::string> started;
    std::future<std::string> result = started.get_future();
    thread_ = std::thread([this, &started] { serve(started); });
    error = result.get();
    return error.empty();
  }

  ~MpiCommunicator() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    work_.notify_one();
    if (thread_.joinable())
      thread_.join();
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::string describe() const override {
    return "MPI (" + library_ + "), rank " + std::to_string(rank_) + " of " +
           std::to_string(size_);
  }

  void startAllReduce(void *data, int64_t count,
                      ReduceElement type) override {
    enqueue([data, count, type] {
      // MPI counts are int: large buffers go in pieces.
      char *bytes = static_cast<char *>(data);
      for (int64_t done = 0; done < count;) {
        int piece = int(std::min<int64_t>(count - done, INT_MAX / 8));
        MPI_Allreduce(MPI_IN_PLACE, bytes + done * bytesOf(type), piece,
                      mpiType(type), MPI_SUM, MPI_COMM_WORLD);
        done += piece;
      }
    });
  }

  void wait(double timeoutSeconds) override {
    std::unique_lock<std::mutex> lock(mutex_);
    auto began = std::chrono::steady_clock::now();
    int64_t target = queued_;
    while (finished_ < target) {
      done_.wait_for(lock, std::chrono::milliseconds(200));
      double waited = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - began)
                          .count();
      if (finished_ < target && timeoutSeconds > 0 &&
          waited > timeoutSeconds)
        giveUp(waited);
    }
  }

  void broadcast(void *data, int64_t bytes, double timeoutSeconds) override {
    enqueue([data, bytes] {
      char *p = static_cast<char *>(data);
      for (int64_t done = 0; done < bytes;) {
        int piece = int(std::min<int64_t>(bytes - done, INT_MAX));
        MPI_Bcast(p + done, piece, MPI_BYTE, 0, MPI_COMM_WORLD);
        done += piece;
      }
    });
    wait(timeoutSeconds);
  }

  [[noreturn]] void abort(int code) override {
    std::fflush(stderr);
    _exit(code);
  }

private:
  void enqueue(std::function<void()> job) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      jobs_.push_back(std::move(job));
      ++queued_;
    }
    work_.notify_one();
  }

  /// The thread: MPI up, then the queue's jobs in order, then MPI down.
  void serve(std::promise<std::string> &started) {
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) !=
        MPI_SUCCESS) {
      started.set_value("MPI_Init_thread failed");
      return;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    library_.assign(version, length);
    if (size_t comma = library_.find(','); comma != std::string::npos)
      library_.resize(comma); // "Open MPI v4.1.4, package: ..." -> the name
    started.set_value("");
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        work_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty())
          break;
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      job();
      {
        std::lock_guard<std::mutex> lock(mutex_);
        ++finished_;
      }
      done_.notify_all();
    }
    MPI_Finalize();
  }

  /// Fail-stop: the thread is stuck inside MPI, so the process ends here;
  /// mpirun then ends the other ranks.
  [[noreturn]] void giveUp(double waited) {
    std::fprintf(stderr,
                 "tc-run: error: rank %d of %d: the other ranks have not "
                 "joined a sum for %.0f s (one died, failed, hangs, or is "
                 "far behind); stopping this rank. Checkpoints are written whole, "
                 "so the last one is intact: resume from it (with any number "
                 "of ranks); --collective-timeout sets this limit\n",
                 rank_, size_, waited);
    abort(1);
  }

  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable work_, done_;
  std::deque<std::function<void()>> jobs_;
  int64_t queued_ = 0, finished_ = 0;
  bool stopping_ = false;
  int rank_ = 0, size_ = 1;
  std::string library_;
};

} // namespace
} // namespace tc::rt

/// The plug-in's entry point (runtime/collective/Communicator.cpp).
extern "C" tc::rt::Communicator *
tc_create_mpi_communicator(std::string &error) {
  auto communicator = std::make_unique<tc::rt::MpiCommunicator>();
  if (!communicator->start(error))
    return nullptr;
  return communicator.release();
}
