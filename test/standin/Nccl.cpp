//===- Nccl.cpp - a stand-in for NCCL (libnccl) -----------------------------===//
//
// NCCL's calls of tc's CUDA plug-in for a job of one rank (the plug-in
// makes a communicator only for more than one, so these are reached by
// calls of their own: test/unit/StandinTest.cpp): the sum of one rank is a
// copy on the stream. More ranks are refused.
//
//===----------------------------------------------------------------------===//

#include "Standin.h"

#include <nccl.h>

#include <cstring>

struct ncclComm {
  int ranks = 1;
};

extern "C" {

ncclResult_t ncclGetUniqueId(ncclUniqueId *id) {
  if (standin::countCall("ncclGetUniqueId") != standin::Fault::None)
    return ncclSystemError;
  std::memset(id, 0, sizeof *id);
  return ncclSuccess;
}

ncclResult_t ncclCommInitRank(ncclComm_t *comm, int ranks, ncclUniqueId,
                              int rank) {
  if (standin::countCall("ncclCommInitRank") != standin::Fault::None)
    return ncclSystemError;
  if (ranks != 1 || rank != 0)
    return ncclInvalidUsage; // one process has no other ranks to reach
  *comm = new ncclComm;
  return ncclSuccess;
}

ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  if (standin::countCall("ncclCommDestroy") != standin::Fault::None)
    return ncclSystemError;
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
  case ncclInvalidUsage:
    return "invalid usage";
  default:
    return "unknown result";
  }
}

ncclResult_t ncclAllReduce(const void *send, void *receive, size_t count,
                           ncclDataType_t type, ncclRedOp_t op, ncclComm_t,
                           cudaStream_t stream) {
  if (standin::countCall("ncclAllReduce") != standin::Fault::None)
    return ncclUnhandledCudaError;
  if ((type != ncclFloat32 && type != ncclInt32) || op != ncclSum)
    return ncclInvalidArgument;
  size_t bytes = count * 4;
  if (!standin::isDeviceRange(send, bytes) ||
      !standin::isDeviceRange(receive, bytes))
    return ncclInvalidArgument;
  if (send != receive)
    standin::enqueue(stream, [=] { std::memmove(receive, send, bytes); });
  return ncclSuccess;
}

} // extern "C"
