//===- DataParallel.cpp - what the ranks of a training job agree on --------===//

#include "runtime/train/DataParallel.h"
#include "runtime/format/Contract.h"
#include "runtime/format/TcxFile.h"

namespace tc::rt {

uint64_t Shard::seed(uint64_t runSeed) const {
  // Wraps modulo 2^64; Philox keys with the low 32 bits, which are those of
  // seed + j * stride for j = rank * accumulation.
  return runSeed + uint64_t(rank * accumulation) *
                       uint64_t(contract::kMicroBatchSeedStride);
}

int64_t accumulationStepsOf(const tcx::Executable &executable) {
  const tcx::RunConfig *run = executable.run();
  return run ? std::max<int64_t>(run->accumulation_steps(), 1) : 1;
}

Shard shardOf(const Communicator &ranks, const tcx::Executable &executable) {
  Shard shard;
  shard.rank = ranks.rank();
  shard.ranks = ranks.size();
  shard.accumulation = accumulationStepsOf(executable);
  return shard;
}

bool allStarted(Communicator &ranks, bool ok, std::string &error) {
  int64_t failed = ok ? 0 : 1;
  ranks.sum(&failed, 1, /*timeoutSeconds=*/0);
  if (failed == 0)
    return true;
  if (ok)
    error = std::to_string(failed) + " of the " +
            std::to_string(ranks.size()) +
            " ranks could not start (their messages say why)";
  return false;
}

void shareState(Communicator &ranks, int64_t paramBytes,
                TrainingState &state) {
  if (ranks.size() == 1)
    return;
  // A fresh run has no moments yet (the devices' are zero).
  int64_t header[5] = {state.step, int64_t(state.seed),
                       int64_t(state.dataPosition),
                       int64_t(state.dataFingerprint),
                       state.firstMoments.empty() ? 0 : 1};
  ranks.broadcast(header, sizeof header, 0);
  state.step = header[0];
  state.seed = uint64_t(header[1]);
  state.dataPosition = uint64_t(header[2]);
  state.dataFingerprint = uint64_t(header[3]);
  state.params.resize(paramBytes);
  ranks.broadcast(state.params.data(), paramBytes, 0);
  if (header[4]) {
    for (std::vector<uint8_t> *moments :
         {&state.firstMoments, &state.secondMoments}) {
      moments->resize(paramBytes);
      ranks.broadcast(moments->data(), paramBytes, 0);
    }
  }
}

bool sameStart(Communicator &ranks, const StartFingerprint &mine,
               std::string &error) {
  if (ranks.size() == 1)
    return true;
  StartFingerprint lead = mine;
  ranks.broadcast(&lead, sizeof lead, 0);
  std::string differs;
  auto check = [&](bool same, const char *what) {
    if (!same)
      differs += (differs.empty() ? "" : ", ") + std::string(what);
  };
  check(mine.executable == lead.executable, "another executable");
  check(mine.data == lead.data, "other data");
  check(mine.seed == lead.seed, "another --seed");
  check(mine.steps == lead.steps, "another --steps");
  check(mine.resume == lead.resume, "--resume on one rank only");
  check(mine.schedule == lead.schedule,
        "another --checkpoint-every, --valid-every, --check-ranks-every or "
        "--time-limit");
  int64_t mismatched = differs.empty() ? 0 : 1;
  ranks.sum(&mismatched, 1, 0);
  if (mismatched == 0)
    return true;
  error = differs.empty()
              ? std::to_string(mismatched) +
                    " rank(s) were started differently from rank 0 (their "
                    "messages say how); every rank must run the same "
                    "command"
              : "started with " + differs +
                    " than rank 0; every rank must run the same command "
                    "with the same files";
  return false;
}

void exchangeReports(Communicator &ranks, StepReport &report,
                     double timeoutSeconds) {
  static_assert(sizeof(StepReport) == 4 * sizeof(int64_t));
  ranks.sum(&report.tokens, 4, timeoutSeconds);
}

bool sameParameters(Communicator &ranks, Device &device, int64_t paramBytes,
                    int64_t step, double timeoutSeconds, std::string &error) {
  if (ranks.size() == 1)
    return true;
  std::vector<uint8_t> params(paramBytes);
  device.read(tcx::Space::Params, 0, params.data(), paramBytes);
  uint64_t mine = tcx::checksum(params.data(), params.size());
  uint64_t lead = mine;
  ranks.broadcast(&lead, sizeof lead, timeoutSeconds);
  int64_t differing = mine == lead ? 0 : 1;
  ranks.sum(&differing, 1, timeoutSeconds);
  if (differing == 0)
    return true;
  error = "after step " + std::to_string(step) + ", " +
          std::to_string(differing) +
          " rank(s) hold other parameters than rank 0" +
          (mine == lead ? std::string()
                        : " (this one: checksum " + std::to_string(mine) +
                              ", rank 0's " + std::to_string(lead) + ")") +
          ": the ranks diverged (a sum that differs between ranks, or a "
          "fault); stopping without a checkpoint (the last one is kept)";
  return false;
}

Verdict shareVerdict(Communicator &ranks, Verdict verdict) {
  int64_t value = int64_t(verdict);
  ranks.broadcast(&value, sizeof value, 0);
  return Verdict(value);
}

Verdict leadAlone(Communicator &ranks, std::string &error,
                  const std::function<bool(bool &stop)> &work) {
  bool lead = ranks.rank() == 0;
  Verdict verdict = Verdict::Continue;
  if (lead) {
    bool stop = false;
    verdict = !work(stop) ? Verdict::Failed
              : stop      ? Verdict::StopEarly
                          : Verdict::Continue;
  }
  verdict = shareVerdict(ranks, verdict);
  if (verdict == Verdict::Failed && !lead)
    error = "rank 0 failed (its message says why)";
  return verdict;
}

} // namespace tc::rt
