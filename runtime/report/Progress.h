//===- Progress.h - the training progress bar ------------------------------===//
//
// On a terminal, one line redrawn in place:
//   [#########...........]  450/1000  loss 0.8123  lr 2.1e-03  8,400 tok/s  ETA
//   0:41
// Elsewhere (a pipe, a log file), the same fields as plain lines, about
// twenty per run and at least one every ten seconds.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_PROGRESS_H
#define TC_RUNTIME_PROGRESS_H

#include <chrono>
#include <cstdint>
#include <cstdio>

namespace tc::rt {

class Progress {
public:
  /// Steps `first` (exclusive) to `last` (inclusive), drawn on `out`; a run
  /// with a time limit (seconds; 0: none) ends by then at the latest.
  Progress(int64_t first, int64_t last, std::FILE *out,
           double timeLimit = 0);
  void update(int64_t step, double loss, double learningRate,
              double tokensPerSecond);
  /// Ends the line on a terminal.
  void finish();

private:
  int64_t first, last;
  std::FILE *out;
  double timeLimit;
  bool terminal;
  std::chrono::steady_clock::time_point start, lastPrint;
  int64_t lastPrintedStep = 0;
};

} // namespace tc::rt

#endif // TC_RUNTIME_PROGRESS_H
