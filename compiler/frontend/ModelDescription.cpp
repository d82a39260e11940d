//===- ModelDescription.cpp - reading and checking model descriptions ----===//

#include "compiler/frontend/ModelDescription.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include <toml++/toml.h>

namespace tc {
namespace {

const char *typeName(const toml::node &node) {
  switch (node.type()) {
  case toml::node_type::table: return "a table";
  case toml::node_type::array: return "an array";
  case toml::node_type::string: return "a string";
  case toml::node_type::integer: return "an integer";
  case toml::node_type::floating_point: return "a floating-point number";
  case toml::node_type::boolean: return "a boolean";
  default: return "a date or time";
  }
}

/// Collects `file:line:col: error:` diagnostics, each with optional notes.
class Diagnostics {
public:
  Diagnostics(std::string path, llvm::raw_ostream &os)
      : path(std::move(path)), os(os) {}

  void error(const toml::source_region &where, const std::string &message,
             const std::string &note = "") {
    os << path << ":" << where.begin.line << ":" << where.begin.column
       << ": error: " << message << "\n";
    if (!note.empty())
      os << path << ":" << where.begin.line << ":" << where.begin.column
         << ": note: " << note << "\n";
    ++count;
  }
  void error(const std::string &message, const std::string &note) {
    os << path << ": error: " << message << "\n";
    if (!note.empty())
      os << path << ": note: " << note << "\n";
    ++count;
  }
  bool failed() const { return count > 0; }

private:
  std::string path;
  llvm::raw_ostream &os;
  int count = 0;
};

/// Reads the keys of one section, checking each one's type and range, and
/// reports the keys nobody asked for.
class Section {
public:
  Section(Diagnostics &diag, const toml::table &table, std::string name)
      : diag(diag), table(table), name(std::move(name)) {}

  void integer(const char *key, int64_t &out, int64_t min,
               int64_t max = std::numeric_limits<int64_t>::max()) {
    const toml::node *node = find(key);
    if (!node)
      return;
    if (!node->is_integer())
      return wrongType(key, *node, "an integer");
    int64_t value = *node->value<int64_t>();
    if (value < min || value > max)
      return diag.error(node->source(),
                        qualified(key) + " is " + std::to_string(value) +
                            ", outside its range",
                        rangeNote(std::to_string(min),
                                  max == std::numeric_limits<int64_t>::max()
                                      ? ""
                                      : std::to_string(max)));
    out = value;
  }

  /// A number in [min, maxExclusive) (or [min, inf) when maxExclusive is inf).
  void real(const char *key, double &out, double min, double maxExclusive) {
    const toml::node *node = find(key);
    if (!node)
      return;
    if (!node->is_number())
      return wrongType(key, *node, "a number");
    double value = *node->value<double>();
    if (!(value >= min && value < maxExclusive))
      return diag.error(
          node->source(),
          qualified(key) + " is " + formatNumber(value) + ", outside its range",
          "use a value in [" + formatNumber(min) + ", " +
              (std::isinf(maxExclusive) ? std::string("inf")
                                        : formatNumber(maxExclusive)) +
              ")");
    out = value;
  }

  void boolean(const char *key, bool &out) {
    const toml::node *node = find(key);
    if (!node)
      return;
    if (!node->is_boolean())
      return wrongType(key, *node, "true or false");
    out = *node->value<bool>();
  }

  /// A string; when `choices` is not empty it must be one of them.
  void string(const char *key, std::string &out,
              const std::vector<std::string> &choices = {}) {
    const toml::node *node = find(key);
    if (!node)
      return;
    if (!node->is_string())
      return wrongType(key, *node, "a string");
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

  /// The node of `key` if present, marking it as read.
  const toml::node *find(const char *key) {
    known.insert(key);
    return table.get(key);
  }

  bool has(const char *key) const { return table.contains(key); }

  /// Reports every key that no reader asked for, with the nearest known one.
  void rejectUnknownKeys() {
    for (auto &&[key, node] : table) {
      if (known.count(std::string(key.str())))
        continue;
      std::string best;
      unsigned bestDistance = 3; // suggest only close matches
      for (const std::string &k : known) {
        unsigned d = llvm::StringRef(k).edit_distance(key.str());
        if (d < bestDistance)
          bestDistance = d, best = k;
      }
      diag.error(key.source(),
                 "unknown key '" + std::string(key.str()) + "' in [" + name +
                     "]",
                 best.empty() ? "see docs/model-description.md for the keys "
                                "of [" + name + "]"
                              : "did you mean '" + best + "'?");
    }
  }

  std::string qualified(const char *key) const { return name + "." + key; }

private:
  void wrongType(const char *key, const toml::node &node, const char *want) {
    diag.error(node.source(),
               qualified(key) + " must be " + want + ", not " + typeName(node),
               "for example: " + std::string(key) + " = " + example(want));
  }
  static std::string example(const std::string &want) {
    if (want == "an integer") return "512";
    if (want == "a number") return "0.1";
    if (want == "true or false") return "true";
    return "\"...\"";
  }
  static std::string rangeNote(const std::string &min, const std::string &max) {
    return max.empty() ? "use a value >= " + min
                       : "use a value in [" + min + ", " + max + "]";
  }
  static std::string formatNumber(double v) {
    char buf[32];
    snprintf(buf, sizeof buf, "%g", v);
    return buf;
  }

  Diagnostics &diag;
  const toml::table &table;
  std::string name;
  std::set<std::string> known;
};

void readModel(Diagnostics &diag, const toml::table &table, ModelConfig &m) {
  Section s(diag, table, "model");
  const double inf = std::numeric_limits<double>::infinity();
  s.integer("encoder_layers", m.encoderLayers, 1);
  s.integer("decoder_layers", m.decoderLayers, 1);
  s.integer("d_model", m.dModel, 1);
  s.integer("d_ff", m.dFF, 1);
  s.integer("heads", m.heads, 1);
  bool explicitDk = s.has("d_k"), explicitDv = s.has("d_v");
  s.integer("d_k", m.dK, 1);
  s.integer("d_v", m.dV, 1);
  s.real("dropout", m.dropout, 0.0, 1.0);
  s.real("attention_dropout", m.attentionDropout, 0.0, 1.0);
  s.real("relu_dropout", m.reluDropout, 0.0, 1.0);
  s.real("label_smoothing", m.labelSmoothing, 0.0, 1.0);
  s.real("layer_norm_epsilon", m.layerNormEpsilon, 1e-30, inf);
  std::string positions = "sinusoid";
  s.string("positional_encoding", positions, {"sinusoid", "learned"});
  m.positionalEncoding = positions == "learned" ? PositionalEncoding::Learned
                                                : PositionalEncoding::Sinusoid;
  const toml::node *vocab = s.find("vocab_size");
  if (!vocab)
    diag.error(table.source(), "[model] has no vocab_size",
               "add vocab_size = N, the size of the shared vocabulary");
  else
    s.integer("vocab_size", m.vocabSize, 2);
  s.boolean("share_embeddings", m.shareEmbeddings);
  s.boolean("tie_output", m.tieOutput);
  s.integer("max_length", m.maxLength, 1);
  s.integer("pad_id", m.padId, 0);
  s.integer("bos_id", m.bosId, 0);
  s.integer("eos_id", m.eosId, 0);
  s.rejectUnknownKeys();

  // Per-head sizes default to d_model / heads, which must then divide.
  if ((!explicitDk || !explicitDv) && m.heads > 0 && m.dModel % m.heads != 0)
    diag.error(table.get("heads") ? table.get("heads")->source()
                                  : table.source(),
               "d_model " + std::to_string(m.dModel) +
                   " is not divisible by heads " + std::to_string(m.heads),
               "choose heads dividing d_model, or set d_k and d_v (the "
               "per-head sizes) explicitly");
  if (!explicitDk && m.dModel % m.heads == 0)
    m.dK = m.dModel / m.heads;
  if (!explicitDv && m.dModel % m.heads == 0)
    m.dV = m.dModel / m.heads;
  for (auto [key, id] : {std::pair{"pad_id", m.padId}, {"bos_id", m.bosId},
                         {"eos_id", m.eosId}})
    if (m.vocabSize > 0 && id >= m.vocabSize)
      diag.error(table.get(key) ? table.get(key)->source() : table.source(),
                 std::string("model.") + key + " " + std::to_string(id) +
                     " is outside the vocabulary of " +
                     std::to_string(m.vocabSize) + " tokens",
                 "ids are in [0, vocab_size)");
}

void readBuckets(Diagnostics &diag, Section &s, const toml::table &training,
                 const ModelConfig &model, std::vector<Bucket> &buckets) {
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
  for (const toml::node &item : *array) {
    const toml::table *table = item.as_table();
    if (!table) {
      diag.error(item.source(),
                 std::string("a bucket must be a table, not ") + typeName(item),
                 std::string("for example: ") + example);
      continue;
    }
    Section b(diag, *table, "training.buckets");
    Bucket bucket;
    for (const char *key : {"batch", "source_length", "target_length"})
      if (!table->contains(key))
        diag.error(item.source(), std::string("a bucket has no ") + key,
                   std::string("for example: ") + example);
    b.integer("batch", bucket.batch, 1);
    b.integer("source_length", bucket.sourceLength, 1, model.maxLength);
    b.integer("target_length", bucket.targetLength, 1, model.maxLength);
    b.rejectUnknownKeys();
    buckets.push_back(bucket);
  }
}

void readTraining(Diagnostics &diag, const toml::table &table,
                  const ModelConfig &model, TrainingConfig &t) {
  Section s(diag, table, "training");
  const double inf = std::numeric_limits<double>::infinity();
  s.integer("steps", t.steps, 1);
  readBuckets(diag, s, table, model, t.buckets);
  s.real("adam_beta1", t.adamBeta1, 0.0, 1.0);
  s.real("adam_beta2", t.adamBeta2, 0.0, 1.0);
  s.real("adam_epsilon", t.adamEpsilon, 0.0, inf);
  s.integer("warmup_steps", t.warmupSteps, 1);
  s.real("learning_rate_scale", t.learningRateScale, 0.0, inf);
  s.real("gradient_clip", t.gradientClip, 0.0, inf);
  s.integer("accumulation_steps", t.accumulationSteps, 1);
  s.integer("seed", t.seed, 0);
  s.rejectUnknownKeys();
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

} // namespace

std::optional<ModelDescription> readModelDescription(const std::string &path,
                                                     llvm::raw_ostream &errors) {
  Diagnostics diag(path, errors);
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error &e) {
    if (!e.source().begin) // the file could not be read at all
      diag.error(std::string(e.description()), "");
    else
      diag.error(e.source(), std::string(e.description()),
                 "the file must be TOML; see docs/model-description.md");
    return std::nullopt;
  }
  ModelDescription description;
  description.path = path;

  for (auto &&[key, node] : root)
    if (key.str() != "model" && key.str() != "training" && key.str() != "data")
      diag.error(key.source(),
                 "unknown section or key '" + std::string(key.str()) +
                     "' at the top level",
                 "a description has the sections [model], [training] and "
                 "[data]");

  const char *required[] = {"model", "training"};
  for (const char *name : required)
    if (!root.contains(name) || !root.get(name)->is_table())
      diag.error("missing section [" + std::string(name) + "]",
                 std::string("add [") + name +
                     "]; see models/transformer_base.toml for an example");
  if (diag.failed())
    return std::nullopt;

  readModel(diag, *root.get("model")->as_table(), description.model);
  readTraining(diag, *root.get("training")->as_table(), description.model,
               description.training);
  if (const toml::node *data = root.get("data")) {
    if (const toml::table *table = data->as_table())
      readData(diag, *table, description.data);
    else
      diag.error(data->source(), "data must be a section [data]", "");
  }
  if (diag.failed())
    return std::nullopt;
  return description;
}

} // namespace tc
