//===- Translator.cpp - many sentences through the incremental decoder -----===//

#include "runtime/decode/Translator.h"
#include "runtime/decode/DecoderSession.h"
#include "runtime/decode/DecoderShapes.h"

#include <algorithm>
#include <deque>
#include <map>

namespace tc::rt {
namespace {

/// Decodes `indices` of `sources` in `session`, each with its search.
bool translateInShape(DecoderSession &session,
                      const std::vector<std::vector<int32_t>> &sources,
                      const std::vector<size_t> &indices,
                      const SearchOptions &options, Translations &result,
                      std::string &error,
                      const std::function<void()> &sentenceDone) {
  const Vocabulary &vocab = session.vocabulary();
  int64_t R = session.rows(), width = std::max<int64_t>(options.beam, 1);
  int64_t groups = R / width, T = session.shape().targetLength;
  if (options.batchSentences > 0)
    groups = std::min(groups, options.batchSentences);
  // Sources are encoded a step's rows at a time, or the sentences decoded
  // at a time when they are fewer (one: a sentence's time is its own).
  int64_t encodeAtOnce = options.batchSentences > 0 ? groups : R;
  std::deque<std::pair<size_t, EncodedSource>> ready;
  size_t next = 0; // the first of `indices` not yet encoded
  std::vector<std::optional<SentenceSearch>> searches(groups);
  std::vector<size_t> sourceOf(groups);
  std::vector<int32_t> token(R), position(R), origin(R);
  for (;;) {
    bool any = false;
    for (int64_t g = 0; g < groups; ++g) {
      if (!searches[g]) {
        if (ready.empty() && next < indices.size()) {
          size_t count = std::min<size_t>(encodeAtOnce, indices.size() - next);
          std::vector<std::vector<int32_t>> batch;
          for (size_t k = 0; k < count; ++k)
            batch.push_back(sources[indices[next + k]]);
          auto encoded = session.start(batch, error);
          if (!encoded)
            return false;
          for (size_t k = 0; k < count; ++k)
            ready.emplace_back(indices[next + k], std::move((*encoded)[k]));
          next += count;
        }
        if (ready.empty())
          continue;
        auto &[index, encoded] = ready.front();
        if (!session.place(encoded, g * width, width, error))
          return false;
        int64_t length = int64_t(sources[index].size());
        searches[g].emplace(options, vocab,
                            std::min(length + options.maxLengthOffset, T));
        sourceOf[g] = index;
        ready.pop_front();
      }
      any = true;
    }
    if (!any)
      return true;
    for (int64_t g = 0; g < groups; ++g)
      for (int64_t i = 0; i < width; ++i) {
        int64_t row = g * width + i;
        const std::optional<SentenceSearch> &search = searches[g];
        token[row] = search ? search->token(i) : vocab.bos;
        position[row] = search ? int32_t(search->position()) : 0;
        origin[row] = search ? int32_t(g * width + search->origin(i))
                             : int32_t(row);
      }
    const StepCandidates *candidates =
        session.step(token, position, origin, error);
    if (!candidates)
      return false;
    for (int64_t g = 0; g < groups; ++g) {
      if (!searches[g] || !searches[g]->advance(*candidates, g * width))
        continue;
      result.record(sourceOf[g], searches[g]->results());
      searches[g].reset();
      sentenceDone();
    }
  }
}

} // namespace

bool checkBeamWidth(const Executable &executable, int64_t width,
                    std::string &error) {
  const tcx::Executable &root = executable.root();
  int64_t vocabulary = vocabularyOf(root).size;
  // Each decoder shape's widest step must hold the beam's hypotheses and
  // return its 2 x width best tokens per row (or every token).
  int64_t widest = width, rows = 0, candidates = 0;
  for (const BucketShape &shape : decoderShapes(root)) {
    const tcx::Function *step =
        executable.function(tcx::FunctionRole::DecodeStep, shape);
    int64_t K = step ? candidatesPerRowOf(*step, shape.batch) : 0;
    if (K == 0)
      continue; // an older executable: opening its session says so
    int64_t serves = std::min(shape.batch, K >= vocabulary ? shape.batch
                                                           : std::max<int64_t>(
                                                                 K / 2, 1));
    if (serves < widest) {
      widest = serves;
      rows = shape.batch;
      candidates = K;
    }
  }
  if (widest >= width)
    return true;
  error = "a beam of " + std::to_string(width) + " needs " +
          std::to_string(width) + " rows and each row's " +
          std::to_string(2 * width) +
          " most probable tokens, but the decoder steps have " +
          std::to_string(rows) + " rows and return " +
          std::to_string(candidates) + " tokens per row; use --beam " +
          std::to_string(widest) +
          " or less, or compile the model again with [decoding] beam = " +
          std::to_string(width) +
          (rows < width ? " and rows = " + std::to_string(width) + " or more"
                        : "") +
          " in its description";
  return false;
}

void Translations::record(size_t i, std::vector<Hypothesis> found) {
  const Hypothesis &best = found.front();
  unfinished += best.cut;
  targetTokens += int64_t(best.tokens.size()) + 1; // with EOS
  nBest[i] = std::move(found);
}

std::optional<Translations>
translate(const Executable &executable, Device &device,
          const std::vector<std::vector<int32_t>> &sources,
          const SearchOptions &options, std::string &error,
          const std::function<void(size_t, int64_t)> &progress) {
  std::vector<BucketShape> shapes = decoderShapes(executable.root());
  std::vector<BucketShape> steps = decodeStepShapes(executable.root());
  if (shapes.empty()) {
    error = "the executable has no incremental decoder (decode_step "
            "functions); compile its description again with this tc-compile";
    return std::nullopt;
  }
  int64_t width = std::max<int64_t>(options.beam, 1);
  if (!checkBeamWidth(executable, width, error))
    return std::nullopt;
  Vocabulary vocab = vocabularyOf(executable.root());
  Translations result;
  result.nBest.resize(sources.size());
  std::vector<std::vector<int32_t>> cut = sources;
  std::map<size_t, std::vector<size_t>> byShape; // shape index -> sources
  for (size_t i = 0; i < cut.size(); ++i) {
    // The shape depends on the source alone: a translation's length limit
    // is capped at its shape's target length, whichever that is.
    bool wasCut = false;
    size_t shape = decoderShapeCutting(shapes, cut[i], vocab.eos, 0, wasCut);
    result.truncated += wasCut;
    byShape[shape].push_back(i);
  }
  size_t done = 0;
  auto sentenceDone = [&] {
    ++done;
    if (progress)
      progress(done, result.targetTokens);
  };
  for (auto &[shape, indices] : byShape) {
    // With --batch-sentences, the fewest rows that hold the sentences
    // decoded at a time (one sentence's for the latency mode). Without it
    // every sentence goes through the widest step: its GEMMs have the same
    // rows whatever the batch, so a library that picks its algorithm by
    // the row count cannot make a sentence's result depend on its batch.
    BucketShape rows =
        options.batchSentences > 0
            ? fewestRows(steps, shapes[shape],
                         std::min<int64_t>(int64_t(indices.size()),
                                           options.batchSentences) *
                             width)
            : shapes[shape];
    std::optional<DecoderSession> session =
        DecoderSession::open(executable, device, rows, error);
    if (!session ||
        !translateInShape(*session, cut, indices, options, result, error,
                          sentenceDone))
      return std::nullopt;
  }
  return result;
}

} // namespace tc::rt
