//===- IncrementalDecoderTest.cpp - decode_step against the full decode ----===//
//
// Issue 17, acceptance 1: the incremental decoder computes what the
// whole-prefix decoder computes. decode_start runs once on the rows'
// sources; decode_step then feeds one token per row, position t at step t,
// with its self-attention caches updated in place. After step t, row r's
// candidates (its top-K tokens' log-probabilities and EOS's) must equal the
// log-softmax of the full decode's logits (encode, then decode_BxSxT) at
// position t of the tokens the row holds, and no token left out (padding
// and BOS aside) may beat the last one taken by more than the tolerance.
// What a row holds follows decode_step's contract: at step t row r holds
// row beam_origin[r]'s tokens before t (through the parent table,
// self_history: nothing is copied), then token[r] at t.
//
// Two schedules of steps:
//  - every row continues itself (beam_origin = row), each with its own
//    source and target prefix;
//  - beam reselection: rows in groups of four share a source, as a beam's
//    hypotheses do (a cached prefix means something only under the source
//    it attended to), and read its one copy of the cross-attention keys,
//    values and ids, in the group's first row (cross_row; the other rows'
//    are random), and at one step t0 > 0 every row continues another
//    row of its group: a rotation with one row duplicated and one dropped;
//    then, on the host, the same with two rows of each group continuing
//    themselves.
//    From t0 on a row holds another row's tokens before t0 and its own
//    after.
//
// For models/tiny.toml (decode_step_64x6x5 against decode_2x6x5) and
// models/copy_task.toml (decode_step_64x12x13 against decode_32x12x13,
// d_model 64), on the CPU device (host executable) and on the emulated GPU
// (the CUDA executable for sm_80, EmulatedGpu.h), with the same random
// parameters and tokens on both; and copy_task on the CPU device in int8
// and bf16 (tc-run translate --compute-type; bf16 where the CPU has it),
// and copy_task compiled as a bf16 executable (on any CPU: widened to f32
// where it has no bf16 instructions).
// Every row of the step is checked: the full decode runs B rows at a time.
//
// Tolerance: 1e-5 absolute on every log-probability in f32 (int8 and bf16:
// toleranceOf says why they are wider). The full decode's
// logits are turned into log-probabilities in double on the host;
// decode_step computes them in float on the device. The self-attention
// caches start as random values, not zeros, and the parent table as random
// rows: the positions a row has not written yet must not matter.
//
//===----------------------------------------------------------------------===//

#include "TinyExecutable.h"

#include "runtime/cpu/Bf16Instructions.h"
#include "runtime/cpu/CpuDevice.h"
#include "runtime/decode/DecoderSession.h"
#include "runtime/decode/StepCandidates.h"
#include "runtime/format/Contract.h"

#ifdef TC_TEST_CUDA
#include "EmulatedGpu.h"
#endif

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <unistd.h>

namespace {

using namespace tc;
using contract::BucketShape;
namespace binding = contract::binding;
using binding::Cache;

constexpr double kTolerance = 1e-5;

/// The tolerance in a reduced compute type (tc-run translate
/// --compute-type): the step and the full decode compute a row's f32
/// activations a few ulps apart (their attention adds in other orders),
/// which can flip the rounding of an activation to bf16 (2^-8 relative) or
/// to int8 (1/63 of its row's largest magnitude) and so move a log
/// probability by far more than f32's 1e-5 (copy_task, measured on a Zen 5:
/// worst 1.1e-3 in bf16, 8.7e-3 in int8). These cases check the compute
/// type's GEMMs (prepared weights, scratch, quantization) against
/// themselves; the prefix logic, the same kernels in every type, is held to
/// 1e-5 by the f32 cases.
double toleranceOf(rt::ComputeType type) {
  return type == rt::ComputeType::Int8   ? 3e-2
         : type == rt::ComputeType::Bf16 ? 5e-3
                                         : kTolerance;
}

/// The tolerance of a bf16 executable (tc-compile --precision=bf16): as a
/// bf16 compute type's, but every GEMM's activations are rounded to bf16,
/// the attention's products too, so more roundings can flip (copy_task,
/// measured on an Intel Xeon with AMX: worst 3.6e-3 own prefixes, 3.3e-3
/// reselected).
constexpr double kBf16ExecutableTolerance = 1e-2;

//===----------------------------------------------------------------------===//
// The model on a device
//===----------------------------------------------------------------------===//

enum class Target { Host, Cuda };

/// A model description compiled for a target, and the device running it.
struct Model {
  ModelDescription description;
  std::unique_ptr<test::Compiled> compiled;
  std::unique_ptr<rt::Device> device;

  const ModelConfig &config() const { return description.model; }
  const rt::Executable &executable() const { return *compiled->executable; }
  /// The function of `role` for `shape` (the test asserts it is there).
  const tcx::Function &function(tcx::FunctionRole role,
                                const BucketShape &shape) const {
    return *executable().function(role, shape);
  }
};

/// The device for `compiled` on `target`: the CPU device for host code, the
/// emulated GPU for CUDA code.
std::unique_ptr<rt::Device> deviceFor(const test::Compiled &compiled,
                                      Target target, const std::string &name,
                                      rt::ComputeType computeType) {
  std::string error;
  if (target == Target::Host) {
    // A bf16 executable runs here without bf16 instructions too, its GEMMs
    // widened to f32 (tc-run's --allow-slow-bf16): the same products, exact
    // in f32, summed in another order.
    std::unique_ptr<rt::CpuDevice> cpu = rt::CpuDevice::create(
        *compiled.executable, error,
        {.allowSlowBf16 = true, .computeType = computeType});
    EXPECT_TRUE(cpu) << error;
    return cpu;
  }
#ifdef TC_TEST_CUDA
  // A directory per model and process (dlopen hands a path it has loaded
  // back, and test runs overlap), gone once loaded unless the compiler failed.
  std::string dir = testing::TempDir() + "/tc-incremental-" + name + "-" +
                    std::to_string(getpid());
  test::SimtKernels kernels =
      test::compileSimt(compiled.executable->root(), dir);
  if (!kernels.library)
    return nullptr;
  std::filesystem::remove_all(dir);
  return std::make_unique<test::EmulatedGpu>(*compiled.executable,
                                             std::move(kernels));
#else
  (void)name;
  return nullptr;
#endif
}

/// models/`name`.toml compiled for `target` (in `precision` when given), on
/// its device, or null with a test failure.
std::unique_ptr<Model>
loadModel(const std::string &name, Target target, rt::ComputeType computeType,
          std::optional<support::Precision> precision = std::nullopt) {
  std::string path = std::string(TC_SOURCE_DIR) + "/models/" + name + ".toml";
  auto model = std::make_unique<Model>();
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  std::optional<ModelDescription> description =
      readModelDescription(path, errorStream);
  EXPECT_TRUE(description) << errors;
  if (!description)
    return nullptr;
  model->description = *description;
  model->compiled = test::compileExecutable(
      path,
      target == Target::Cuda ? std::vector<std::string>{"sm_80"}
                             : std::vector<std::string>{},
      int64_t(25) << 20, precision);
  if (!model->compiled)
    return nullptr;
  model->device = deviceFor(*model->compiled, target, name, computeType);
  return model->device ? std::move(model) : nullptr;
}

/// Uniform parameters in [-0.3, 0.3], the same for a seed on every target.
void writeRandomParameters(Model &model, uint64_t seed) {
  std::mt19937_64 rng(seed);
  int64_t bytes = model.executable().root().param_bytes();
  std::vector<float> params(bytes / 4);
  for (float &p : params)
    p = std::uniform_real_distribution<float>(-0.3f, 0.3f)(rng);
  model.device->write(tcx::Space::Params, 0, params.data(), bytes);
}

//===----------------------------------------------------------------------===//
// Random tokens
//===----------------------------------------------------------------------===//

/// A random symbol: not padding, BOS or EOS.
int32_t randomSymbol(std::mt19937_64 &rng, const ModelConfig &m) {
  int64_t first = std::max({m.padId, m.bosId, m.eosId}) + 1;
  return int32_t(
      std::uniform_int_distribution<int64_t>(first, m.vocabSize - 1)(rng));
}

/// `length` source ids: 1 to length - 1 symbols, EOS, then padding.
std::vector<int32_t> randomSource(std::mt19937_64 &rng, int64_t length,
                                  const ModelConfig &m) {
  int64_t symbols = std::uniform_int_distribution<int64_t>(1, length - 1)(rng);
  std::vector<int32_t> ids(length, int32_t(m.padId));
  for (int64_t i = 0; i < symbols; ++i)
    ids[i] = randomSymbol(rng, m);
  ids[symbols] = int32_t(m.eosId);
  return ids;
}

/// `length` target tokens as the decoder is fed them: BOS, then symbols.
std::vector<int32_t> randomTarget(std::mt19937_64 &rng, int64_t length,
                                  const ModelConfig &m) {
  std::vector<int32_t> ids(length);
  ids[0] = int32_t(m.bosId);
  for (int64_t i = 1; i < length; ++i)
    ids[i] = randomSymbol(rng, m);
  return ids;
}

//===----------------------------------------------------------------------===//
// What the steps feed, and what each row then holds
//===----------------------------------------------------------------------===//

/// decode_step's inputs at each step (the step is the position): every
/// row's token and the row whose cached prefix it continues.
struct Schedule {
  std::vector<std::vector<int32_t>> tokens, origins; // [step][row]
};

/// Every row continues itself and is fed its own target.
Schedule ownPrefixes(const std::vector<std::vector<int32_t>> &targets) {
  Schedule s;
  int64_t rows = targets.size(), steps = targets[0].size();
  for (int64_t t = 0; t < steps; ++t) {
    s.tokens.emplace_back(rows);
    s.origins.emplace_back(rows);
    for (int64_t r = 0; r < rows; ++r) {
      s.tokens[t][r] = targets[r][t];
      s.origins[t][r] = int32_t(r);
    }
  }
  return s;
}

/// Two reselections of a group of four rows: row i continues row
/// origin[i]. In the first every origin moves too (rows 0 and 1 both take
/// row 2's prefix, row 1's own is dropped); in the second rows 0 and 3 stay,
/// row 1 takes row 0's prefix and row 2 row 1's (the host's cache update
/// copies a prefix from an origin that stays directly, from a saved copy
/// where the origin moves).
constexpr int32_t kEveryOriginMoves[4] = {2, 2, 3, 0};
constexpr int32_t kSomeOriginsStay[4] = {0, 0, 1, 3};

/// ownPrefixes, except that at step `t0` row 4g + i of each group of four
/// continues row 4g + origin[i].
Schedule reselectedAt(int64_t t0,
                      const std::vector<std::vector<int32_t>> &targets,
                      const int32_t *origin) {
  Schedule s = ownPrefixes(targets);
  for (size_t r = 0; r < targets.size(); ++r)
    s.origins[t0][r] = int32_t(r / 4 * 4) + origin[r % 4];
  return s;
}

/// The tokens row r holds after step t ([t][r], positions 0..t), by
/// decode_step's contract: row origin[r]'s tokens before t (as they were
/// before the step), then token[r] at t.
std::vector<std::vector<std::vector<int32_t>>> heldTokens(const Schedule &s) {
  std::vector<std::vector<std::vector<int32_t>>> held;
  std::vector<std::vector<int32_t>> before(s.tokens[0].size());
  for (size_t t = 0; t < s.tokens.size(); ++t) {
    std::vector<std::vector<int32_t>> after;
    for (size_t r = 0; r < before.size(); ++r) {
      after.push_back(before[s.origins[t][r]]);
      after.back().push_back(s.tokens[t][r]);
    }
    held.push_back(after);
    before = std::move(after);
  }
  return held;
}

//===----------------------------------------------------------------------===//
// The full decode
//===----------------------------------------------------------------------===//

/// A row of the full decode: a source and a whole target prefix.
struct PrefixRow {
  std::vector<int32_t> source, target;
};

/// Rows of the full decode that answer every (step, row) of a schedule:
/// the full decode is causal, so position t of any row whose target starts
/// with the tokens a step row holds is that step row's expectation.
struct References {
  std::vector<PrefixRow> rows;
  std::vector<std::vector<size_t>> at; ///< [step][row]: index into rows
};

/// The fewest rows serving `held` (longest prefixes first, so the shorter
/// ones find a row they start); targets are padded to `length`.
References
referencesFor(const std::vector<std::vector<std::vector<int32_t>>> &held,
              const std::vector<std::vector<int32_t>> &sources, int64_t length,
              int32_t pad) {
  References refs;
  refs.at.assign(held.size(), std::vector<size_t>(sources.size()));
  for (size_t t = held.size(); t-- > 0;)
    for (size_t r = 0; r < sources.size(); ++r) {
      const std::vector<int32_t> &tokens = held[t][r];
      auto serves = [&](const PrefixRow &row) {
        return row.source == sources[r] &&
               std::equal(tokens.begin(), tokens.end(), row.target.begin());
      };
      auto it = std::find_if(refs.rows.begin(), refs.rows.end(), serves);
      if (it == refs.rows.end()) {
        PrefixRow row{sources[r], tokens};
        row.target.resize(length, pad);
        refs.rows.push_back(row);
        it = refs.rows.end() - 1;
      }
      refs.at[t][r] = it - refs.rows.begin();
    }
  return refs;
}

/// log_softmax over the last dimension, in double.
std::vector<double> logSoftmax(const std::vector<float> &logits,
                               int64_t width) {
  std::vector<double> out(logits.size());
  for (size_t row = 0; row < logits.size(); row += width) {
    double largest =
        *std::max_element(logits.begin() + row, logits.begin() + row + width);
    double sum = 0;
    for (int64_t v = 0; v < width; ++v)
      sum += std::exp(logits[row + v] - largest);
    for (int64_t v = 0; v < width; ++v)
      out[row + v] = logits[row + v] - largest - std::log(sum);
  }
  return out;
}

/// The full decode's log-probabilities of `rows`, [rows, T, V]: encode_BxS
/// and decode_BxSxT of `bucket` on B rows at a time (the last batch filled
/// with copies of its first row).
std::vector<double> fullDecode(Model &model, const BucketShape &bucket,
                               const std::vector<PrefixRow> &rows) {
  const tcx::Function &encode =
      model.function(tcx::FunctionRole::Encode, bucket);
  const tcx::Function &decode =
      model.function(tcx::FunctionRole::Decode, bucket);
  rt::Device &device = *model.device;
  int64_t B = bucket.batch, S = bucket.sourceLength, T = bucket.targetLength,
          V = model.config().vocabSize;
  std::vector<double> out;
  for (size_t first = 0; first < rows.size(); first += B) {
    std::vector<int32_t> sources, targets;
    for (int64_t b = 0; b < B; ++b) {
      const PrefixRow &row = rows[first + b < rows.size() ? first + b : first];
      sources.insert(sources.end(), row.source.begin(), row.source.end());
      targets.insert(targets.end(), row.target.begin(), row.target.end());
    }
    EXPECT_TRUE(device.writeInput(encode, binding::kSourceIds, sources.data(),
                                  B * S * 4));
    device.run(encode);
    std::vector<uint8_t> memory(
        rt::bindingBytes(encode, binding::kMemory, true));
    EXPECT_TRUE(device.readOutput(encode, binding::kMemory, memory.data(),
                                  memory.size()));
    EXPECT_TRUE(device.writeInput(decode, binding::kMemory, memory.data(),
                                  memory.size()));
    EXPECT_TRUE(device.writeInput(decode, binding::kSourceIds, sources.data(),
                                  B * S * 4));
    EXPECT_TRUE(device.writeInput(decode, binding::kTargetPrefix,
                                  targets.data(), B * T * 4));
    device.run(decode);
    std::vector<float> logits(B * T * V);
    EXPECT_TRUE(device.readOutput(decode, binding::kLogits, logits.data(),
                                  logits.size() * 4));
    std::vector<double> logProbs = logSoftmax(logits, V);
    int64_t used = std::min<int64_t>(B, rows.size() - first);
    out.insert(out.end(), logProbs.begin(), logProbs.begin() + used * T * V);
  }
  return out;
}

//===----------------------------------------------------------------------===//
// The incremental decoder
//===----------------------------------------------------------------------===//

/// decode_start and decode_step of one shape, driven as DecoderSession
/// drives them, through the device's input and output copies.
class IncrementalDecoder {
public:
  IncrementalDecoder(Model &model, const BucketShape &shape)
      : device_(*model.device),
        start_(model.function(tcx::FunctionRole::DecodeStart, shape)),
        step_(model.function(tcx::FunctionRole::DecodeStep, shape)),
        layers_(model.config().decoderLayers),
        vocabulary_(model.config().vocabSize), rows_(shape.batch) {}

  /// decode_start on one source per row; its keys and values become
  /// decode_step's inputs, with the sources, in the rows that `crossRow`
  /// names (row r reads row crossRow[r]'s); the other rows' keys, values
  /// and ids are random: no row may read them. The self-attention caches
  /// are filled with random values: no row has written a position yet.
  void start(const std::vector<std::vector<int32_t>> &sources,
             const std::vector<int32_t> &crossRow, std::mt19937_64 &rng) {
    std::vector<int32_t> ids, stepIds;
    for (const std::vector<int32_t> &source : sources)
      ids.insert(ids.end(), source.begin(), source.end());
    int64_t S = ids.size() / rows_;
    auto unread = [&](int64_t r) {
      return std::find(crossRow.begin(), crossRow.end(), r) == crossRow.end();
    };
    stepIds = ids;
    for (int64_t i = 0; i < int64_t(ids.size()); ++i)
      if (unread(i / S))
        stepIds[i] = std::uniform_int_distribution<int32_t>(0, 3)(rng);
    EXPECT_TRUE(device_.writeInput(start_, binding::kSourceIds, ids.data(),
                                   ids.size() * 4));
    EXPECT_TRUE(device_.writeInput(step_, binding::kSourceIds, stepIds.data(),
                                   stepIds.size() * 4));
    EXPECT_TRUE(device_.writeInput(step_, binding::kCrossRow, crossRow.data(),
                                   rows_ * 4));
    device_.run(start_);
    for (int64_t layer = 0; layer < layers_; ++layer) {
      for (Cache cache : {Cache::CrossKeys, Cache::CrossValues}) {
        std::string name = binding::cacheName(cache, layer);
        std::vector<float> values(rt::bindingBytes(start_, name, true) / 4);
        EXPECT_TRUE(
            device_.readOutput(start_, name, values.data(), values.size() * 4))
            << name;
        int64_t perRow = values.size() / rows_;
        for (int64_t i = 0; i < int64_t(values.size()); ++i)
          if (unread(i / perRow))
            values[i] = std::uniform_real_distribution<float>(-1, 1)(rng);
        EXPECT_TRUE(
            device_.writeInput(step_, name, values.data(), values.size() * 4))
            << name;
      }
      for (Cache cache : {Cache::SelfKeys, Cache::SelfValues}) {
        std::string name = binding::cacheName(cache, layer);
        std::vector<float> garbage(rt::bindingBytes(step_, name, false) / 4);
        for (float &x : garbage)
          x = std::uniform_real_distribution<float>(-1, 1)(rng);
        EXPECT_TRUE(
            device_.writeInput(step_, name, garbage.data(), garbage.size() * 4))
            << name;
      }
    }
    std::vector<int32_t> table(
        rt::bindingBytes(step_, binding::kBeamHistory, false) / 4);
    ASSERT_FALSE(table.empty()) << "no " << binding::kBeamHistory << " input";
    for (int32_t &row : table)
      row = std::uniform_int_distribution<int32_t>(0, rows_ - 1)(rng);
    EXPECT_TRUE(device_.writeInput(step_, binding::kBeamHistory, table));
  }

  /// Step `position`: every row's token and origin row in, the next
  /// token's candidates out.
  rt::StepCandidates step(const std::vector<int32_t> &tokens,
                          int32_t position,
                          const std::vector<int32_t> &origins) {
    std::vector<int32_t> positions(rows_, position);
    EXPECT_TRUE(
        device_.writeInput(step_, binding::kToken, tokens.data(), rows_ * 4));
    EXPECT_TRUE(device_.writeInput(step_, binding::kPosition, positions.data(),
                                   rows_ * 4));
    EXPECT_TRUE(device_.writeInput(step_, binding::kBeamOrigin, origins.data(),
                                   rows_ * 4));
    device_.run(step_);
    rt::StepCandidates c;
    c.perRow = rt::bindingBytes(step_, binding::kTopTokens, true) / 4 / rows_;
    c.logProbs.resize(rows_ * c.perRow);
    c.tokens.resize(rows_ * c.perRow);
    c.eosLogProb.resize(rows_);
    EXPECT_TRUE(device_.readOutput(step_, binding::kTopLogProbs, c.logProbs));
    EXPECT_TRUE(device_.readOutput(step_, binding::kTopTokens, c.tokens));
    EXPECT_TRUE(device_.readOutput(step_, binding::kEosLogProb, c.eosLogProb));
    return c;
  }

private:
  rt::Device &device_;
  const tcx::Function &start_, &step_;
  int64_t layers_, vocabulary_, rows_;
};

//===----------------------------------------------------------------------===//
// The comparison
//===----------------------------------------------------------------------===//

/// How far row `r`'s candidates `got` are from the full decode's
/// log-probabilities `want` [V]: each candidate's and EOS's difference, and
/// how much a token left out (not padding or BOS) beats the last one taken.
double candidateDifference(const rt::StepCandidates &got, int64_t r,
                           const double *want, const ModelConfig &m) {
  double worst = std::abs(got.eosLogProb[r] - want[m.eosId]);
  std::vector<bool> taken(m.vocabSize, false);
  const int32_t *tokens = got.tokensOf(r);
  double lastTaken = INFINITY;
  for (int64_t j = 0; j < got.perRow; ++j) {
    if (tokens[j] < 0 || tokens[j] >= m.vocabSize)
      return INFINITY;
    taken[tokens[j]] = true;
    lastTaken = std::min(lastTaken, want[tokens[j]]);
    worst = std::max(worst, double(std::abs(got.logProbsOf(r)[j] -
                                            want[tokens[j]])));
  }
  for (int64_t v = 0; v < m.vocabSize; ++v)
    if (!taken[v] && v != m.padId && v != m.bosId)
      worst = std::max(worst, want[v] - lastTaken);
  return worst;
}

/// Runs `schedule` on `sources` through the incremental decoder and
/// returns the largest difference (candidateDifference) from the full
/// decode of what the rows hold, over every step and row.
double worstDifference(Model &model, const BucketShape &stepShape,
                       const BucketShape &fullShape,
                       const std::vector<std::vector<int32_t>> &sources,
                       const std::vector<int32_t> &crossRow,
                       const Schedule &schedule, std::mt19937_64 &rng) {
  int64_t T = fullShape.targetLength, V = model.config().vocabSize;
  IncrementalDecoder decoder(model, stepShape);
  decoder.start(sources, crossRow, rng);
  std::vector<rt::StepCandidates> stepped;
  for (size_t t = 0; t < schedule.tokens.size(); ++t)
    stepped.push_back(
        decoder.step(schedule.tokens[t], int32_t(t), schedule.origins[t]));

  References refs = referencesFor(heldTokens(schedule), sources, T,
                                  int32_t(model.config().padId));
  std::vector<double> full = fullDecode(model, fullShape, refs.rows);
  double worst = 0;
  for (size_t t = 0; t < stepped.size(); ++t)
    for (size_t r = 0; r < sources.size(); ++r) {
      double difference =
          candidateDifference(stepped[t], int64_t(r),
                              &full[(refs.at[t][r] * T + t) * V],
                              model.config());
      if (!(difference <= worst)) // NaN is the worst
        worst = std::isnan(difference) ? INFINITY : difference;
    }
  return worst;
}

struct Case {
  const char *model;
  Target target;
  /// The CPU device's weight GEMMs (tc-run translate --compute-type).
  rt::ComputeType computeType = rt::ComputeType::F32;
  /// A bf16 executable (tc-compile --precision=bf16): every GEMM's operands
  /// bf16, the decoder's too.
  bool bf16Executable = false;
};
void PrintTo(const Case &c, std::ostream *os) {
  *os << c.model << (c.target == Target::Host ? " on the CPU" : " on CUDA")
      << " in " << rt::nameOf(c.computeType)
      << (c.bf16Executable ? " (a bf16 executable)" : "");
}

class IncrementalDecoding : public testing::TestWithParam<Case> {};

TEST_P(IncrementalDecoding, StepsEqualTheFullDecodeAtEveryPosition) {
  auto [name, target, computeType, bf16Executable] = GetParam();
#ifndef TC_TEST_CUDA
  if (target == Target::Cuda)
    GTEST_SKIP() << "no CUDA toolkit: no CUDA executable to emulate";
#endif
  if (computeType == rt::ComputeType::Bf16 && !rt::cpuHasBf16Gemms())
    GTEST_SKIP() << "no bf16 GEMM instructions on this CPU";
  auto started = std::chrono::steady_clock::now();
  std::unique_ptr<Model> model =
      loadModel(name, target, computeType,
                bf16Executable ? std::optional(support::Precision::BF16)
                               : std::nullopt);
  ASSERT_TRUE(model);
  const ModelConfig &m = model->config();
  double tolerance = bf16Executable ? kBf16ExecutableTolerance
                                    : toleranceOf(computeType);
  writeRandomParameters(*model, 3);

  // The decoder's shape and the training bucket of its source length.
  std::vector<Bucket> decoders = decodingBuckets(model->description);
  ASSERT_FALSE(decoders.empty());
  BucketShape stepShape{decoders[0].batch, decoders[0].sourceLength,
                        decoders[0].targetLength};
  auto bucket = std::find_if(model->description.training.buckets.begin(),
                             model->description.training.buckets.end(),
                             [&](const Bucket &b) {
                               return b.sourceLength == stepShape.sourceLength;
                             });
  ASSERT_NE(bucket, model->description.training.buckets.end());
  BucketShape fullShape{bucket->batch, bucket->sourceLength,
                        bucket->targetLength};
  ASSERT_LE(stepShape.targetLength, fullShape.targetLength);
  for (auto [role, shape] :
       {std::pair(tcx::FunctionRole::Encode, fullShape),
        std::pair(tcx::FunctionRole::Decode, fullShape),
        std::pair(tcx::FunctionRole::DecodeStart, stepShape),
        std::pair(tcx::FunctionRole::DecodeStep, stepShape)})
    ASSERT_TRUE(model->executable().function(role, shape))
        << "no " << tcx::EnumNameFunctionRole(role) << " function for "
        << shape.batch << "x" << shape.sourceLength << "x"
        << shape.targetLength;
  int64_t R = stepShape.batch, S = stepShape.sourceLength,
          T = stepShape.targetLength;
  ASSERT_EQ(R % 4, 0) << "rows in groups of four";
  ASSERT_GE(T, 2) << "a step after the reselection";

  std::mt19937_64 rng(17);
  std::vector<std::vector<int32_t>> sources, targets;
  for (int64_t r = 0; r < R; ++r) {
    sources.push_back(randomSource(rng, S, m));
    targets.push_back(randomTarget(rng, T, m));
  }
  std::vector<int32_t> ownRow(R), groupRow(R);
  for (int64_t r = 0; r < R; ++r) {
    ownRow[r] = int32_t(r);
    groupRow[r] = int32_t(r / 4 * 4);
  }
  double own = worstDifference(*model, stepShape, fullShape, sources, ownRow,
                               ownPrefixes(targets), rng);
  EXPECT_LE(own, tolerance) << "every row continuing itself";

  // Groups of four rows share a source, and read its one copy (cross_row).
  for (int64_t r = 0; r < R; ++r)
    sources[r] = sources[r / 4 * 4];
  double reselected = 0;
  // The CUDA kernels treat every origin alike: one pattern is enough there.
  std::vector<const int32_t *> patterns = {kEveryOriginMoves};
  if (target == Target::Host)
    patterns.push_back(kSomeOriginsStay);
  for (const int32_t *origin : patterns)
    reselected = std::max(
        reselected,
        worstDifference(*model, stepShape, fullShape, sources, groupRow,
                        reselectedAt(T / 2, targets, origin), rng));
  EXPECT_LE(reselected, tolerance) << "beam reselection at step " << T / 2;

  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
          .count();
  std::printf("%s on %s: worst |log p difference| %.3g (own prefixes), %.3g "
              "(reselected at step %lld); %.1f s\n",
              name,
              target == Target::Host ? "the CPU device" : "an emulated GPU",
              own, reselected, (long long)(T / 2), seconds);
}

// A source's keys and values stay in decode_start's outputs until the next
// start: placing one from an earlier start is refused, not decoded against
// the later batch's keys and values.
TEST(DecoderSession, RefusesASourceOfAnEarlierStart) {
  std::unique_ptr<Model> model =
      loadModel("tiny", Target::Host, rt::ComputeType::F32);
  ASSERT_TRUE(model);
  writeRandomParameters(*model, 3);
  std::vector<Bucket> decoders = decodingBuckets(model->description);
  ASSERT_FALSE(decoders.empty());
  BucketShape shape{decoders[0].batch, decoders[0].sourceLength,
                    decoders[0].targetLength};
  std::string error;
  std::optional<rt::DecoderSession> session =
      rt::DecoderSession::open(model->executable(), *model->device, shape,
                               error);
  ASSERT_TRUE(session) << error;
  std::mt19937_64 rng(5);
  std::vector<std::vector<int32_t>> one = {
      randomSource(rng, shape.sourceLength, model->config())};
  auto first = session->start(one, error);
  ASSERT_TRUE(first) << error;
  EXPECT_TRUE(session->place((*first)[0], 0, 4, error)) << error;
  auto second = session->start(one, error);
  ASSERT_TRUE(second) << error;
  EXPECT_FALSE(session->place((*first)[0], 0, 4, error));
  EXPECT_NE(error.find("overwrote its keys and values"), std::string::npos)
      << error;
  EXPECT_TRUE(session->place((*second)[0], 4, 4, error)) << error;
}

INSTANTIATE_TEST_SUITE_P(
    Models, IncrementalDecoding,
    testing::Values(Case{"tiny", Target::Host}, Case{"tiny", Target::Cuda},
                    Case{"copy_task", Target::Host},
                    Case{"copy_task", Target::Cuda},
                    Case{"copy_task", Target::Host, rt::ComputeType::Int8},
                    Case{"copy_task", Target::Host, rt::ComputeType::Bf16},
                    Case{"copy_task", Target::Host, rt::ComputeType::F32,
                         /*bf16Executable=*/true}),
    [](const testing::TestParamInfo<Case> &info) {
      std::string name =
          info.param.model == std::string("copy_task") ? "CopyTask" : "Tiny";
      std::string type = info.param.bf16Executable ? "Bf16Executable"
                         : info.param.computeType == rt::ComputeType::F32
                             ? ""
                             : info.param.computeType == rt::ComputeType::Int8
                                 ? "InInt8"
                                 : "InBf16";
      return name +
             (info.param.target == Target::Host ? "OnTheCpu"
                                                : "OnAnEmulatedGpu") +
             type;
    });

} // namespace
