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
#include "runtime/report/Progress.h"
#include "support/AtomicFile.h"
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
std::unique_ptr<rt::SubwordVocabulary> loadVocabulary(const std::string &path,
                                                      std::string &error) {
  if (!support::fileStartsWith(path, rt::kTokenFileMagic))
    return rt::SubwordVocabulary::load(path, error);
  // Only the vocabulary (and index) of a large training file is read.
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

/// What a prepared token file holds, counted as its pairs are written.
struct Written {
  uint64_t pairs = 0;
  int64_t sourceTokens = 0, targetTokens = 0, tooLong = 0;
};

/// Prints what the token file holds and what of it no bucket fits.
void summarize(const Written &written, bool anyBuckets,
               const std::string &output) {
  std::fprintf(stderr,
               "tc-run: wrote %llu pairs to %s (%lld source and %lld target "
               "tokens with EOS)\n",
               (unsigned long long)written.pairs, output.c_str(),
               (long long)written.sourceTokens,
               (long long)written.targetTokens);
  if (written.tooLong > 0 && anyBuckets)
    std::fprintf(stderr,
                 "tc-run: note: %lld pairs are longer than the largest "
                 "shape bucket and will be left out of training\n",
                 (long long)written.tooLong);
}

/// The joint vocabulary: `o.vocabulary`'s, or trained on the scanned
/// corpus's sentences, streamed.
std::unique_ptr<rt::SubwordVocabulary>
vocabularyFor(const PrepareOptions &o, const rt::ParallelTextScan &scan,
              const rt::Vocabulary &vocab, std::string &error) {
  if (!o.vocabulary.empty()) {
    auto subwords = loadVocabulary(o.vocabulary, error);
    if (!subwords || !subwords->fits(vocab, o.vocabulary, error))
      return nullptr;
    return subwords;
  }
  std::fprintf(stderr,
               "tc-run: training a joint %s vocabulary of %lld pieces on "
               "%llu + %llu sentences\n",
               o.algorithm.c_str(), (long long)vocab.size,
               (unsigned long long)scan.pairs(),
               (unsigned long long)scan.pairs());
  rt::CorpusSentences sentences(scan);
  auto subwords = rt::SubwordVocabulary::train(
      sentences, vocab, *rt::parseSubwordAlgorithm(o.algorithm), error);
  if (!sentences.error().empty()) {
    error = sentences.error();
    return nullptr;
  }
  if (!subwords)
    // SentencePiece says which way, in its own options' names (tc-run has
    // none of them): the vocabulary needs at least a piece per character
    // of the text, and no more pieces than the text can give.
    error += " (SentencePiece's words; tc-run prepare takes none of its "
             "options): set [model] vocab_size in the description to suit "
             "the text, at least its distinct characters and at most the "
             "pieces it holds, and compile it again, or give more text";
  return subwords;
}

/// Pairs encoded (or parsed) and written at a time: a block's text and ids
/// are what prepare holds beyond the token file's index.
constexpr size_t kBlockPairs = 1 << 16;

/// The second pass: the scanned corpus's pairs, encoded through `subwords`
/// (or parsed as ids when it is null) a block at a time on every core,
/// written to `out` as a token file.
bool encodeAndWrite(const PrepareOptions &o, const rt::ParallelTextScan &scan,
                    const rt::SubwordVocabulary *subwords,
                    const rt::Vocabulary &vocab,
                    const std::vector<rt::BucketShape> &buckets,
                    support::FileWriter &out, Written &written,
                    std::string &error) {
  auto reader = rt::ParallelTextReader::open(scan, error);
  if (!reader)
    return false;
  std::string vocabularyBytes = subwords ? subwords->serialized() : "";
  rt::TokenFileWriter writer(out, vocabularyBytes);
  rt::Progress progress({"tc-run: encoded", "pairs", "tokens"},
                        int64_t(scan.pairs()), stderr, true);
  struct EndLine { // before an error, too: it must not follow the \r line
    rt::Progress &progress;
    ~EndLine() { progress.finish(); }
  } endLine{progress};
  rt::TextBlock block;
  while (true) {
    if (!reader->next(kBlockPairs, block, error))
      return false;
    if (block.source.empty())
      break;
    std::optional<std::vector<rt::SentencePair>> pairs =
        subwords
            ? rt::encodePairs(block, *subwords, vocab)
            : rt::parseIdPairs(block, o.sourceText, o.targetText, vocab, error);
    if (!pairs)
      return false;
    for (const rt::SentencePair &pair : *pairs) {
      if (!writer.add(pair.source, pair.target))
        return false; // writeFileAtomically says why
      rt::PairLengths lengths = rt::lengthsOf(pair);
      written.sourceTokens += lengths.source;
      written.targetTokens += lengths.target; // with EOS
      written.tooLong += !rt::bucketFor(buckets, {pair});
    }
    written.pairs += pairs->size();
    progress.count(int64_t(written.pairs),
                   written.sourceTokens + written.targetTokens);
  }
  return writer.finish();
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
  // A prepare of this -o stopped mid-write (a signal) left its temporary:
  // minutes of encoding at WMT size, gigabytes. Two prepares of one -o at
  // once are not supported.
  support::removeStaleTemporaries(o.output);
  // Before anything is encoded (or trained on): a pair no bucket can hold
  // costs time and memory in proportion to its bytes.
  rt::LineLimit limit = rt::lineLimitOf(executable->root());
  std::optional<rt::ParallelTextScan> scan =
      rt::scanParallelText(o.sourceText, o.targetText, limit.bytes, error);
  if (!scan)
    return fail(error);
  if (!scan->longLines.empty())
    std::fprintf(stderr,
                 "tc-run: note: %zu pairs skipped (the first at line %llu): "
                 "a side is longer than %s, so no bucket can hold it\n",
                 scan->longLines.size(),
                 (unsigned long long)scan->longLines.front(),
                 limit.describe().c_str());
  if (scan->pairs() == 0)
    return fail(o.sourceText + " and " + o.targetText +
                " hold no sentence pairs" +
                (scan->longLines.empty() ? "" : " that fit the model") +
                "; give the text to prepare (nothing was written)");
  std::unique_ptr<rt::SubwordVocabulary> subwords;
  if (!o.ids) {
    subwords = vocabularyFor(o, *scan, vocab, error);
    if (!subwords)
      return fail(error);
  }
  std::vector<rt::BucketShape> buckets = rt::bucketsOf(executable->root());
  Written written;
  std::string encodeError;
  auto fill = [&](support::FileWriter &out) {
    return encodeAndWrite(o, *scan, subwords.get(), vocab, buckets, out,
                          written, encodeError);
  };
  if (!support::writeFileAtomically(o.output, fill,
                                    support::Durability::Replace, error,
                                    support::ifPresentFor(o.overwrite)))
    return fail(encodeError.empty() ? error : encodeError);
  summarize(written, !buckets.empty(), o.output);
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
