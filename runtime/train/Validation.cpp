//===- Validation.cpp - scoring a model on held-out pairs during training --===//

#include "runtime/train/Validation.h"
#include "runtime/data/DataSource.h"
#include "runtime/format/TokenFile.h"
#include "runtime/decode/PrefixDecoder.h"
#include "runtime/decode/Translator.h"
#include "runtime/score/ScoreFiles.h"

#include <algorithm>
#include <cmath>

namespace tc::rt {
namespace {

/// Negative log-likelihood of `target` under the logits `row` (V of them):
/// logsumexp(row) - row[target], in double.
double negativeLogLikelihood(const float *row, int64_t V, int32_t target) {
  float largest = *std::max_element(row, row + V);
  double sum = 0;
  for (int64_t v = 0; v < V; ++v)
    sum += std::exp(double(row[v]) - largest);
  return std::log(sum) + largest - row[target];
}

} // namespace

std::optional<ValidationMetric> parseValidationMetric(std::string_view name) {
  if (name == "bleu")
    return ValidationMetric::Bleu;
  if (name == "chrf")
    return ValidationMetric::Chrf;
  if (name == "loss")
    return ValidationMetric::Loss;
  return std::nullopt;
}

const char *validationMetricName(ValidationMetric metric) {
  switch (metric) {
  case ValidationMetric::Bleu:
    return "bleu";
  case ValidationMetric::Chrf:
    return "chrf";
  case ValidationMetric::Loss:
    return "loss";
  }
  return "";
}

std::optional<double> metricValue(ValidationMetric metric,
                                  const ValidationScores &scores) {
  switch (metric) {
  case ValidationMetric::Bleu:
    return scores.bleu;
  case ValidationMetric::Chrf:
    return scores.chrf;
  case ValidationMetric::Loss:
    return scores.loss;
  }
  return std::nullopt;
}

bool improves(ValidationMetric metric, double value, double best) {
  return metric == ValidationMetric::Loss ? value < best : value > best;
}

std::unique_ptr<Validation>
Validation::open(const Executable &executable, const std::string &tokenFile,
                 const std::string &trainingVocabulary, int64_t translate,
                 std::string &error) {
  std::optional<TokenData> data = readTokenFile(tokenFile, error);
  if (!data)
    return nullptr;
  if (data->vocabulary != trainingVocabulary) {
    if (trainingVocabulary.empty())
      error = tokenFile + " was prepared with a vocabulary, but the model's "
                          "data has none: a run on token ids or a synthetic "
                          "task has none (prepare with --ids), and a "
                          "checkpoint's is the vocabulary.model beside it "
                          "(copy the run's there)";
    else if (data->vocabulary.empty())
      error = tokenFile + " holds token ids (prepared with --ids), but the "
                          "model was trained on text; prepare it again with "
                          "--vocabulary TRAIN.tok";
    else
      error = tokenFile + " was prepared with another vocabulary than the "
                          "training data; prepare it again with --vocabulary "
                          "TRAIN.tok";
    return nullptr;
  }
  if (data->pairs.empty()) {
    error = tokenFile + " holds no pairs";
    return nullptr;
  }
  std::unique_ptr<Validation> validation(new Validation(executable));
  if (!data->vocabulary.empty()) {
    validation->subwords_ = SubwordVocabulary::fromSerialized(
        std::move(data->vocabulary), tokenFile, error);
    if (!validation->subwords_)
      return nullptr;
  }
  if (!checkPairs(data->pairs, vocabularyOf(executable.root()), tokenFile,
                  error))
    return nullptr;
  std::vector<BucketShape> buckets = bucketsOf(executable.root());
  if (std::none_of(data->pairs.begin(), data->pairs.end(),
                   [&](const SentencePair &pair) {
                     return bucketFor(buckets, {pair}).has_value();
                   })) {
    error = tokenFile + ": no pair fits a shape bucket of the model, so "
                        "there is no loss to validate";
    return nullptr;
  }
  validation->name_ = tokenFile;
  validation->pairs_ = std::move(data->pairs);
  validation->translate_ =
      translate > 0 ? std::min<int64_t>(translate, validation->pairs_.size())
                    : int64_t(validation->pairs_.size());
  return validation;
}

std::string Validation::describe() const {
  std::string text =
      name_ + " (" + std::to_string(pairs_.size()) + " pairs";
  if (subwords_)
    text += ", BLEU and chrF on " + std::to_string(translate_);
  return text + ")";
}

std::optional<ValidationScores> Validation::run(Device &device,
                                                std::string &error) {
  ValidationScores scores;
  std::vector<BucketShape> buckets = bucketsOf(executable_.root());
  Vocabulary vocab = vocabularyOf(executable_.root());
  // The loss: each pair in the smallest bucket it fits, a batch at a time.
  std::vector<std::vector<const SentencePair *>> members(buckets.size());
  for (const SentencePair &pair : pairs_) {
    std::optional<size_t> chosen =
        contract::smallestHolding(buckets, lengthsOf(pair));
    if (chosen)
      members[*chosen].push_back(&pair);
    else
      ++scores.leftOut;
  }
  double total = 0;
  for (size_t b = 0; b < buckets.size(); ++b) {
    const BucketShape &bucket = buckets[b];
    if (members[b].empty())
      continue;
    std::optional<PrefixDecoder> session =
        PrefixDecoder::open(executable_, device, bucket, error);
    if (!session)
      return std::nullopt;
    for (size_t first = 0; first < members[b].size(); first += bucket.batch) {
      std::vector<SentencePair> pairs;
      for (size_t i = first;
           i < std::min<size_t>(first + bucket.batch, members[b].size()); ++i)
        pairs.push_back(*members[b][i]);
      Batch batch;
      fillBatch(pairs, vocab, bucket.batch, bucket.sourceLength,
                bucket.targetLength, batch);
      std::vector<std::vector<int32_t>> sources;
      for (const SentencePair &pair : pairs)
        sources.push_back(pair.source);
      if (!session->encode(sources, error))
        return std::nullopt;
      const std::vector<float> *logits = session->step(batch.targetIn, error);
      if (!logits)
        return std::nullopt;
      for (int64_t i = 0; i < bucket.batch * bucket.targetLength; ++i)
        if (batch.targetOut[i] != vocab.pad) {
          total += negativeLogLikelihood(logits->data() + i * vocab.size,
                                         vocab.size, batch.targetOut[i]);
          ++scores.tokens;
        }
      scores.sentences += pairs.size();
    }
  }
  if (scores.tokens > 0) {
    scores.loss = total / scores.tokens;
    scores.perplexity = std::exp(scores.loss);
  }
  if (!subwords_)
    return scores;

  // BLEU and chrF of greedy translations, as a person reads them (greedy:
  // beam search would cost validation several times more).
  std::vector<std::vector<int32_t>> sources;
  for (int64_t i = 0; i < translate_; ++i)
    sources.push_back(pairs_[i].source);
  SearchOptions greedy;
  greedy.beam = 1;
  std::optional<Translations> translations =
      rt::translate(executable_, device, sources, greedy, error);
  if (!translations)
    return std::nullopt;
  std::vector<Segment> segments(sources.size());
  for (size_t i = 0; i < segments.size(); ++i) {
    segments[i].hypothesis = subwords_->decode(translations->best(i));
    segments[i].references = {subwords_->decode(pairs_[i].target)};
  }
  CorpusScores corpus = scoreSegments(segments);
  scores.bleu = corpus.bleu.score;
  scores.chrf = corpus.chrf.score;
  scores.translated = int64_t(segments.size());
  return scores;
}

} // namespace tc::rt
