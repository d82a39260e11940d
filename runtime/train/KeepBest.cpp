//===- KeepBest.cpp - a validation during training, and what it decides ----===//

#include "runtime/train/KeepBest.h"
#include "support/AtomicFile.h"

#include <cmath>
#include <cstdio>

namespace tc::rt {
namespace {

/// "tc-run: step 500: validation loss 2.9 (perplexity 18.2), BLEU 12.3,
/// chrF 40.2 (best bleu 12.5 at step 400)".
void printScores(int64_t step, const ValidationScores &scores, bool better,
                 const BestValidation &best) {
  char line[256];
  int length = std::snprintf(line, sizeof line,
                             "tc-run: step %lld: validation loss %.4f "
                             "(perplexity %.2f)",
                             (long long)step, scores.loss, scores.perplexity);
  if (scores.bleu)
    length +=
        std::snprintf(line + length, sizeof line - length,
                      ", BLEU %.2f, chrF %.2f", *scores.bleu, *scores.chrf);
  if (better)
    std::snprintf(line + length, sizeof line - length, " (best)");
  else
    std::snprintf(line + length, sizeof line - length,
                  " (best %s %.4g at step %lld)", best.metric.c_str(),
                  best.best, (long long)best.step);
  std::fprintf(stderr, "%s\n", line);
}

} // namespace

bool validateAndKeepBest(Device &device, const TrainOptions &options, Run &run,
                         MetricsLog &metrics, CheckpointWriter &checkpoints,
                         double elapsedSeconds, bool &stop,
                         std::string &error) {
  if (!checkpoints.saveOnce(error))
    return false;
  std::optional<ValidationScores> scores = run.validation->run(device, error);
  if (!scores)
    return false;
  int64_t step = run.state.step;
  if (!metrics.writeValidation(step, *scores, elapsedSeconds, error))
    return false;
  const ValidationOptions &v = options.validation;
  std::optional<double> value = metricValue(run.metric, *scores);
  // A non-finite score (a diverged validation loss) is never the best: it
  // would freeze best.tcck, and validation.txt refuses it on --resume.
  bool better =
      value && std::isfinite(*value) &&
      (run.best.step == 0 || improves(run.metric, *value, run.best.best));
  if (better) {
    run.best.best = *value;
    run.best.step = step;
    run.best.since = 0;
  } else {
    ++run.best.since;
  }
  run.best.last = step;
  if (!options.quiet)
    printScores(step, *scores, better, run.best);
  if (!options.checkpointDir.empty()) {
    if (better &&
        !support::linkFileAtomically(
            run.checkpoint, bestCheckpointPath(options.checkpointDir), error))
      return false;
    if (!writeBestValidation(options.checkpointDir, run.best, error))
      return false;
  }
  stop = v.patience > 0 && run.best.since >= v.patience;
  return true;
}

} // namespace tc::rt
