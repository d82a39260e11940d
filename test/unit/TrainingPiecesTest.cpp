//===- TrainingPiecesTest.cpp - pieces of the training loop ----------------===//
//
// Batch::append lays micro-batches one after another as the training step's
// hand-written concatenation did; StepSchedule decides checkpoints,
// validations, rank checks and the time limit as the loop did.
//
//===----------------------------------------------------------------------===//

#include "runtime/data/Batch.h"
#include "runtime/train/StepSchedule.h"

#include <gtest/gtest.h>

using namespace tc::rt;

namespace {

Batch filled(const std::vector<SentencePair> &pairs) {
  Batch batch;
  Vocabulary vocab{16, 0, 1, 2};
  EXPECT_TRUE(fillBatch(pairs, vocab, 3, 4, 5, batch));
  return batch;
}

TEST(BatchAppend, EqualsTheConcatenationOfItsParts) {
  std::vector<Batch> parts = {filled({{{3, 4}, {5}}, {{6, 7, 8, 9}, {10, 11}}}),
                              filled({{{12}, {13, 14, 15, 3}}})};
  Batch appended;
  for (const Batch &part : parts)
    appended.append(part);
  // What the training step wrote by hand before Batch::append.
  Batch expected;
  for (const Batch &part : parts) {
    expected.source.insert(expected.source.end(), part.source.begin(),
                           part.source.end());
    expected.targetIn.insert(expected.targetIn.end(), part.targetIn.begin(),
                             part.targetIn.end());
    expected.targetOut.insert(expected.targetOut.end(), part.targetOut.begin(),
                              part.targetOut.end());
    expected.tokens += part.tokens;
    expected.rows += part.rows;
    expected.sourceLength = part.sourceLength;
    expected.targetLength = part.targetLength;
  }
  EXPECT_EQ(appended.source, expected.source);
  EXPECT_EQ(appended.targetIn, expected.targetIn);
  EXPECT_EQ(appended.targetOut, expected.targetOut);
  EXPECT_EQ(appended.tokens, expected.tokens);
  EXPECT_EQ(appended.rows, 6);
  EXPECT_EQ(appended.sourceLength, 4);
  EXPECT_EQ(appended.targetLength, 5);
  EXPECT_EQ(appended.source.size(), size_t(6 * 4));
  EXPECT_EQ(appended.tokens, (2 + 1 + 1) + (4 + 2 + 1) + (1 + 4 + 1));
}

TrainOptions scheduled(int64_t steps, int64_t checkpointEvery,
                       int64_t validateEvery, bool validation) {
  TrainOptions options;
  options.steps = steps;
  options.checkpointEvery = checkpointEvery;
  options.validation.every = validateEvery;
  if (validation)
    options.validation.tokenFile = "valid.tok";
  return options;
}

TEST(StepSchedule, CheckpointsAndValidatesOnScheduleBeforeTheLastStep) {
  StepSchedule schedule(scheduled(12, 3, 4, true));
  std::string due;
  for (int64_t step = 1; step <= 12; ++step) {
    StepSchedule::Work work = schedule.after(step);
    EXPECT_EQ(work.any(), work.checkpoint || work.validate);
    due += std::string(work.checkpoint ? "c" : "") +
           (work.validate ? "v" : "") + (work.any() ? "" : "-");
  }
  // Steps 1 to 12: checkpoints at 3, 6, 9, validations at 4, 8; none after
  // 12, the last, whose checkpoint and validation are the end of the run's.
  EXPECT_EQ(due, "--cv-c-vc---");
  EXPECT_TRUE(schedule.validates(12));
  EXPECT_FALSE(schedule.validates(6));
}

TEST(StepSchedule, ValidatesOnlyWithAValidationSet) {
  StepSchedule schedule(scheduled(10, 0, 2, false));
  for (int64_t step = 1; step <= 10; ++step) {
    EXPECT_FALSE(schedule.after(step).any()) << step;
    EXPECT_FALSE(schedule.validates(step)) << step;
  }
  EXPECT_NE(schedule.fingerprint(),
            StepSchedule(scheduled(10, 0, 2, true)).fingerprint());
}

TEST(StepSchedule, ChecksRanksAndTheTimeLimit) {
  TrainOptions options = scheduled(300, 0, 0, false);
  options.checkRanksEvery = 100;
  options.maxSeconds = 60;
  StepSchedule schedule(options);
  EXPECT_TRUE(schedule.checksRanks(200));
  EXPECT_FALSE(schedule.checksRanks(150));
  EXPECT_FALSE(schedule.outOfTime(10, 59.9));
  EXPECT_TRUE(schedule.outOfTime(10, 60));
  EXPECT_FALSE(schedule.outOfTime(300, 61)); // the last step ends it anyway
  options.maxSeconds = 0;
  EXPECT_FALSE(StepSchedule(options).outOfTime(10, 1e9));
  options.checkRanksEvery = 0;
  EXPECT_FALSE(StepSchedule(options).checksRanks(100));
}

TEST(StepSchedule, FingerprintIsThatOfTheOptionsTheRanksShare) {
  TrainOptions options = scheduled(10, 5, 5, true);
  int64_t fingerprint = StepSchedule(options).fingerprint();
  options.steps = 20; // checked apart (StartFingerprint::steps)
  EXPECT_EQ(StepSchedule(options).fingerprint(), fingerprint);
  options.checkpointEvery = 4;
  EXPECT_NE(StepSchedule(options).fingerprint(), fingerprint);
}

} // namespace
