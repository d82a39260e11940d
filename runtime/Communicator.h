//===- Communicator.h - the ranks of a data-parallel job -------------------===//
//
// What a device and the training loop need from the other processes of a
// job started by `mpirun -np K tc-run train ...`: sums over all ranks
// (started asynchronously by a step's plan.allreduce, ended by plan.wait)
// and a few blocking exchanges of the host (the same start, the step's
// token counts and stop requests, a parameter checksum).
//
// The interface, which devices and the training loop use; the communicators
// are runtime/collective/ (Ranks.h). A plain `tc-run train` is one rank,
// and its communicator does nothing. Under mpirun, the MPI communicator
// (collective/MpiCommunicator.cpp) is a plug-in, lib/tc-mpi-collective.so,
// loaded only then: tc-run links no MPI library and runs single-process
// training on a machine without MPI.
//
// Failure is fail-stop, as NCCL's watchdog in PyTorch: a rank that fails
// ends its process (abort), as does one whose collective does not finish
// within the timeout (a rank died or hangs); mpirun then ends the others. A
// checkpoint is written by renaming a complete file, so the last one stays
// loadable.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_COMMUNICATOR_H
#define TC_RUNTIME_COMMUNICATOR_H

#include <cstdint>
#include <string>

namespace tc::rt {

/// The element types a sum over ranks takes.
enum class ReduceElement { F32, I32, I64 };

class Communicator {
public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// "MPI (Open MPI v4.1.4), rank 1 of 2", for messages.
  virtual std::string describe() const = 0;

  /// Starts summing `count` elements at `data` over all ranks, in place.
  /// The bytes must stay untouched until wait() returns. Every rank starts
  /// the same sums in the same order.
  virtual void startAllReduce(void *data, int64_t count,
                              ReduceElement type) = 0;
  /// Returns when every sum started is done; ends the process when one
  /// takes longer than `timeoutSeconds` (0: waits for ever).
  virtual void wait(double timeoutSeconds) = 0;
  /// Copies `bytes` at `data` of rank 0 to every rank, and waits.
  virtual void broadcast(void *data, int64_t bytes, double timeoutSeconds) = 0;

  /// Ends this process with exit status `code` at once, without the
  /// orderly goodbye of MPI_Finalize (which waits for every rank, and so
  /// would hang when the others are still training): mpirun sees the status
  /// and ends the other ranks. One rank: returns (the caller goes on to
  /// return `code`).
  virtual void abort(int code) = 0;

  /// Sums `count` int64 values over the ranks, in place, and waits.
  void sum(int64_t *values, int64_t count, double timeoutSeconds) {
    startAllReduce(values, count, ReduceElement::I64);
    wait(timeoutSeconds);
  }
};

} // namespace tc::rt

#endif // TC_RUNTIME_COMMUNICATOR_H
