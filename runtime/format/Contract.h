//===- Contract.h - what tc-compile and tc-run agree on, besides the schema -===//
//
// The facts of the compiler-runtime contract that are not fields of the
// schema (tcx.fbs), each spelled here once: how a function of a shape bucket
// is named, and the names of the inputs and outputs the runtime binds (the
// shape buckets and their rules: runtime/format/BucketShape.h). The
// frontend builds functions and bindings with these; the export records each
// function's role and bucket as fields (so the runtime never parses a name);
// the runtime looks functions up by role and bucket and binds by these names.
// Plain C++: no MLIR, no flatbuffers.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_FORMAT_CONTRACT_H
#define TC_RUNTIME_FORMAT_CONTRACT_H

#include "runtime/format/BucketShape.h"

#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tc::contract {

/// The largest buffer view a .tcx may hold: elements along one dimension
/// (and stride), and byte offsets and space sizes. The writer refuses a
/// module beyond them, the runtime's verifier a file.
inline constexpr int64_t kMaxExtent = int64_t(1) << 40;
inline constexpr int64_t kMaxBytes = int64_t(1) << 50;

/// The most training steps a run may have: a description's [training]
/// steps, tc-run train --steps, and a checkpoint's step are at most this.
inline constexpr int64_t kMaxTrainingSteps = INT32_MAX;
/// Seeds are 32-bit: Philox keys dropout masks with them (Philox.h).
inline constexpr int64_t kMaxSeed = UINT32_MAX;
/// Micro-batch j of an update (the j-th over the ranks of a data-parallel
/// job, each rank's compiled accumulation steps in turn) draws its dropout
/// with the seed `seed + j * kMicroBatchSeedStride` (its low 32 bits): a
/// Philox key of its own. A training step adds it for its own micro-batches;
/// the runtime feeds rank r the seed of its first one. So K ranks of k
/// steps draw the masks that one process of K * k steps does.
inline constexpr int64_t kMicroBatchSeedStride = 0x9E3779B9; // 2^32 / phi

/// What a function built for a shape bucket computes. The frontend builds
/// `Forward` (the loss); autodiff and tc-build-train-step turn it into
/// `TrainStep`; `Encode` and `Decode` (the whole prefix at once) serve
/// validation loss and checks; `DecodeStart` (sources -> every decoder
/// layer's cross-attention keys and values) and `DecodeStep` (one token per
/// row with cached self-attention keys and values) serve translation. The
/// executable holds all but `Forward`.
enum class FunctionRole {
  Forward,
  TrainStep,
  Encode,
  Decode,
  DecodeStart,
  DecodeStep
};

/// The name of `role`'s function for `shape`: "forward_2x6x5",
/// "train_step_2x6x5", "encode_2x6", "decode_2x6x5", "decode_start_2x6",
/// "decode_step_2x6x5".
std::string functionName(FunctionRole role, const BucketShape &shape);

/// What every name of `role`'s functions starts with ("train_step_").
std::string_view functionNamePrefix(FunctionRole role);

/// The role and bucket of a name that functionName made (exactly: no
/// leading zeros), or none.
struct NamedFunction {
  FunctionRole role;
  BucketShape shape;
};
std::optional<NamedFunction> parseFunctionName(std::string_view name);

/// "sm_90" (CUBIN for compute capability 9.0, `arch` 90) or, for `ptx`,
/// "compute_90": NVRTC's and tc-compile --arch's spelling.
std::string cudaArchitectureName(unsigned arch, bool ptx);

/// The names of the functions' inputs and outputs (tc.input / tc.output
/// attributes in the IR, Binding.name in the executable).
namespace binding {
// train step inputs
inline constexpr std::string_view kSourceIds = "source_ids";
inline constexpr std::string_view kTargetIn = "target_in";
inline constexpr std::string_view kTargetOut = "target_out";
inline constexpr std::string_view kRng = "rng";
// train step outputs
inline constexpr std::string_view kLoss = "loss";
inline constexpr std::string_view kTokens = "tokens";
inline constexpr std::string_view kLearningRate = "learning_rate";
// encode's output, decode's input
inline constexpr std::string_view kMemory = "memory";
// decode's other input and its output
inline constexpr std::string_view kTargetPrefix = "target_prefix";
inline constexpr std::string_view kLogits = "logits";
// decode_step's inputs besides source_ids and the caches, one per row: the
// last token, its position (BOS at 0), the row whose cached prefix it
// continues, the row that holds its sentence's cross-attention keys, values
// and source ids (one copy per sentence); and its outputs:
inline constexpr std::string_view kToken = "token";
inline constexpr std::string_view kPosition = "position";
inline constexpr std::string_view kBeamOrigin = "beam_origin";
inline constexpr std::string_view kCrossRow = "cross_row";
/// Per row, its most probable continuations (never padding or BOS; an
/// executable's K = 2 x its [decoding] beam, or the vocabulary if smaller):
/// their log-probabilities [R, K] best first (the lower token id first
/// among equals), their token ids [R, K], and EOS's log-probability [R, 1].
inline constexpr std::string_view kTopLogProbs = "top_log_probs";
inline constexpr std::string_view kTopTokens = "top_tokens";
inline constexpr std::string_view kEosLogProb = "eos_log_prob";
/// The keys and values of decoder layer `layer`: cross-attention (outputs
/// of decode_start, inputs of decode_step) and self-attention (decode_step's
/// state: inputs it updates in place and returns).
enum class Cache { CrossKeys, CrossValues, SelfKeys, SelfValues };
std::string cacheName(Cache cache, int64_t layer); // "cross_k.0", "self_v.1"
/// decode_step's state beside the self-attention caches: the beam's parent
/// table [R, T] (i32), which row's cache holds each position of each row's
/// hypothesis (tc.beam_history). Nothing outside the step writes it. So
/// that the slots it names stay as written, a caller's beam_origin must
/// stay within a sentence's rows, and a row may start a new sentence
/// (position 0) only together with every row of its sentence.
inline constexpr std::string_view kBeamHistory = "self_history";
} // namespace binding

} // namespace tc::contract

#endif // TC_RUNTIME_FORMAT_CONTRACT_H
