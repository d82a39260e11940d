//===- ModelDescription.cpp - reading and checking model descriptions ----===//

#include "compiler/frontend/ModelDescription.h"
#include "compiler/transforms/TrainStepLimits.h"
#include "runtime/format/Contract.h"
#include "support/FileBytes.h"
#include "support/Fnv1a.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <set>
#include <tuple>

#include <toml++/toml.h>

namespace tc {
namespace {

// Upper bounds that keep every size and parameter count far from overflow.
// Layers: every layer is compiled into each function, so the bound is what
// compiles in reasonable time and memory (transformer_base's widths, on 2
// cores: 128 + 128 layers in about 200 s and 0.44 GB for one bucket, 226 s
// and 1.38 GB for its four; docs/performance.md, "Compile time by depth").
constexpr int64_t kMaxLayers = 128;
constexpr int64_t kMaxWidth = kMaxModelWidth; // d_model, d_ff, heads, d_k, d_v
constexpr int64_t kMaxLength = 1 << 20;       // max_length, batch
constexpr int64_t kMaxVocab = std::numeric_limits<int32_t>::max(); // i32 ids

const char *typeName(const toml::node &node) {
  switch (node.type()) {
  case toml::node_type::table:
    return "a table";
  case toml::node_type::array:
    return "an array";
  case toml::node_type::string:
    return "a string";
  case toml::node_type::integer:
    return "an integer";
  case toml::node_type::floating_point:
    return "a floating-point number";
  case toml::node_type::boolean:
    return "a boolean";
  default:
    return "a date or time";
  }
}

std::string formatNumber(double v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

/// The closest of `candidates` to `word`, if it is close (a typo).
std::string nearest(llvm::StringRef word,
                    const std::set<std::string> &candidates) {
  std::string best;
  unsigned bestDistance = 3;
  for (const std::string &c : candidates) {
    unsigned d = llvm::StringRef(c).edit_distance(word);
    if (d < bestDistance)
      bestDistance = d, best = c;
  }
  return best;
}

/// Collects `file:line:col: error:` diagnostics, each with an optional note,
/// and prints them in the order of the file.
class Diagnostics {
public:
  Diagnostics(std::string path, llvm::raw_ostream &os)
      : path(std::move(path)), os(os) {}
  ~Diagnostics() {
    std::stable_sort(
        entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
          return std::pair(a.line, a.column) < std::pair(b.line, b.column);
        });
    for (const Entry &e : entries) {
      std::string where = path;
      if (e.line)
        where += ":" + std::to_string(e.line) + ":" + std::to_string(e.column);
      os << where << ": error: " << e.message << "\n";
      if (!e.note.empty())
        os << where << ": note: " << e.note << "\n";
    }
  }

  void error(const toml::source_region &where, std::string message,
             std::string note) {
    entries.push_back({where.begin.line, where.begin.column, std::move(message),
                       std::move(note)});
  }
  /// An error about the whole file (no line).
  void error(std::string message, std::string note) {
    entries.push_back({0, 0, std::move(message), std::move(note)});
  }
  bool failed() const { return !entries.empty(); }

private:
  struct Entry {
    uint32_t line, column;
    std::string message, note;
  };
  std::string path;
  llvm::raw_ostream &os;
  std::vector<Entry> entries;
};

/// Reads the keys of one section, checking each one's type and range, and
/// reports the keys nobody asked for.
class Section {
public:
  Section(Diagnostics &diag, const toml::table &table, std::string name)
      : diag(diag), table(table), name(std::move(name)) {}

  /// Reads an integer in [min, max]; the note on a wrong value shows `out`'s
  /// current value (the default, brought into the range: a required key's
  /// is 0) as an example, and `rangeWhy` says where a bound comes from.
  /// Returns false on a mistake.
  bool integer(const char *key, int64_t &out, int64_t min, int64_t max,
               const std::string &rangeWhy = "") {
    const toml::node *node = find(key);
    if (!node)
      return true;
    if (!node->is_integer()) {
      wrongType(key, *node, "an integer",
                std::to_string(std::clamp(out, min, max)));
      return false;
    }
    int64_t value = *node->value<int64_t>();
    if (value < min || value > max) {
      diag.error(node->source(),
                 qualified(key) + " is " + std::to_string(value) +
                     ", outside its range",
                 "use a value in [" + std::to_string(min) + ", " +
                     std::to_string(max) + "]" + rangeWhy);
      return false;
    }
    out = value;
    return true;
  }

  /// A number in [min, maxExclusive).
  void real(const char *key, double &out, double min, double maxExclusive) {
    const toml::node *node = find(key);
    if (!node)
      return;
    if (!node->is_number())
      return wrongType(key, *node, "a number", formatNumber(out));
    // An integer converts with rounding: toml++'s value<double>() refuses
    // integers above 2^53, which it cannot represent exactly.
    double value = node->is_integer() ? double(*node->value<int64_t>())
                                      : *node->value<double>();
    if (!(value >= min && value < maxExclusive))
      return diag.error(node->source(),
                        qualified(key) + " is " + formatNumber(value) +
                            ", outside its range",
                        "use a value in [" + formatNumber(min) + ", " +
                            formatNumber(maxExclusive) + ")");
    out = value;
  }

  void boolean(const char *key, bool &out) {
    const toml::node *node = find(key);
    if (!node)
      return;
    if (!node->is_boolean())
      return wrongType(key, *node, "true or false", out ? "true" : "false");
    out = *node->value<bool>();
  }

  /// A string; when `choices` is not empty it must be one of them.
  void string(const char *key, std::string &out,
              const std::vector<std::string> &choices = {}) {
    const toml::node *node = find(key);
    if (!node)
      return;
    if (!node->is_string())
      return wrongType(
          key, *node, "a string",
          "\"" + (choices.empty() ? std::string("...") : choices.front()) +
              "\"");
    std::string value = *node->value<std::string>();
    if (!choices.empty() &&
        std::find(choices.begin(), choices.end(), value) == choices.end()) {
      std::string list;
      for (const std::string &c : choices)
        list += (list.empty() ? "\"" : ", \"") + c + "\"";
      return diag.error(node->source(),
                        qualified(key) + " is \"" + value +
                            "\", which is not a known value",
                        "use one of " + list);
    }
    out = value;
  }

  /// The node of `key` if present, marking the key as known.
  const toml::node *find(const char *key) {
    known.insert(key);
    return table.get(key);
  }

  /// Reports every key that no reader asked for, with the nearest known one.
  void rejectUnknownKeys() {
    for (auto &&[key, node] : table) {
      if (known.count(std::string(key.str())))
        continue;
      std::string best = nearest(key.str(), known);
      // "[model]" for a section, "training.buckets[0]" for a bucket.
      std::string where =
          llvm::StringRef(name).contains('[') ? name : "[" + name + "]";
      diag.error(key.source(),
                 "unknown key '" + std::string(key.str()) + "' in " + where,
                 best.empty() ? "see docs/model-description.md for the keys "
                                "of " +
                                    where
                              : "did you mean '" + best + "'?");
    }
  }

  std::string qualified(const char *key) const { return name + "." + key; }

private:
  void wrongType(const char *key, const toml::node &node, const char *want,
                 const std::string &example) {
    diag.error(node.source(),
               qualified(key) + " must be " + want + ", not " + typeName(node),
               "for example: " + std::string(key) + " = " + example);
  }

  Diagnostics &diag;
  const toml::table &table;
  std::string name;
  std::set<std::string> known;
};

const toml::source_region &whereOf(const toml::table &table, const char *key) {
  const toml::node *node = table.get(key);
  return node ? node->source() : table.source();
}

void readModel(Diagnostics &diag, const toml::table &table, ModelConfig &m) {
  Section s(diag, table, "model");
  const char *layersWhy = "; every layer is compiled into the executable";
  s.integer("encoder_layers", m.encoderLayers, 1, kMaxLayers, layersWhy);
  s.integer("decoder_layers", m.decoderLayers, 1, kMaxLayers, layersWhy);
  bool dModelOk = s.integer("d_model", m.dModel, 1, kMaxWidth);
  s.integer("d_ff", m.dFF, 1, kMaxWidth);
  bool headsOk = s.integer("heads", m.heads, 1, kMaxWidth);
  bool explicitDk = table.contains("d_k"), explicitDv = table.contains("d_v");
  s.integer("d_k", m.dK, 1, kMaxWidth);
  s.integer("d_v", m.dV, 1, kMaxWidth);
  s.real("dropout", m.dropout, 0.0, 1.0);
  s.real("attention_dropout", m.attentionDropout, 0.0, 1.0);
  s.real("relu_dropout", m.reluDropout, 0.0, 1.0);
  s.real("label_smoothing", m.labelSmoothing, 0.0, 1.0);
  s.real("layer_norm_epsilon", m.layerNormEpsilon, 1e-30,
         kMaxStepScalarExclusive);
  std::string positions = "sinusoid";
  s.string("positional_encoding", positions, {"sinusoid", "learned"});
  m.positionalEncoding = positions == "learned" ? PositionalEncoding::Learned
                                                : PositionalEncoding::Sinusoid;
  if (!s.find("vocab_size"))
    diag.error(table.source(), "[model] has no vocab_size",
               "add vocab_size = N, the size of the shared vocabulary");
  else
    s.integer("vocab_size", m.vocabSize, 3, kMaxVocab,
              "; padding, BOS and EOS take 3 ids");
  s.boolean("share_embeddings", m.shareEmbeddings);
  s.boolean("tie_output", m.tieOutput);
  s.integer("max_length", m.maxLength, 1, kMaxLength);
  bool idsOk = s.integer("pad_id", m.padId, 0, kMaxVocab);
  idsOk &= s.integer("bos_id", m.bosId, 0, kMaxVocab);
  idsOk &= s.integer("eos_id", m.eosId, 0, kMaxVocab);
  s.rejectUnknownKeys();

  // Per-head sizes default to d_model / heads, which must then divide.
  if ((!explicitDk || !explicitDv) && dModelOk && headsOk &&
      m.dModel % m.heads != 0)
    diag.error(whereOf(table, table.contains("heads") ? "heads" : "d_model"),
               "d_model " + std::to_string(m.dModel) +
                   " is not divisible by heads " + std::to_string(m.heads),
               "choose heads dividing d_model, or set d_k and d_v (the "
               "per-head sizes) explicitly");
  if (!explicitDk && m.dModel % m.heads == 0)
    m.dK = m.dModel / m.heads;
  if (!explicitDv && m.dModel % m.heads == 0)
    m.dV = m.dModel / m.heads;
  // The attention's projections are heads x d_k (and d_v) wide: the
  // products, not only their factors, stay within kMaxWidth (each factor
  // is at most 2^20, so the product does not overflow).
  // (A size neither given nor derived, d_model not divisible, is not one.)
  bool divides = dModelOk && headsOk && m.dModel % m.heads == 0;
  for (auto [key, perHead, known] : {std::tuple<const char *, int64_t, bool>{
                                         "d_k", m.dK, explicitDk || divides},
                                     {"d_v", m.dV, explicitDv || divides}})
    if (known && headsOk && perHead >= 1 && perHead <= kMaxWidth &&
        m.heads * perHead > kMaxWidth)
      diag.error(whereOf(table, table.contains(key) ? key : "heads"),
                 std::string("model.heads x model.") + key + " is " +
                     std::to_string(m.heads * perHead) + ", above " +
                     std::to_string(kMaxWidth) + ", the widest a layer may be",
                 std::string("use fewer heads or a smaller ") + key +
                     ": the attention's projections are heads x " + key +
                     " wide");

  if (!idsOk)
    return;
  const std::pair<const char *, int64_t> ids[] = {
      {"pad_id", m.padId}, {"bos_id", m.bosId}, {"eos_id", m.eosId}};
  for (auto [key, id] : ids)
    if (m.vocabSize > 0 && id >= m.vocabSize)
      diag.error(whereOf(table, key),
                 std::string("model.") + key + " " + std::to_string(id) +
                     " is outside the vocabulary of " +
                     std::to_string(m.vocabSize) + " tokens",
                 "ids are in [0, vocab_size)");
  for (size_t i = 0; i < 3; ++i)
    for (size_t j = 0; j < i; ++j)
      if (ids[i].second == ids[j].second)
        diag.error(whereOf(table, ids[i].first),
                   std::string("model.") + ids[i].first + " " +
                       std::to_string(ids[i].second) + " equals model." +
                       ids[j].first,
                   "padding, begin and end of sentence need distinct ids");
}

void readBuckets(Diagnostics &diag, Section &s, const toml::table &training,
                 const ModelConfig &model, int64_t batchTokens,
                 std::vector<Bucket> &buckets) {
  const toml::node *node = s.find("buckets");
  const char *example =
      "buckets = [{ batch = 32, source_length = 64, target_length = 64 }]";
  if (!node) {
    diag.error(training.source(), "[training] has no buckets",
               std::string("add the static shapes to compile for: ") + example);
    return;
  }
  const toml::array *array = node->as_array();
  if (!array || array->empty()) {
    diag.error(node->source(),
               "training.buckets must be a non-empty array of tables",
               std::string("for example: ") + example);
    return;
  }
  if (array->size() > size_t(kMaxBuckets)) {
    diag.error(node->source(),
               "training.buckets has " + std::to_string(array->size()) +
                   " buckets, more than " + std::to_string(kMaxBuckets),
               "every bucket is compiled into the executable; join buckets "
               "of similar lengths (tc-compile --buckets-from chooses them "
               "for a token file)");
    return;
  }
  std::string lengthWhy =
      " (up to model.max_length = " + std::to_string(model.maxLength) + ")";
  std::vector<size_t> indices; // of `buckets` in `array`
  for (size_t index = 0; index < array->size(); ++index) {
    const toml::node &item = *array->get(index);
    const toml::table *table = item.as_table();
    if (!table) {
      diag.error(item.source(),
                 std::string("a bucket must be a table, not ") + typeName(item),
                 std::string("for example: ") + example);
      continue;
    }
    std::string name = "training.buckets[" + std::to_string(index) + "]";
    Section b(diag, *table, name);
    Bucket bucket;
    bool complete = true;
    for (const char *key : {"batch", "source_length", "target_length"})
      if (!table->contains(key) &&
          !(batchTokens > 0 && std::string_view(key) == "batch")) {
        diag.error(item.source(), name + " has no " + key,
                   std::string("for example: ") + example +
                       (std::string_view(key) == "batch"
                            ? ", or set training.batch_tokens"
                            : ""));
        complete = false;
      }
    complete &= b.integer("batch", bucket.batch, 1, kMaxLength);
    complete &= b.integer("source_length", bucket.sourceLength, 1,
                          model.maxLength, lengthWhy);
    complete &= b.integer("target_length", bucket.targetLength, 1,
                          model.maxLength, lengthWhy);
    b.rejectUnknownKeys();
    if (!complete)
      continue;
    if (!table->contains("batch"))
      bucket.batch =
          rowsWithin(batchTokens, bucket.sourceLength, bucket.targetLength);
    if (!fitsTensorLimit(model, bucket)) {
      diag.error(item.source(),
                 name + " makes tensors of more than 2^40 elements (batch x "
                        "length x max(vocab_size, d_model, d_ff, heads x "
                        "d_k, heads x d_v, heads x length))",
                 "use a smaller batch or shorter lengths");
      continue;
    }
    for (size_t other = 0; other < buckets.size(); ++other) {
      const Bucket &earlier = buckets[other];
      // Its index in the TOML array (buckets in error were not kept).
      size_t earlierIndex = indices[other];
      if (earlier.sourceLength != bucket.sourceLength ||
          earlier.targetLength != bucket.targetLength)
        continue;
      // A batch goes to the first bucket of its lengths: a second one,
      // whatever its batch, would be compiled and never run.
      std::string lengths =
          "source_length " + std::to_string(bucket.sourceLength) +
          " and target_length " + std::to_string(bucket.targetLength);
      diag.error(item.source(),
                 earlier == bucket
                     ? name +
                           " repeats an earlier bucket with the same "
                           "batch, " +
                           lengths
                     : name + " has the " + lengths + " of training.buckets[" +
                           std::to_string(earlierIndex) +
                           "] with another batch: pairs go to the first "
                           "bucket of their lengths, so it would never train",
                 earlier == bucket
                     ? "remove one of them"
                     : "remove one of them, or give it other lengths");
      break;
    }
    buckets.push_back(bucket);
    indices.push_back(index);
  }
}

/// training.precision: a name of support/Precision.h.
void readPrecision(Diagnostics &diag, Section &s,
                   support::Precision &precision) {
  const toml::node *node = s.find("precision");
  if (!node)
    return;
  if (!node->is_string()) { // says it must be a string, such as "f32"
    std::vector<std::string> names;
    for (const support::PrecisionInfo &row : support::kPrecisions)
      names.emplace_back(row.name);
    std::string ignored;
    s.string("precision", ignored, names);
    return;
  }
  std::string why, fix;
  std::optional<support::Precision> named =
      precisionFromName(*node->value<std::string>(), why, fix);
  if (!named)
    return diag.error(node->source(),
                      s.qualified("precision") + " is \"" +
                          *node->value<std::string>() + "\": " + why,
                      fix);
  precision = *named;
}

void readTraining(Diagnostics &diag, const toml::table &table,
                  const ModelConfig &model, TrainingConfig &t) {
  Section s(diag, table, "training");
  s.integer("steps", t.steps, 1, contract::kMaxTrainingSteps);
  s.integer("batch_tokens", t.batchTokens, 1, int64_t(1) << 24);
  readBuckets(diag, s, table, model, t.batchTokens, t.buckets);
  s.real("adam_beta1", t.adamBeta1, 0.0, kMaxAdamBetaExclusive);
  s.real("adam_beta2", t.adamBeta2, 0.0, kMaxAdamBetaExclusive);
  s.real("adam_epsilon", t.adamEpsilon, 0.0, kMaxStepScalarExclusive);
  s.integer("warmup_steps", t.warmupSteps, 1, kMaxWarmupSteps);
  s.real("learning_rate_scale", t.learningRateScale, 0.0,
         kMaxStepScalarExclusive);
  s.real("gradient_clip", t.gradientClip, 0.0, kMaxStepScalarExclusive);
  s.integer("accumulation_steps", t.accumulationSteps, 1, kMaxAccumulationSteps,
            "; each micro-batch is unrolled into the compiled step");
  s.integer("seed", t.seed, 0, contract::kMaxSeed);
  s.real("allreduce_bucket_mb", t.allreduceBucketMb, 1.0 / 1024, 1024.0);
  readPrecision(diag, s, t.precision);
  s.integer("memory_budget", t.memoryBudget, 0,
            std::numeric_limits<int64_t>::max(),
            " bytes of a training step's activations (0: no budget)");
  s.rejectUnknownKeys();
  if (t.accumulationSteps > 1 && t.buckets.size() > 1)
    diag.error(whereOf(table, "accumulation_steps"),
               accumulationOverBuckets(t.accumulationSteps, t.buckets.size()),
               kAccumulationOverBucketsFix);
}

void readData(Diagnostics &diag, const toml::table &table, DataConfig &d) {
  Section s(diag, table, "data");
  s.string("synthetic", d.synthetic, {"copy", "reverse"});
  s.string("train", d.train);
  s.string("valid", d.valid);
  s.string("test", d.test);
  s.rejectUnknownKeys();
  if (!d.synthetic.empty() && !d.train.empty())
    diag.error(table.source(), "[data] names both synthetic and train",
               "use a synthetic task or training files, not both");
}

void readDecoding(Diagnostics &diag, const toml::table &table,
                  DecodingConfig &d) {
  Section s(diag, table, "decoding");
  bool rowsOk =
      s.integer("rows", d.rows, 1, 4096,
                "; every row of a decoder step is computed, sentence or not");
  bool beamOk =
      s.integer("beam", d.beam, 1, 256,
                "; the step returns each row's 2 x beam most probable tokens");
  s.rejectUnknownKeys();
  if (rowsOk && beamOk && d.rows < d.beam)
    diag.error(table.source(),
               "[decoding] rows = " + std::to_string(d.rows) +
                   " is fewer than beam = " + std::to_string(d.beam) +
                   ", but a sentence's hypotheses take beam rows of a "
                   "decoder step",
               "set rows to " + std::to_string(d.beam) +
                   " or more (a multiple of beam), or beam to " +
                   std::to_string(d.rows) + " or less");
}

} // namespace

std::optional<support::Precision>
precisionFromName(std::string_view name, std::string &why, std::string &fix) {
  if (std::optional<support::Precision> precision =
          support::precisionNamed(name))
    return precision;
  std::string lower = llvm::StringRef(name).lower();
  if (lower == "fp16" || lower == "f16" || lower == "float16" ||
      lower == "half") {
    why = "tc does not offer fp16";
    fix = "fp16's narrow range needs loss scaling to keep small gradients "
          "from flushing to zero; use bf16, which has f32's range and needs "
          "none (or f32)";
  } else {
    why = "not a precision";
    fix = "use " + support::precisionChoices() + " (docs/model-description.md)";
  }
  return std::nullopt;
}

int64_t decoderConstantBytes(const ModelDescription &description) {
  const ModelConfig &m = description.model;
  int64_t bytes = 0;
  for (const Bucket &bucket : decodingBuckets(description)) {
    int64_t table = m.positionalEncoding == PositionalEncoding::Sinusoid
                        ? bucket.targetLength * m.dModel
                        : 0;
    bytes += (table + m.vocabSize) * int64_t(sizeof(float));
  }
  return bytes;
}

bool decoderConstantsFit(const ModelDescription &description, std::string &why,
                         std::string &fix) {
  int64_t bytes = decoderConstantBytes(description);
  if (bytes <= kMaxDecoderConstantBytes)
    return true;
  why = "the decoder steps' constants would take " + std::to_string(bytes) +
        " bytes (per decoder shape, the sinusoids of its target positions, "
        "target_length x d_model, and a vocab_size mask, in f32), more than "
        "the 1 GiB tc-compile builds and stores";
  fix = "use a smaller [model] d_model or vocab_size, or fewer or shorter "
        "training buckets";
  return false;
}

std::vector<Bucket> decodingBuckets(const ModelDescription &description) {
  int64_t longestTarget = 0;
  std::set<int64_t> sourceLengths;
  for (const Bucket &b : description.training.buckets) {
    longestTarget = std::max(longestTarget, b.targetLength);
    sourceLengths.insert(b.sourceLength);
  }
  const DecodingConfig &decoding = description.decoding;
  std::vector<Bucket> buckets;
  for (int64_t s : sourceLengths) {
    int64_t targets = std::min(s + kDecodingLengthOffset, longestTarget);
    buckets.push_back({decoding.rows, s, targets});
    // One sentence's rows: a sentence decoded alone (tc-run translate
    // --batch-sentences 1, or the only one of its length) steps through
    // its own rows, not the whole batch's.
    if (decoding.beam < decoding.rows)
      buckets.push_back({decoding.beam, s, targets});
  }
  return buckets;
}

uint32_t modelSettingsFingerprint(const ModelConfig &m) {
  char text[256];
  std::snprintf(text, sizeof text,
                "heads %lld d_k %lld d_v %lld layer_norm_epsilon %.17g "
                "positions %d ids %lld %lld %lld",
                (long long)m.heads, (long long)m.dK, (long long)m.dV,
                m.layerNormEpsilon, int(m.positionalEncoding),
                (long long)m.padId, (long long)m.bosId, (long long)m.eosId);
  uint64_t hash = support::fnv1a(text, std::strlen(text));
  uint32_t folded = uint32_t(hash ^ (hash >> 32));
  return folded ? folded : 1;
}

std::string accumulationOverBuckets(int64_t accumulationSteps, size_t buckets) {
  // tc-run train cuts batches per bucket and draws them in any order: the
  // micro-batches of one step would often need a shape no bucket has.
  return "training.accumulation_steps = " + std::to_string(accumulationSteps) +
         " sums micro-batches of one " +
         "compiled shape per step, but there are " + std::to_string(buckets) +
         " shape buckets, and tc-run train cannot feed such a step";
}

bool fitsTensorLimit(const ModelConfig &model, const Bucket &bucket) {
  // The largest tensors of a step: logits [B, T, V] and attention scores
  // [B, h, T, S]; keep every element count far below int64's range.
  constexpr int64_t kMaxElements = int64_t(1) << 40;
  int64_t tokens =
      bucket.batch * std::max(bucket.sourceLength, bucket.targetLength);
  int64_t widest = std::max(
      {model.vocabSize, model.dModel, model.dFF, model.heads * model.dK,
       model.heads * model.dV,
       model.heads * std::max(bucket.sourceLength, bucket.targetLength)});
  return tokens <= kMaxElements / std::max<int64_t>(widest, 1);
}

int64_t rowsWithin(int64_t batchTokens, int64_t sourceLength,
                   int64_t targetLength) {
  return std::clamp<int64_t>(batchTokens / std::max(sourceLength, targetLength),
                             1, kMaxLength);
}

std::optional<ModelDescription>
readModelDescription(const std::string &path, llvm::raw_ostream &errors) {
  std::string why;
  std::optional<std::string> text =
      support::readFileText(path, kMaxDescriptionBytes, why);
  if (!text) {
    // `why` starts with the path, which the diagnostic prints.
    Diagnostics(path, errors)
        .error(why.substr(std::min(why.size(), path.size() + 2)),
               "see models/ for the shipped descriptions");
    return std::nullopt;
  }
  return parseModelDescription(*text, path, errors);
}

std::optional<ModelDescription>
parseModelDescription(std::string_view text, const std::string &path,
                      llvm::raw_ostream &errors) {
  Diagnostics diag(path, errors);
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error &e) {
    diag.error(e.source(), "invalid TOML: " + std::string(e.description()),
               "see docs/model-description.md for the format");
    return std::nullopt;
  }

  const std::set<std::string> sections = {"model", "training", "data",
                                          "decoding"};
  std::set<std::string> misspelt; // sections named by a near-miss key
  for (auto &&[key, node] : root) {
    if (sections.count(std::string(key.str())))
      continue;
    std::string best = nearest(key.str(), sections);
    if (!best.empty() && !root.contains(best))
      misspelt.insert(best);
    diag.error(key.source(),
               "unknown section or key '" + std::string(key.str()) +
                   "' at the top level",
               best.empty() ? "a description has the sections [model], "
                              "[training], [data] and [decoding]"
                            : "did you mean [" + best + "]?");
  }
  for (const char *name : {"model", "training", "data", "decoding"}) {
    const toml::node *node = root.get(name);
    if (node && !node->is_table())
      diag.error(node->source(),
                 std::string(name) + " must be a section [" + name + "], not " +
                     typeName(*node),
                 std::string("write [") + name +
                     "] on its own line, then "
                     "its keys; see models/tiny.toml");
    else if (!node &&
             (std::string(name) == "model" ||
              std::string(name) == "training") &&
             !misspelt.count(name))
      diag.error("missing section [" + std::string(name) + "]",
                 std::string("add [") + name +
                     "]; see models/transformer_base.toml for an example");
  }
  if (diag.failed())
    return std::nullopt;

  ModelDescription description;
  description.path = path;
  readModel(diag, *root.get("model")->as_table(), description.model);
  readTraining(diag, *root.get("training")->as_table(), description.model,
               description.training);
  if (const toml::table *decoding = root["decoding"].as_table())
    readDecoding(diag, *decoding, description.decoding);
  if (const toml::table *data = root["data"].as_table()) {
    readData(diag, *data, description.data);
    // A synthetic task draws its symbols after padding, BOS and EOS
    // (runtime/data/SyntheticTask.h).
    const ModelConfig &m = description.model;
    int64_t firstSymbol = std::max({m.padId, m.bosId, m.eosId}) + 1;
    if (!diag.failed() && !description.data.synthetic.empty() &&
        m.vocabSize <= firstSymbol)
      diag.error(data->source(),
                 "the " + description.data.synthetic +
                     " task needs symbols besides padding, BOS and EOS, but "
                     "vocab_size is " +
                     std::to_string(m.vocabSize),
                 "set [model] vocab_size to " +
                     std::to_string(firstSymbol + 1) + " or more");
    // tc-run train draws the task's pairs for the smallest bucket.
    std::vector<Bucket> sorted = description.training.buckets;
    contract::sortBySize(sorted);
    if (!diag.failed() && !description.data.synthetic.empty() &&
        contract::maxSyntheticSymbols(sorted.front()) < 1)
      diag.error(whereOf(*root["training"].as_table(), "buckets"),
                 "the " + description.data.synthetic +
                     " task draws its pairs for the smallest bucket, " +
                     std::to_string(sorted.front().sourceLength) + "x" +
                     std::to_string(sorted.front().targetLength) +
                     " (source x target length), which has no room for a "
                     "symbol and EOS",
                 "give that bucket source_length and target_length 2 or "
                 "more");
  }
  if (!diag.failed()) {
    std::string why, fix;
    if (!decoderConstantsFit(description, why, fix))
      diag.error(root.source(), why, fix);
  }
  if (diag.failed())
    return std::nullopt;
  return description;
}

} // namespace tc
