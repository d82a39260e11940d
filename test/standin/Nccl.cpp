//===- Nccl.cpp - a stand-in for NCCL (libnccl) -----------------------------===//
//
// NCCL's calls of tc's CUDA plug-in in a data-parallel job: the ranks (one
// process each, on one host) share a POSIX shared-memory segment named by
// the unique id; an all-reduce copies each rank's buffer into its slot,
// waits for every rank, and sums the slots in rank order, on the stream,
// in its order (Standin.h). Sums of at most kSlotBytes a call.
//
//===----------------------------------------------------------------------===//

#include "Standin.h"

#include <nccl.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sched.h>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

namespace {

constexpr size_t kSlotBytes = size_t(16) << 20;
constexpr size_t kHeaderBytes = 4096;
/// A rank that waits longer than this for the others gives up (a dead
/// rank must not hang the test).
constexpr double kTimeoutSeconds = 120;

/// The start of the shared segment.
struct Header {
  std::atomic<uint32_t> arrived;
  std::atomic<uint32_t> generation;
};

} // namespace

struct ncclComm {
  int ranks = 1, rank = 0;
  char *segment = nullptr;
  size_t bytes = 0;

  Header &header() { return *reinterpret_cast<Header *>(segment); }
  char *slot(int r) { return segment + kHeaderBytes + size_t(r) * kSlotBytes; }

  /// Waits until every rank has arrived; false after kTimeoutSeconds.
  bool barrier() {
    Header &h = header();
    uint32_t generation = h.generation.load();
    if (h.arrived.fetch_add(1) + 1 == uint32_t(ranks)) {
      h.arrived.store(0);
      h.generation.fetch_add(1);
      return true;
    }
    auto start = std::chrono::steady_clock::now();
    while (h.generation.load() == generation) {
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                        start)
              .count() > kTimeoutSeconds)
        return false;
      sched_yield();
    }
    return true;
  }
};

namespace {

std::string segmentName(const ncclUniqueId &id) {
  return std::string(id.internal, strnlen(id.internal, sizeof id.internal));
}

ncclResult_t faultOf(const char *name) {
  return standin::callFails(name) ? ncclSystemError : ncclSuccess;
}

} // namespace

extern "C" {

ncclResult_t ncclGetUniqueId(ncclUniqueId *id) {
  if (ncclResult_t r = faultOf("ncclGetUniqueId"))
    return r;
  std::memset(id, 0, sizeof *id);
  std::snprintf(id->internal, sizeof id->internal, "/tc-standin-nccl-%d-%u",
                int(getpid()), unsigned(std::random_device{}()));
  return ncclSuccess;
}

ncclResult_t ncclCommInitRank(ncclComm_t *comm, int ranks, ncclUniqueId id,
                              int rank) {
  if (ncclResult_t r = faultOf("ncclCommInitRank"))
    return r;
  std::string name = segmentName(id);
  if (ranks < 1 || rank < 0 || rank >= ranks || name.empty())
    return ncclInvalidArgument;
  int fd = shm_open(name.c_str(), O_CREAT | O_RDWR, 0600);
  if (fd < 0)
    return ncclSystemError;
  size_t bytes = kHeaderBytes + size_t(ranks) * kSlotBytes;
  void *segment = ftruncate(fd, off_t(bytes)) == 0
                      ? mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                             MAP_SHARED, fd, 0)
                      : MAP_FAILED;
  close(fd);
  if (segment == MAP_FAILED)
    return ncclSystemError;
  auto *c = new ncclComm{ranks, rank, static_cast<char *>(segment), bytes};
  // Once every rank has it mapped, the name can go (nothing is left behind
  // in /dev/shm, whatever happens next).
  if (!c->barrier()) {
    munmap(segment, bytes);
    delete c;
    return ncclRemoteError;
  }
  if (rank == 0)
    shm_unlink(name.c_str());
  *comm = c;
  return ncclSuccess;
}

ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  if (ncclResult_t r = faultOf("ncclCommDestroy"))
    return r;
  // As NCCL's: the communicator's queued sums finish first.
  standin::synchronise();
  munmap(comm->segment, comm->bytes);
  delete comm;
  return ncclSuccess;
}

const char *ncclGetErrorString(ncclResult_t result) {
  standin::countCall("ncclGetErrorString"); // never fails
  switch (result) {
  case ncclSuccess:
    return "no error";
  case ncclSystemError:
    return "unhandled system error";
  case ncclInvalidArgument:
    return "invalid argument";
  case ncclRemoteError:
    return "remote process exited or there was a network error";
  default:
    return "unknown result";
  }
}

ncclResult_t ncclAllReduce(const void *send, void *receive, size_t count,
                           ncclDataType_t type, ncclRedOp_t op,
                           ncclComm_t comm, cudaStream_t stream) {
  if (ncclResult_t r = faultOf("ncclAllReduce"))
    return r;
  size_t bytes = count * 4;
  if ((type != ncclFloat32 && type != ncclInt32) || op != ncclSum ||
      bytes > kSlotBytes || !standin::isDeviceRange(send, bytes) ||
      !standin::isDeviceRange(receive, bytes))
    return ncclInvalidArgument;
  standin::enqueue(stream, [=] {
    std::memcpy(comm->slot(comm->rank), send, bytes);
    if (!comm->barrier()) {
      std::fprintf(stderr, "stand-in: a rank never came to the sum\n");
      std::abort(); // on a GPU: the kernel would hang; the job ends
    }
    for (size_t i = 0; i < count; ++i) {
      if (type == ncclFloat32) {
        float sum = 0;
        for (int r = 0; r < comm->ranks; ++r)
          sum += reinterpret_cast<const float *>(comm->slot(r))[i];
        static_cast<float *>(receive)[i] = sum;
      } else {
        int32_t sum = 0;
        for (int r = 0; r < comm->ranks; ++r)
          sum += reinterpret_cast<const int32_t *>(comm->slot(r))[i];
        static_cast<int32_t *>(receive)[i] = sum;
      }
    }
    // Every rank has read every slot before any is written again.
    if (!comm->barrier())
      std::abort();
  });
  return ncclSuccess;
}

} // extern "C"
