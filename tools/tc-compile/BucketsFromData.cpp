//===- BucketsFromData.cpp - tc-compile --buckets-from ---------------------===//

#include "BucketsFromData.h"
#include "compiler/frontend/BucketChoice.h"
#include "runtime/format/TokenFile.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace tc {
namespace {

std::string describe(const std::vector<Bucket> &buckets) {
  std::string text;
  for (const Bucket &b : buckets)
    text += (text.empty() ? "" : ", ") + std::to_string(b.batch) + "x" +
            std::to_string(b.sourceLength) + "x" +
            std::to_string(b.targetLength);
  return text;
}

void report(const char *what, const std::vector<Bucket> &buckets,
            const Padding &padding) {
  llvm::errs() << "tc-compile: " << what << " " << buckets.size()
               << " buckets (" << describe(buckets) << "): padding share "
               << llvm::format("%.1f%%", 100 * padding.share());
  if (padding.leftOut > 0)
    llvm::errs() << ", " << padding.leftOut << " pairs fit none";
  llvm::errs() << "\n";
}

} // namespace

bool chooseBucketsFromData(ModelDescription &description,
                           const std::string &path, int64_t count,
                           std::string &error) {
  TrainingConfig &training = description.training;
  if (training.batchTokens == 0) {
    error = "--buckets-from needs training.batch_tokens in " +
            description.path +
            " (the tokens per batch and side that set each bucket's batch)";
    return false;
  }
  std::unique_ptr<rt::TokenTable> table = rt::TokenTable::open(path, error);
  if (!table)
    return false;
  // The positions each pair takes as the runtime batches it (read from the
  // index: the ids are not touched).
  std::map<std::pair<int64_t, int64_t>, int64_t> histogram;
  if (table->size() == 0) {
    error = path + ": the token file holds no pairs; give --buckets-from "
                   "the training data (tc-run prepare)";
    return false;
  }
  for (uint64_t i = 0; i < table->size(); ++i) {
    // Every source ends with EOS (tc-run train refuses one that does not);
    // an empty one would choose a bucket of no source positions.
    if (table->sourceLength(i) == 0) {
      error = path + ": pair " + std::to_string(i) +
              " has an empty source (a source ends with EOS); rebuild the "
              "file with tc-run prepare";
      return false;
    }
    contract::PairLengths lengths =
        contract::paddedLengths(int64_t(table->sourceLength(i)),
                                int64_t(table->targetLength(i)));
    ++histogram[{lengths.source, lengths.target}];
  }
  std::vector<PairCount> lengths;
  for (const auto &[key, n] : histogram)
    lengths.push_back({{key.first, key.second}, n});
  int64_t maxLength = description.model.maxLength;
  std::vector<Bucket> chosen =
      chooseBuckets(lengths, count > 0 ? count : int64_t(training.buckets.size()),
                    training.batchTokens, maxLength);
  if (chosen.empty()) {
    error = path + ": no pair fits model.max_length = " +
            std::to_string(maxLength);
    return false;
  }
  // (count is above 1 here: the description's own count, one bucket with
  // accumulation, passed its check.)
  if (training.accumulationSteps > 1 && chosen.size() > 1) {
    error = "--bucket-count=" + std::to_string(count) + ": " +
            accumulationOverBuckets(training.accumulationSteps,
                                    chosen.size()) +
            "; leave --bucket-count out (one bucket, the description's "
            "count) or set accumulation_steps = 1";
    return false;
  }
  for (const Bucket &bucket : chosen)
    if (!fitsTensorLimit(description.model, bucket)) {
      error = "the bucket chosen for lengths " +
              std::to_string(bucket.sourceLength) + "x" +
              std::to_string(bucket.targetLength) +
              " makes tensors of more than 2^40 elements; lower "
              "training.batch_tokens";
      return false;
    }
  // More buckets make more decoder shapes, each with its constants.
  ModelDescription chosenModel = description;
  chosenModel.training.buckets = chosen;
  if (std::string why, fix; !decoderConstantsFit(chosenModel, why, fix)) {
    error = "the " + std::to_string(chosen.size()) + " buckets chosen: " +
            why + "; " + fix;
    return false;
  }
  llvm::errs() << "tc-compile: " << path << ": " << table->size()
               << " pairs\n";
  report("the description's", training.buckets,
         measurePadding(lengths, training.buckets));
  report("chosen", chosen, measurePadding(lengths, chosen));
  training.buckets = std::move(chosen);
  return true;
}

std::string bucketsAsToml(const ModelDescription &description) {
  std::string text = "buckets = [";
  for (const Bucket &b : description.training.buckets)
    text += (text.size() > 11 ? ", " : "") +
            std::string("{ batch = ") + std::to_string(b.batch) +
            ", source_length = " + std::to_string(b.sourceLength) +
            ", target_length = " + std::to_string(b.targetLength) + " }";
  return text + "]";
}

} // namespace tc
