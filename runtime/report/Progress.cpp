//===- Progress.cpp - progress of training steps, or a counter --------------===//

#include "runtime/report/Progress.h"

#include <algorithm>
#include <string>
#include <unistd.h>

namespace tc::rt {
namespace {

std::string duration(double seconds) {
  long s = long(seconds + 0.5);
  char text[32];
  if (s >= 3600)
    std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60,
                  s % 60);
  else
    std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
  return text;
}

} // namespace

Progress::Progress(int64_t first, int64_t last, std::FILE *out,
                   double timeLimit)
    : first(first), last(last), out(out), timeLimit(timeLimit),
      terminal(isatty(fileno(out))),
      start(std::chrono::steady_clock::now()), lastPrint(start),
      lastPrintedStep(first) {}

Progress::Progress(Counter counter, int64_t total, std::FILE *out, bool show)
    : first(0), last(total), out(out), terminal(show && isatty(fileno(out))),
      counter(counter), start(std::chrono::steady_clock::now()),
      lastPrint(start) {}

double Progress::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

void Progress::update(int64_t step, double loss, double learningRate,
                      double tokensPerSecond) {
  auto now = std::chrono::steady_clock::now();
  double elapsed = std::chrono::duration<double>(now - start).count();
  double sinceLast = std::chrono::duration<double>(now - lastPrint).count();
  int64_t done = step - first, total = last - first;
  double eta = done > 0 ? elapsed / done * (total - done) : 0.0;
  if (timeLimit > 0)
    eta = std::min(eta, std::max(0.0, timeLimit - elapsed));
  int64_t every = std::max<int64_t>(total / 20, 1);
  if (!terminal && step != last && step - lastPrintedStep < every &&
      sinceLast < 10.0)
    return;
  if (terminal && step != last && sinceLast < 0.1)
    return; // at most ten redraws a second
  lastPrint = now;
  lastPrintedStep = step;
  char fields[160];
  std::snprintf(fields, sizeof fields,
                "%6lld/%lld  loss %.4f  lr %.2e  %.0f tok/s  %s %s",
                (long long)step, (long long)last, loss, learningRate,
                tokensPerSecond, step == last ? "took" : "ETA",
                duration(step == last ? elapsed : eta).c_str());
  if (terminal) {
    constexpr int kWidth = 20;
    int filled = total > 0 ? int(kWidth * done / total) : kWidth;
    std::string bar(filled, '#');
    bar.resize(kWidth, '.');
    std::fprintf(out, "\r[%s] %s\x1b[K", bar.c_str(), fields);
  } else {
    std::fprintf(out, "step %s\n", fields);
  }
  std::fflush(out);
}

void Progress::count(int64_t done, int64_t tokens) {
  double seconds = elapsed();
  if (!terminal || (done < last && seconds - lastCounted < 0.2))
    return;
  lastCounted = seconds;
  double eta = done > 0 ? seconds / done * double(last - done) : 0.0;
  std::fprintf(out, "\r%s %lld/%lld, %.1f %s/s, %.0f %s/s, %s %s\x1b[K",
               counter->label, (long long)done, (long long)last,
               done / std::max(seconds, 1e-9), counter->items,
               tokens / std::max(seconds, 1e-9), counter->tokens,
               done >= last ? "took" : "ETA",
               duration(done >= last ? seconds : eta).c_str());
  std::fflush(out);
}

void Progress::finish() {
  if (terminal)
    std::fprintf(out, "\n");
}

} // namespace tc::rt
