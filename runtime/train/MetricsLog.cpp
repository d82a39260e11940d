//===- MetricsLog.cpp - a training run's JSON-lines metrics file -----------===//

#include "runtime/train/MetricsLog.h"
#include "support/AtomicFile.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <unistd.h>

namespace tc::rt {
namespace {

/// Keeps the lines of a metrics file up to step `last` and drops a line cut
/// short.
bool trimMetrics(const std::string &path, int64_t last, std::string &error) {
  std::ifstream in(path);
  if (!in)
    return true; // no file yet
  std::string kept, line;
  while (std::getline(in, line)) {
    long long step = 0;
    bool complete = !line.empty() && line.back() == '}' &&
                    std::sscanf(line.c_str(), "{\"step\": %lld", &step) == 1;
    if (complete && step <= last)
      kept += line + "\n";
  }
  if (!support::writeFileAtomically(path, kept.data(), kept.size(), error)) {
    error = "cannot rewrite the metrics file: " + error;
    return false;
  }
  return true;
}

} // namespace

bool MetricsLog::open(const std::string &path, bool resume, int64_t resumedStep,
                      std::string &error) {
  if (path.empty())
    return true;
  if (resume && !trimMetrics(path, resumedStep, error))
    return false;
  file_ = std::fopen(path.c_str(), resume ? "a" : "w");
  if (!file_) {
    error =
        "cannot open the metrics file " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

void MetricsLog::write(const StepMetrics &m) {
  if (file_)
    std::fprintf(file_,
                 "{\"step\": %lld, \"loss\": %.6f, \"learning_rate\": %.6e, "
                 "\"tokens\": %d, \"tokens_per_second\": %.1f, "
                 "\"elapsed_seconds\": %.3f}\n",
                 (long long)m.step, m.loss, m.learningRate, m.tokens,
                 m.tokensPerSecond, m.elapsedSeconds);
}

void MetricsLog::sync() {
  if (file_) {
    std::fflush(file_);
    ::fsync(fileno(file_));
  }
}

MetricsLog::~MetricsLog() {
  if (file_)
    std::fclose(file_);
}

} // namespace tc::rt
