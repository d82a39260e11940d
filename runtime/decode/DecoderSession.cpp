//===- DecoderSession.cpp - the compiled incremental decoder of one shape --===//

#include "runtime/decode/DecoderSession.h"

#include <algorithm>
#include <utility>

namespace tc::rt {

namespace binding = contract::binding;
using contract::FunctionRole;

namespace {

/// How many elements output `name` of `function` holds (0: none).
int64_t outputElements(const tcx::Function &function, std::string_view name) {
  const tcx::Binding *output = findBinding(function, name, true);
  int64_t count = output ? 1 : 0;
  if (output)
    for (int64_t extent : *output->buffer()->shape())
      count *= extent;
  return count;
}

} // namespace

int64_t candidatesPerRowOf(const tcx::Function &step, int64_t rows) {
  int64_t candidates = outputElements(step, binding::kTopTokens);
  return rows > 0 && candidates % rows == 0 ? candidates / rows : 0;
}

std::optional<DecoderSession> DecoderSession::open(const Executable &executable,
                                                   Device &device,
                                                   const BucketShape &shape,
                                                   std::string &error) {
  const tcx::Function *start =
      executable.function(tcx::FunctionRole::DecodeStart, shape);
  const tcx::Function *step =
      executable.function(tcx::FunctionRole::DecodeStep, shape);
  if (!start || !step) {
    error = "the executable has no " +
            contract::functionName(FunctionRole::DecodeStart, shape) + " or " +
            contract::functionName(FunctionRole::DecodeStep, shape) +
            " function (compile it again with this tc-compile)";
    return std::nullopt;
  }
  // The caches must be state (updated where the step reads them), or every
  // step would attend to caches that never change.
  for (const tcx::Binding *b : *step->outputs())
    if (b->name()->string_view().starts_with("self_") &&
        b->buffer()->space() != tcx::Space::Inputs) {
      error = step->name()->str() + " returns " + b->name()->str() +
              " as a copy, not in place; compile the model again with this "
              "tc-compile";
      return std::nullopt;
    }
  if (!findBinding(*step, binding::kCrossRow, false)) {
    error = step->name()->str() + " has no " + std::string(binding::kCrossRow) +
            " input (an executable of an older tc-compile, whose decoder "
            "copies a source into every row); compile it again with this "
            "tc-compile";
    return std::nullopt;
  }
  // Before the top-k moved into the step, it returned log_probs [R, V].
  int64_t candidates = candidatesPerRowOf(*step, shape.batch);
  if (candidates == 0) {
    error = step->name()->str() +
            " returns no top_tokens (the whole log-probability distribution "
            "of an older tc-compile); compile the model again with this "
            "tc-compile";
    return std::nullopt;
  }
  std::vector<std::string> crossNames;
  for (const tcx::Binding *b : *start->outputs())
    crossNames.push_back(b->name()->str());
  return DecoderSession(device, *start, *step, shape,
                        vocabularyOf(executable.root()), crossNames,
                        candidates);
}

bool DecoderSession::fail(const std::string &what, std::string &error) const {
  error = start_->name()->str() + " and " + step_->name()->str() +
          " do not bind as tc's incremental decoder does: " + what;
  return false;
}

std::optional<std::vector<EncodedSource>>
DecoderSession::start(const std::vector<std::vector<int32_t>> &sources,
                      std::string &error) {
  int64_t R = rows(), S = shape_.sourceLength;
  if (int64_t(sources.size()) > R) {
    error = std::to_string(sources.size()) + " sources for " +
            std::to_string(R) + " rows";
    return std::nullopt;
  }
  std::vector<int32_t> ids(R * S, vocab_.pad);
  for (size_t r = 0; r < sources.size(); ++r) {
    if (int64_t(sources[r].size()) > S) {
      error = "a source of " + std::to_string(sources[r].size()) +
              " tokens is longer than the decoder's " + std::to_string(S);
      return std::nullopt;
    }
    std::copy(sources[r].begin(), sources[r].end(), ids.begin() + r * S);
  }
  if (!device_->writeInput(*start_, binding::kSourceIds, ids)) {
    fail("no source_ids input", error);
    return std::nullopt;
  }
  device_->run(*start_);
  ++batch_;
  std::vector<EncodedSource> encoded(sources.size());
  for (size_t r = 0; r < sources.size(); ++r) {
    encoded[r].ids.assign(ids.begin() + r * S, ids.begin() + (r + 1) * S);
    encoded[r].row = int64_t(r);
    encoded[r].batch = batch_;
  }
  return encoded;
}

bool DecoderSession::place(const EncodedSource &source, int64_t first,
                           int64_t count, std::string &error) {
  if (first < 0 || count < 1 || first + count > rows())
    return fail("rows [" + std::to_string(first) + ", " +
                    std::to_string(first + count) + ") outside the " +
                    std::to_string(rows()) + " rows",
                error);
  if (source.batch != batch_)
    return fail("a source encoded by start " + std::to_string(source.batch) +
                    " placed after start " + std::to_string(batch_) +
                    ", which overwrote its keys and values",
                error);
  // One copy, in the first row; the step reads it through cross_row.
  std::fill(crossRow_.begin() + first, crossRow_.begin() + first + count,
            int32_t(first));
  if (!device_->writeInputAt(*step_, binding::kSourceIds,
                             first * int64_t(source.ids.size()), source.ids))
    return fail("no source_ids rows for row " + std::to_string(first), error);
  for (const std::string &name : crossNames_) {
    // A row of the start's output [R, S, C] and of the step's input.
    int64_t rowBytes = bindingBytes(*start_, name, true) / rows();
    if (!device_->copyOutputToInput(*start_, name, source.row * rowBytes,
                                    *step_, name, first * rowBytes, rowBytes))
      return fail("no input " + name + " of the start's shape", error);
  }
  return true;
}

const StepCandidates *
DecoderSession::step(const std::vector<int32_t> &token,
                     const std::vector<int32_t> &position,
                     const std::vector<int32_t> &origin, std::string &error) {
  int64_t R = rows();
  for (auto [name, values] :
       {std::pair(binding::kToken, &token),
        std::pair(binding::kPosition, &position),
        std::pair(binding::kBeamOrigin, &origin),
        std::pair(binding::kCrossRow, &std::as_const(crossRow_))})
    if (!device_->writeInput(*step_, name, *values)) {
      fail("no input " + std::string(name) + " of " + std::to_string(R), error);
      return nullptr;
    }
  device_->run(*step_);
  StepCandidates &c = candidates_;
  c.logProbs.resize(R * c.perRow);
  c.tokens.resize(R * c.perRow);
  c.eosLogProb.resize(R);
  std::string shape = std::to_string(R) + "x" + std::to_string(c.perRow);
  if (!device_->readOutput(*step_, binding::kTopLogProbs, c.logProbs) ||
      !device_->readOutput(*step_, binding::kTopTokens, c.tokens) ||
      !device_->readOutput(*step_, binding::kEosLogProb, c.eosLogProb)) {
    fail("no outputs top_log_probs and top_tokens of " + shape +
             " and eos_log_prob of " + std::to_string(R) + "x1",
         error);
    return nullptr;
  }
  return &c;
}

} // namespace tc::rt
