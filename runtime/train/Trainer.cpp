//===- Trainer.cpp - the training loop of tc-run ----------------------------===//
//
// train() is a loop over the pieces of a run: its set-up (RunSetup.h), a
// training step (TrainingStep.h), the step's report summed over the ranks
// (DataParallel.h) and logged (StepLog.h), and the work that the schedule
// (StepSchedule.h) gives rank 0 after it: a checkpoint (CheckpointWriter.h),
// a validation (KeepBest.h).
//
//===----------------------------------------------------------------------===//

#include "runtime/train/Trainer.h"
#include "runtime/train/CheckpointWriter.h"
#include "runtime/train/DataParallel.h"
#include "runtime/train/KeepBest.h"
#include "runtime/train/MetricsLog.h"
#include "runtime/train/RunSetup.h"
#include "runtime/train/StepLog.h"
#include "runtime/train/StepSchedule.h"
#include "runtime/train/StopOnSignals.h"
#include "runtime/train/TrainingStep.h"

#include <csignal>

namespace tc::rt {

support::Output runOutput(const TrainOptions &options, const std::string &flag,
                          const std::string &path, std::string_view magic) {
  return {flag,
          path,
          flag == "--profile" ? "the profile" : "the metrics",
          magic,
          {{options.executablePath, "the executable"},
           {options.data.tokenFile, "the training data"},
           {options.validation.tokenFile, "the validation data"},
           {options.initialParameters, "the initial parameters"}},
          options.checkpointDir};
}

namespace {

/// Opens rank 0's metrics file (the other ranks' log writes nothing).
bool openMetrics(Communicator &ranks, const TrainOptions &options,
                 int64_t resumedStep, MetricsLog &metrics, std::string &error) {
  support::Output output =
      runOutput(options, "--metrics", options.metricsPath, kMetricsMagic);
  return allStarted(ranks,
                    ranks.rank() != 0 || metrics.open(output, options.resume,
                                                      resumedStep, error),
                    error);
}

/// Whether the job's report after a step ends the run: a signal that one of
/// the ranks received (the run stops), or rank 0 past the time limit.
bool endsRun(const StepReport &report, const StopOnSignals &signals,
             TrainResult &result) {
  if (report.stopping > 0) {
    result.kind = TrainResult::Stopped;
    int own = signals.stopRequested();
    result.signal = own ? own : SIGTERM; // another rank's signal
    return true;
  }
  if (report.outOfTime > 0)
    result.endedEarly = "the time limit";
  return report.outOfTime > 0;
}

} // namespace

TrainResult train(const Executable &executable, Device &device,
                  Communicator &ranks, const TrainOptions &options,
                  std::string &error) {
  const tcx::Executable &x = executable.root();
  TrainResult result{TrainResult::Failed};
  Run run;
  MetricsLog metrics;
  if (!setUpRun(executable, device, ranks, options, run, error)) {
    result.kind = TrainResult::Refused;
    return result;
  }
  if (!openMetrics(ranks, options, run.state.step, metrics, error))
    return result;
  CheckpointWriter checkpoints(x, device, run, metrics, options);
  StepSchedule schedule(options);
  Shard shard = shardOf(ranks, x);
  StopOnSignals signals;
  StepLog log(metrics, options, run.state.step);
  auto validate = [&](bool &stop) {
    return log.untimed([&](double elapsedSeconds) {
      return validateAndKeepBest(device, options, run, metrics, checkpoints,
                                 elapsedSeconds, stop, error);
    });
  };
  // A resumed run first validates its step when a signal stopped it before.
  Verdict verdict = leadAlone(ranks, error, [&](bool &stop) {
    return !run.validationPending || validate(stop);
  });
  if (verdict == Verdict::Failed)
    return result;
  result.kind = TrainResult::Finished;
  while (verdict == Verdict::Continue && run.state.step < options.steps) {
    int64_t step = run.state.step + 1;
    StepOutputs out;
    if (!runStep(executable, device, run, shard, step, out, error) ||
        !checkFiniteLoss(out, step, error)) {
      verdict = Verdict::Failed;
      break;
    }
    run.state.step = step;
    run.state.dataPosition += shard.perUpdate();
    double seconds = log.elapsed();
    StepReport report{
        out.batchTokens, out.batchSlots, signals.stopRequested() ? 1 : 0,
        ranks.rank() == 0 && schedule.outOfTime(step, seconds) ? 1 : 0};
    exchangeReports(ranks, report, options.collectiveTimeout);
    if (!log.write(step, out, report, seconds, error) ||
        (schedule.checksRanks(step) &&
         !sameParameters(ranks, device, x.param_bytes(), step,
                         options.collectiveTimeout, error))) {
      verdict = Verdict::Failed;
      break;
    }
    if (endsRun(report, signals, result))
      break;
    StepSchedule::Work due = schedule.after(step);
    if (due.any())
      verdict = leadAlone(ranks, error, [&](bool &stop) {
        return (!due.checkpoint || checkpoints.save(error)) &&
               (!due.validate || validate(stop));
      });
  }
  log.finish();
  result.step = run.state.step;
  if (verdict == Verdict::StopEarly)
    result.endedEarly = "early stopping";
  // The end of a run (not a signal's stop, nor early stopping) is validated.
  bool validated = run.validation && result.kind == TrainResult::Finished &&
                   verdict == Verdict::Continue;
  if (verdict != Verdict::Failed)
    verdict = leadAlone(ranks, error, [&](bool &stop) {
      return (!validated || validate(stop)) && checkpoints.saveOnce(error);
    });
  if (verdict == Verdict::Failed) {
    result.kind = TrainResult::Failed;
    return result;
  }
  log.printPaddingShare();
  return result;
}

} // namespace tc::rt
