//===- Progress.h - progress of training steps, or a counter ----------------===//
//
// Steps (training), on a terminal one line redrawn in place:
//   [#########...........]  450/1000  loss 0.8123  lr 2.1e-03  8,400 tok/s  ETA
//   0:41
// Elsewhere (a pipe, a log file), the same fields as plain lines, about
// twenty per run and at least one every ten seconds.
//
// A counter (translation, prepare), on a terminal only, one line redrawn
// in place:
//   tc-run: translated 40/100, 12.5 sentences/s, 310 target tokens/s, ETA
//   0:05
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_PROGRESS_H
#define TC_RUNTIME_PROGRESS_H

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>

namespace tc::rt {

class Progress {
public:
  /// The words of a counter's line: "LABEL N/M, X ITEMS/s, Y TOKENS/s".
  struct Counter {
    const char *label;  ///< "tc-run: translated"
    const char *items;  ///< "sentences"
    const char *tokens; ///< "target tokens"
  };

  /// Steps `first` (exclusive) to `last` (inclusive), drawn on `out`; a run
  /// with a time limit (seconds; 0: none) ends by then at the latest.
  Progress(int64_t first, int64_t last, std::FILE *out,
           double timeLimit = 0);
  /// A counter of `total` items, drawn on `out` when it is a terminal and
  /// `show` holds: at most five redraws a second, and the last.
  Progress(Counter counter, int64_t total, std::FILE *out, bool show);

  /// Steps: step `step` is done.
  void update(int64_t step, double loss, double learningRate,
              double tokensPerSecond);
  /// A counter: `done` items are, with `tokens` tokens.
  void count(int64_t done, int64_t tokens);
  /// Ends the line on a terminal.
  void finish();
  /// Seconds since the start.
  double elapsed() const;

private:
  int64_t first, last;
  std::FILE *out;
  double timeLimit = 0;
  bool terminal;
  std::optional<Counter> counter;
  std::chrono::steady_clock::time_point start, lastPrint;
  int64_t lastPrintedStep = 0;
  double lastCounted = -1; ///< when the counter was last drawn
};

} // namespace tc::rt

#endif // TC_RUNTIME_PROGRESS_H
