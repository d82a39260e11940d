//===- MetricsLog.cpp - a training run's JSON-lines metrics file -----------===//

#include "runtime/train/MetricsLog.h"
#include "support/AtomicFile.h"
#include "support/FileBytes.h"
#include "support/OutputPath.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <unistd.h>

namespace tc::rt {
namespace {

/// Keeps the lines of a metrics file up to step `last` and drops a line cut
/// short.
bool trimMetrics(const std::string &path, int64_t last, std::string &error) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    return true; // no file yet
  std::optional<std::string> text =
      support::readFileText(path, kMaxMetricsBytes, error);
  if (!text)
    return false;
  std::istringstream in(std::move(*text));
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

std::optional<support::OutputKind>
MetricsLog::check(const support::Output &output, bool resume,
                  std::string &error) {
  std::optional<support::OutputKind> kind =
      support::checkOutputPath(output, error);
  if (kind == support::OutputKind::Existing && !resume) {
    error = "--metrics " + output.path +
            " already holds the metrics of an earlier run; remove it, give "
            "another path, or pass --resume to continue that run (nothing "
            "was overwritten)";
    return std::nullopt;
  }
  return kind;
}

bool MetricsLog::open(const support::Output &output, bool resume,
                      int64_t resumedStep, std::string &error) {
  const std::string &path = output.path;
  if (path.empty())
    return true;
  path_ = path;
  std::optional<support::OutputKind> kind = check(output, resume, error);
  if (!kind)
    return false;
  // A stream (/dev/stdout, a pipe) is appended to as it is. A file is
  // trimmed by a whole write, which goes through a symbolic link
  // (support/AtomicFile.h): the link stays a link.
  stream_ = *kind == support::OutputKind::Stream;
  if (resume && *kind == support::OutputKind::Existing &&
      !trimMetrics(path, resumedStep, error))
    return false;
  // /dev/stdout and /dev/stderr are written through the process's own
  // descriptor: reopening them gives a file they name a second offset, and
  // tc-run's messages on the other would overwrite the metrics lines.
  int standard = path == "/dev/stdout"   ? STDOUT_FILENO
                 : path == "/dev/stderr" ? STDERR_FILENO
                                         : -1;
  if (standard >= 0) {
    int fd = ::dup(standard);
    file_ = fd >= 0 ? ::fdopen(fd, "a") : nullptr;
    if (fd >= 0 && !file_)
      ::close(fd);
  } else {
    file_ = std::fopen(path.c_str(), resume || stream_ ? "a" : "w");
  }
  if (!file_) {
    int why = errno;
    error = "cannot open the metrics file " + path + ": " + std::strerror(why);
    return false;
  }
  return true;
}

bool MetricsLog::write(const StepMetrics &m, std::string &error) {
  if (!file_)
    return true;
  // Flushed line by line, so that a full disk is noticed at the step it
  // happens, not at the end of the run.
  if (std::fprintf(file_,
                   "{\"step\": %lld, \"loss\": %.6f, \"learning_rate\": %.6e, "
                   "\"tokens\": %d, \"tokens_per_second\": %.1f, "
                   "\"elapsed_seconds\": %.3f}\n",
                   (long long)m.step, m.loss, m.learningRate, m.tokens,
                   m.tokensPerSecond, m.elapsedSeconds) < 0 ||
      std::fflush(file_) != 0)
    return failed(error);
  return true;
}

bool MetricsLog::writeValidation(int64_t step, const ValidationScores &scores,
                                 double elapsedSeconds, std::string &error) {
  if (!file_)
    return true;
  std::string translation;
  if (scores.bleu)
    translation = ", \"valid_bleu\": " + std::to_string(*scores.bleu) +
                  ", \"valid_chrf\": " + std::to_string(*scores.chrf) +
                  ", \"valid_translated\": " +
                  std::to_string(scores.translated);
  if (std::fprintf(file_,
                   "{\"step\": %lld, \"valid_loss\": %.6f, "
                   "\"valid_perplexity\": %.4f, \"valid_tokens\": %lld, "
                   "\"valid_sentences\": %lld%s, \"elapsed_seconds\": %.3f}\n",
                   (long long)step, scores.loss, scores.perplexity,
                   (long long)scores.tokens, (long long)scores.sentences,
                   translation.c_str(), elapsedSeconds) < 0 ||
      std::fflush(file_) != 0)
    return failed(error);
  return true;
}

bool MetricsLog::sync(std::string &error) {
  if (!file_)
    return true;
  if (std::fflush(file_) != 0)
    return failed(error);
  // A stream has nothing to sync; a file must reach the disk.
  if (!stream_ && ::fsync(fileno(file_)) != 0)
    return failed(error);
  return true;
}

bool MetricsLog::failed(std::string &error) {
  int why = errno;
  error = "cannot write the metrics file " + path_ + ": " + std::strerror(why) +
          "; the run stops here, without a checkpoint of the steps whose "
          "metrics were lost (--resume continues from the last checkpoint)";
  return false;
}

MetricsLog::~MetricsLog() {
  if (file_)
    std::fclose(file_);
}

} // namespace tc::rt
