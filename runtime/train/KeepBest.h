//===- KeepBest.h - a validation during training, and what it decides ------===//
//
// Rank 0 scores the parameters on the validation set (Validation.h), after
// saving the state of this step; logs the scores to the metrics file and
// stderr; keeps best.tcck, a link to the checkpoint whose score (--keep-best:
// BLEU, chrF or loss) is the best so far, and validation.txt, where the
// best stands, which a resumed run reads back; and stops the run early after
// --early-stop validations in a row without a better score.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_TRAIN_KEEPBEST_H
#define TC_RUNTIME_TRAIN_KEEPBEST_H

#include "runtime/train/CheckpointWriter.h"

#include <string>

namespace tc::rt {

/// Validates the run at its step (`elapsedSeconds` into it) and keeps the
/// best checkpoint; sets `stop` when the patience ran out; false with
/// `error` when a checkpoint, the scores or the records cannot be written.
bool validateAndKeepBest(Device &device, const TrainOptions &options, Run &run,
                         MetricsLog &metrics, CheckpointWriter &checkpoints,
                         double elapsedSeconds, bool &stop, std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_KEEPBEST_H
