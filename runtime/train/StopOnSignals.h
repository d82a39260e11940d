//===- StopOnSignals.h - SIGINT and SIGTERM end a run after its step -------===//
//
// A signal handler runs on whichever thread the kernel picks, on that
// thread's stack: it pushes a signal frame below the thread's stack pointer.
// Compute code may not keep its stack pointer on a stack: oneDNN 2.6's JIT
// sgemm kernels (AVX2 and AVX-512) point rsp into a heap buffer while they
// run (oneDNN issue 4845, fixed in 3.12), so a SIGTERM that landed there wrote
// its frame over heap chunks and the run crashed in free(). So SIGINT and
// SIGTERM are blocked in every thread tc-run starts and taken by one thread
// of their own with sigwait(), as servers do; a stop is a flag the step loop
// reads.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_TRAIN_STOPONSIGNALS_H
#define TC_RUNTIME_TRAIN_STOPONSIGNALS_H

namespace tc::rt {

/// Blocks SIGINT and SIGTERM and starts the thread that receives them. Call
/// it first in main(), before any other thread exists: threads inherit the
/// mask, so none of them (OpenMP's, oneDNN's, MPI's) is ever interrupted.
/// Threads that libraries started before main() (OpenBLAS's) cannot be
/// reached: a signal the kernel gives one of them is passed on to the signal
/// thread by a handler that does only that.
/// While no StopOnSignals lives, a signal ends the process as its default
/// action would (killed by that signal); a signal the process was started
/// ignoring stays ignored (a background job keeps ignoring Ctrl-C). Calls
/// after the first do nothing.
void receiveStopSignalsOnOwnThread();

/// While it lives, the first SIGINT or SIGTERM asks the run to stop after
/// the step in flight (stopRequested() says which); a second one, before
/// the run has ended (its stop checkpoint written), ends the process at once
/// (the last checkpoint stays as it was). Needs receiveStopSignalsOnOwnThread() first; without it the
/// signals keep their default action.
class StopOnSignals {
public:
  StopOnSignals();
  ~StopOnSignals();
  StopOnSignals(const StopOnSignals &) = delete;
  StopOnSignals &operator=(const StopOnSignals &) = delete;

  /// The signal that asked to stop, or 0.
  int stopRequested() const;
};

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_STOPONSIGNALS_H
