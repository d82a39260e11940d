//===- Validation.h - scoring a model on held-out pairs during training ----===//
//
// Every --valid-every steps the trainer scores the parameters on a
// validation token file, without dropout and without label smoothing:
//
// - loss: the mean negative log-likelihood per target token (EOS included)
//   of the reference, from the decoder's logits on the reference prefix
//   (teacher forcing); perplexity is its exponential;
// - BLEU and chrF (sacreBLEU's, runtime/score/) of greedy translations of
//   the first --valid-sentences sources, detokenised, against the
//   references detokenised by the same vocabulary.
//
// Pairs longer than every bucket are left out of the loss (and counted).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_TRAIN_VALIDATION_H
#define TC_RUNTIME_TRAIN_VALIDATION_H

#include "runtime/Device.h"
#include "runtime/data/Buckets.h"
#include "runtime/data/SubwordVocabulary.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tc::rt {

struct ValidationScores {
  double loss = 0, perplexity = 0;
  int64_t tokens = 0;        ///< target tokens of the loss
  int64_t sentences = 0;     ///< pairs in the loss
  int64_t leftOut = 0;       ///< pairs no bucket fits
  std::optional<double> bleu, chrf; ///< none without a vocabulary
  int64_t translated = 0;    ///< sentences of BLEU and chrF
};

/// Which validation score decides the best checkpoint and early stopping.
enum class ValidationMetric { Bleu, Chrf, Loss };
std::optional<ValidationMetric> parseValidationMetric(std::string_view name);
const char *validationMetricName(ValidationMetric metric);
/// The metric's value in `scores` (none: BLEU or chrF without them).
std::optional<double> metricValue(ValidationMetric metric,
                                  const ValidationScores &scores);
/// Whether `value` is better than `best` for `metric`.
bool improves(ValidationMetric metric, double value, double best);

class Validation {
public:
  /// The validation set in `tokenFile`, whose vocabulary must be
  /// `trainingVocabulary` (the serialised model of the training data; both
  /// empty: no BLEU or chrF); `translate` sources are decoded for BLEU
  /// (0: all).
  static std::unique_ptr<Validation>
  open(const Executable &executable, const std::string &tokenFile,
       const std::string &trainingVocabulary, int64_t translate,
       std::string &error);

  /// Scores the parameters on `device`.
  std::optional<ValidationScores> run(Device &device, std::string &error);

  /// "valid.tok (512 pairs, BLEU on 200)".
  std::string describe() const;

private:
  Validation(const Executable &executable) : executable_(executable) {}

  const Executable &executable_;
  std::string name_;
  std::vector<SentencePair> pairs_;
  std::unique_ptr<SubwordVocabulary> subwords_;
  int64_t translate_ = 0;
};

} // namespace tc::rt

#endif // TC_RUNTIME_TRAIN_VALIDATION_H
