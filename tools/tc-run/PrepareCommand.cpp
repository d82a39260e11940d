//===- PrepareCommand.cpp - tc-run prepare --------------------------------===//
//
// Raw parallel text -> a token file: the joint subword vocabulary of the
// model's size is trained on both sides (or given), and travels inside the
// token file with the pairs it made.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "runtime/data/Buckets.h"
#include "runtime/data/LineLimit.h"
#include "runtime/data/ParallelText.h"
#include "runtime/format/TokenFile.h"
#include "support/FileBytes.h"
#include "support/OutputPath.h"

#include <algorithm>

namespace tc::run {
namespace {

struct PrepareOptions {
  std::string model, sourceText, targetText, output;
  std::string vocabulary; ///< a .model file or a token file holding one
  std::string algorithm = "bpe";
  bool ids = false, overwrite = false;
};

/// The vocabulary of `path`: a SentencePiece model, or the one a token file
/// carries.
std::unique_ptr<rt::SubwordVocabulary>
loadVocabulary(const std::string &path, std::string &error) {
  if (!support::fileStartsWith(path, rt::kTokenFileMagic))
    return rt::SubwordVocabulary::load(path, error);
  // Mapped: only the vocabulary of a large training file is read.
  std::unique_ptr<rt::TokenTable> table = rt::TokenTable::open(path, error);
  if (!table)
    return nullptr;
  if (table->vocabulary().empty()) {
    error = path + " holds no vocabulary (it was prepared with --ids)";
    return nullptr;
  }
  return rt::SubwordVocabulary::fromSerialized(table->vocabulary(), path,
                                               error);
}

/// Prints what the token file holds and what of it no bucket fits.
void summarize(const std::vector<rt::SentencePair> &pairs,
               const std::vector<rt::BucketShape> &buckets,
               const std::string &output) {
  int64_t sourceTokens = 0, targetTokens = 0, tooLong = 0;
  for (const rt::SentencePair &pair : pairs) {
    rt::PairLengths lengths = rt::lengthsOf(pair);
    sourceTokens += lengths.source;
    targetTokens += lengths.target; // with EOS
    if (!rt::bucketFor(buckets, {pair}))
      ++tooLong;
  }
  std::fprintf(stderr,
               "tc-run: wrote %zu pairs to %s (%lld source and %lld target "
               "tokens with EOS)\n",
               pairs.size(), output.c_str(), (long long)sourceTokens,
               (long long)targetTokens);
  if (tooLong > 0 && !buckets.empty())
    std::fprintf(stderr,
                 "tc-run: note: %lld pairs are longer than the largest "
                 "shape bucket and will be left out of training\n",
                 (long long)tooLong);
}

int prepare(const PrepareOptions &o) {
  std::string error;
  auto executable = rt::Executable::load(o.model, error);
  if (!executable)
    return fail(error);
  rt::Vocabulary vocab = rt::vocabularyOf(executable->root());
  // -o may replace an earlier token file (--overwrite), never anything
  // else.
  if (!support::checkReplaceableOutput({"-o",
                                        o.output,
                                        "the token file",
                                        rt::kTokenFileMagic,
                                        {{o.model, "the executable"},
                                         {o.sourceText, "the source text"},
                                         {o.targetText, "the target text"},
                                         {o.vocabulary, "the vocabulary"}}},
                                       o.overwrite, error))
    return fail(error);

  std::optional<rt::ParallelText> text =
      rt::readParallelText(o.sourceText, o.targetText, error);
  if (!text)
    return fail(error);
  // Before anything is encoded (or trained on): a pair no bucket can hold
  // costs time and memory in proportion to its bytes.
  rt::LineLimit limit = rt::lineLimitOf(executable->root());
  rt::LongPairs skipped = rt::dropLongPairs(*text, limit.bytes);
  if (skipped.count > 0)
    std::fprintf(stderr,
                 "tc-run: note: %lld pairs skipped (the first at line %zu): a "
                 "side is longer than %s, so no bucket can hold it\n",
                 (long long)skipped.count, skipped.firstLine,
                 limit.describe().c_str());
  if (text->source.empty())
    return fail(o.sourceText + " and " + o.targetText +
                " hold no sentence pairs" +
                (skipped.count > 0 ? " that fit the model" : "") +
                "; give the text to prepare (nothing was written)");
  rt::TokenData data;
  if (o.ids) {
    auto pairs =
        rt::parseIdPairs(*text, o.sourceText, o.targetText, vocab, error);
    if (!pairs)
      return fail(error);
    data.pairs = std::move(*pairs);
  } else {
    std::unique_ptr<rt::SubwordVocabulary> subwords;
    if (!o.vocabulary.empty()) {
      subwords = loadVocabulary(o.vocabulary, error);
      if (!subwords || !subwords->fits(vocab, o.vocabulary, error))
        return fail(error);
    } else {
      std::fprintf(stderr,
                   "tc-run: training a joint %s vocabulary of %lld pieces on "
                   "%zu + %zu sentences\n",
                   o.algorithm.c_str(), (long long)vocab.size,
                   text->source.size(), text->target.size());
      subwords = rt::SubwordVocabulary::train(
          {&text->source, &text->target}, vocab,
          *rt::parseSubwordAlgorithm(o.algorithm), error);
      if (!subwords)
        return fail(error + "; give a smaller vocab_size or more text");
    }
    data.pairs = rt::encodePairs(*text, *subwords, vocab);
    data.vocabulary = subwords->serialized();
  }
  if (!rt::writeTokenFile(o.output, data, error))
    return fail(error);
  summarize(data.pairs, rt::bucketsOf(executable->root()), o.output);
  return kSuccess;
}

} // namespace

Command addPrepareCommand(CLI::App &app) {
  auto o = std::make_shared<PrepareOptions>();
  CLI::App *command = app.add_subcommand(
      "prepare",
      "raw parallel text (one sentence per line, UTF-8) -> a token file; "
      "trains the joint subword vocabulary of the model's size unless "
      "--vocabulary gives one");
  command->add_option("model", o->model, "the executable (for the vocabulary)")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--source", o->sourceText, "source sentences")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--target", o->targetText, "target sentences")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("-o", o->output, "the token file to write")->required();
  CLI::Option *vocabulary =
      command
          ->add_option("--vocabulary", o->vocabulary,
                       "use this SentencePiece model (a .model file, or a "
                       "token file that holds one: the training data's, "
                       "for validation and test sets)")
          ->check(CLI::ExistingFile);
  CLI::Option *algorithm =
      command
          ->add_option("--subword", o->algorithm,
                       "the algorithm of a trained vocabulary")
          ->default_val("bpe")
          ->check(CLI::IsMember({"bpe", "unigram"}))
          ->excludes(vocabulary);
  command
      ->add_flag("--ids", o->ids,
                 "the texts are whitespace-separated token ids, "
                 "tokenised elsewhere (no vocabulary)")
      ->excludes(vocabulary)
      ->excludes(algorithm);
  command->add_flag("--overwrite", o->overwrite,
                    "replace -o when it is an earlier token file");
  return {command, [o] { return prepare(*o); }};
}

} // namespace tc::run
