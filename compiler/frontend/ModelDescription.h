//===- ModelDescription.h - a model description file, parsed and checked -===//
//
// A model description (models/*.toml, documented in docs/model-description.md)
// has three sections: [model] (every knob of Table 3 of Vaswani et al.),
// [training] (shape buckets, Adam, the learning-rate schedule) and an optional
// [data]. Defaults are the paper's base model. Reading one checks every key;
// a mistake is reported as `file:line:col: error: ...` with a note on the fix.
//
//===----------------------------------------------------------------------===//

#ifndef TC_COMPILER_FRONTEND_MODELDESCRIPTION_H
#define TC_COMPILER_FRONTEND_MODELDESCRIPTION_H

#include "runtime/format/BucketShape.h"
#include "support/Precision.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tc {

enum class PositionalEncoding { Sinusoid, Learned };

struct ModelConfig {
  int64_t encoderLayers = 6;
  int64_t decoderLayers = 6;
  int64_t dModel = 512;
  int64_t dFF = 2048;
  int64_t heads = 8;
  int64_t dK = 64;               ///< per head; d_model / heads unless given
  int64_t dV = 64;               ///< per head; d_model / heads unless given
  double dropout = 0.1;          ///< P_drop: sub-layer outputs and embeddings
  double attentionDropout = 0.0; ///< on the attention weights
  double reluDropout = 0.0;      ///< inside the feed-forward network
  double labelSmoothing = 0.1;
  double layerNormEpsilon = 1e-5;
  PositionalEncoding positionalEncoding = PositionalEncoding::Sinusoid;
  int64_t vocabSize = 0;       ///< the shared source/target vocabulary
  bool shareEmbeddings = true; ///< one matrix for source and target tokens
  bool tieOutput = true; ///< the output projection is the target embedding
  int64_t maxLength = 256;
  int64_t padId = 0;
  int64_t bosId = 1;
  int64_t eosId = 2;
};

/// One static shape the executable is compiled for: the contract's type,
/// which the .tcx records and the runtime reads.
using Bucket = contract::BucketShape;

struct TrainingConfig {
  int64_t steps = 100000;
  /// Tokens per batch and side (the paper's 25,000): a bucket without a
  /// batch gets batch_tokens / max(source_length, target_length) rows.
  int64_t batchTokens = 0;
  std::vector<Bucket> buckets;
  double adamBeta1 = 0.9;
  double adamBeta2 = 0.98;
  double adamEpsilon = 1e-9;
  /// lr = scale * d_model^-0.5 * min(step^-0.5, step * warmup^-1.5)
  int64_t warmupSteps = 4000;
  double learningRateScale = 1.0;
  double gradientClip = 0.0; ///< global-norm clipping; 0 turns it off
  int64_t accumulationSteps = 1;
  int64_t seed = 1;
  /// Megabytes (2^20 bytes) of gradients per allreduce of a data-parallel
  /// job (PyTorch DDP's bucket_cap_mb: 25).
  double allreduceBucketMb = 25.0;
  /// What the GEMMs read and compute in (support/Precision.h);
  /// `tc-compile --precision` overrides it.
  support::Precision precision = support::Precision::F32;
  /// The most bytes a training step's arena (activations and temporaries)
  /// may take: tc-recompute makes cheap activations again in the backward
  /// until it fits; 0: no budget. `tc-compile --memory-budget` overrides it.
  int64_t memoryBudget = 0;
};

struct DataConfig {
  std::string synthetic; ///< "copy" or "reverse"; empty when files are used
  std::string train, valid, test; ///< binarised token files
};

/// How translations are compiled: the incremental decoder's functions.
struct DecodingConfig {
  /// Rows of a decoder step: sentences x beam (64: 16 sentences at beam 4).
  int64_t rows = 64;
  /// The widest beam the step serves: it returns each row's 2 x beam most
  /// probable tokens (tc-run translate --beam at most this).
  int64_t beam = 4;
};

struct ModelDescription {
  std::string path;
  ModelConfig model;
  TrainingConfig training;
  DataConfig data;
  DecodingConfig decoding;
};

/// The most target tokens a translation may have beyond its source's
/// (section 6.1 of the paper: source length + 50).
inline constexpr int64_t kDecodingLengthOffset = 50;

/// The shapes of the incremental decoder: for each source length of the
/// training buckets, `decoding.rows` rows and room for the source length +
/// 50 target positions, capped by the longest training target length; and
/// the same with `decoding.beam` rows (one sentence's), when fewer.
std::vector<Bucket> decodingBuckets(const ModelDescription &description);

/// The bytes of the constants the frontend builds into the decoder steps,
/// one set per decoding bucket: the sinusoids of its target positions
/// [target_length, d_model] (sinusoid positions) and the mask of tokens that
/// never continue a hypothesis [vocab_size], in f32. The compiler holds them
/// and the executable stores them, so a description is refused when they
/// pass kMaxDecoderConstantBytes.
int64_t decoderConstantBytes(const ModelDescription &description);
inline constexpr int64_t kMaxDecoderConstantBytes = int64_t(1) << 30;
/// Whether `description`'s decoder constants fit kMaxDecoderConstantBytes;
/// false with `why` they do not and the `fix`. Checked on the description's
/// buckets and again on those --buckets-from chooses.
bool decoderConstantsFit(const ModelDescription &description, std::string &why,
                         std::string &fix);

/// The precision called `name` ("bf16"), or nullopt with `why` it is not one
/// and the `fix`: for "fp16", why tc does not offer it; otherwise the
/// choices. For `[training] precision` and `tc-compile --precision`.
std::optional<support::Precision>
precisionFromName(std::string_view name, std::string &why, std::string &fix);

/// The largest description file tc reads (the shipped ones are about 2 KiB).
constexpr uint64_t kMaxDescriptionBytes = uint64_t(1) << 20;

/// A hash of the [model] settings that change what the parameters compute
/// without changing their table (names, shapes, offsets): heads, d_k and
/// d_v (transformer_base and Table 3's A rows have one table), LayerNorm's
/// epsilon, the positional encoding, the special ids. Never 0 (0 in a .tcx
/// or a checkpoint means "not recorded").
uint32_t modelSettingsFingerprint(const ModelConfig &model);

/// The most buckets a description (or --buckets-from) may have: every
/// bucket is compiled into the executable (a train step, an encoder and
/// decoders each), as every layer is.
inline constexpr int64_t kMaxBuckets = 64;

/// Why accumulation_steps > 1 cannot go with several buckets, and the fix.
std::string accumulationOverBuckets(int64_t accumulationSteps, size_t buckets);
inline constexpr const char *kAccumulationOverBucketsFix =
    "give [training] one bucket, or set accumulation_steps = 1 and train on "
    "more ranks (mpirun -np K)";

/// Whether the largest tensors of `bucket`'s step (logits [B, T, V],
/// attention scores [B, h, T, S], [B, T, d_ff], the activations [B, T,
/// d_model] and their projections [B, T, h x d_k]) hold at most 2^40
/// elements.
bool fitsTensorLimit(const ModelConfig &model, const Bucket &bucket);

/// The rows of a bucket of these lengths under a budget of `batchTokens`
/// tokens per side (training.batch_tokens), at least one.
int64_t rowsWithin(int64_t batchTokens, int64_t sourceLength,
                   int64_t targetLength);

/// Reads and checks a description. On any mistake, prints every error found
/// to `errors` and returns nullopt.
std::optional<ModelDescription> readModelDescription(const std::string &path,
                                                     llvm::raw_ostream &errors);

/// The same, from the description's `text` (`path` names it in messages).
std::optional<ModelDescription>
parseModelDescription(std::string_view text, const std::string &path,
                      llvm::raw_ostream &errors);

} // namespace tc

#endif // TC_COMPILER_FRONTEND_MODELDESCRIPTION_H
