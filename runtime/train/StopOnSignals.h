//===- StopOnSignals.h - SIGINT and SIGTERM end a run after its step -------===//

#ifndef TC_RUNTIME_TRAIN_STOPONSIGNALS_H
#define TC_RUNTIME_TRAIN_STOPONSIGNALS_H

namespace tc::rt {

/// While it lives, the first SIGINT or SIGTERM asks the run to stop after
/// the step in flight (stopRequested() says which); a second one, while that
/// step still runs, ends the process at once (the last checkpoint stays as
/// it was). A signal the process ignored stays ignored (a background job
/// keeps ignoring Ctrl-C).
class StopOnSignals {
public:
  StopOnSignals();
  ~StopOnSignals();
  StopOnSignals(const StopOnSignals &) = delete;
  StopOnSignals &operator=(const StopOnSignals &) = delete;

  /// The signal that asked to stop, or 0.
  int stopRequested() const;

private:
  void (*previous_[2])(int);
};

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_STOPONSIGNALS_H
