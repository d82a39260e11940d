//===- VocabularyCheck.cpp - a SentencePiece model tc could have trained --===//

#include "runtime/data/VocabularyCheck.h"
#include "runtime/data/NormalizerRules.h"
#include "runtime/data/ProtoWire.h"
#include "support/Utf8.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <span>
#include <unordered_map>
#include <vector>

namespace tc::rt {
namespace {

/// How a field's value is written, as sentencepiece_model.proto types it.
enum class Kind { Int32, UInt64, Bool, Float, String, Bytes, Message };

struct FieldSpec {
  uint32_t number;
  const char *name;
  Kind kind;
  bool repeated = false;
};

// SentencePiece 0.1.97's sentencepiece_model.proto, every field.
constexpr FieldSpec kModelProto[] = {
    {1, "pieces", Kind::Message, true},
    {2, "trainer_spec", Kind::Message},
    {3, "normalizer_spec", Kind::Message},
    {4, "self_test_data", Kind::Message},
    {5, "denormalizer_spec", Kind::Message},
};
constexpr FieldSpec kSentencePiece[] = {
    {1, "piece", Kind::String},
    {2, "score", Kind::Float},
    {3, "type", Kind::Int32},
};
constexpr FieldSpec kTrainerSpec[] = {
    {1, "input", Kind::String, true},
    {2, "model_prefix", Kind::String},
    {3, "model_type", Kind::Int32},
    {4, "vocab_size", Kind::Int32},
    {5, "accept_language", Kind::String, true},
    {6, "self_test_sample_size", Kind::Int32},
    {7, "input_format", Kind::String},
    {10, "character_coverage", Kind::Float},
    {11, "input_sentence_size", Kind::UInt64},
    {12, "mining_sentence_size", Kind::Int32},
    {13, "training_sentence_size", Kind::Int32},
    {14, "seed_sentencepiece_size", Kind::Int32},
    {15, "shrinking_factor", Kind::Float},
    {16, "num_threads", Kind::Int32},
    {17, "num_sub_iterations", Kind::Int32},
    {18, "max_sentence_length", Kind::Int32},
    {19, "shuffle_input_sentence", Kind::Bool},
    {20, "max_sentencepiece_length", Kind::Int32},
    {21, "split_by_unicode_script", Kind::Bool},
    {22, "split_by_whitespace", Kind::Bool},
    {23, "split_by_number", Kind::Bool},
    {24, "treat_whitespace_as_suffix", Kind::Bool},
    {25, "split_digits", Kind::Bool},
    {26, "allow_whitespace_only_pieces", Kind::Bool},
    {30, "control_symbols", Kind::String, true},
    {31, "user_defined_symbols", Kind::String, true},
    {32, "vocabulary_output_piece_score", Kind::Bool},
    {33, "hard_vocab_limit", Kind::Bool},
    {34, "use_all_vocab", Kind::Bool},
    {35, "byte_fallback", Kind::Bool},
    {36, "required_chars", Kind::String},
    {40, "unk_id", Kind::Int32},
    {41, "bos_id", Kind::Int32},
    {42, "eos_id", Kind::Int32},
    {43, "pad_id", Kind::Int32},
    {44, "unk_surface", Kind::String},
    {45, "unk_piece", Kind::String},
    {46, "bos_piece", Kind::String},
    {47, "eos_piece", Kind::String},
    {48, "pad_piece", Kind::String},
    {49, "train_extremely_large_corpus", Kind::Bool},
    {50, "enable_differential_privacy", Kind::Bool},
    {51, "differential_privacy_noise_level", Kind::Float},
    {52, "differential_privacy_clipping_threshold", Kind::UInt64},
};
constexpr FieldSpec kNormalizerSpec[] = {
    {1, "name", Kind::String},
    {2, "precompiled_charsmap", Kind::Bytes},
    {3, "add_dummy_prefix", Kind::Bool},
    {4, "remove_extra_whitespaces", Kind::Bool},
    {5, "escape_whitespaces", Kind::Bool},
    {6, "normalization_rule_tsv", Kind::String},
};

// Field numbers the checks below read.
enum : uint32_t {
  kPieces = 1,
  kTrainer = 2,
  kNormalizer = 3,
  kSelfTest = 4,
  kDenormalizer = 5,
  kPieceText = 1,
  kPieceScore = 2,
  kPieceType = 3,
  kModelType = 3,
  kVocabSize = 4,
  kMaxPieceLength = 20,
  kWhitespaceSuffix = 24,
  kWhitespaceOnly = 26,
  kControlSymbols = 30,
  kUserSymbols = 31,
  kByteFallback = 35,
  kUnkId = 40,
  kBosId = 41,
  kEosId = 42,
  kPadId = 43,
  kUnkSurface = 44,
  kUnkPiece = 45,
  kBosPiece = 46,
  kEosPiece = 47,
  kPadPiece = 48,
  kRuleName = 1,
  kCharsmap = 2,
  kDummyPrefix = 3,
  kExtraWhitespaces = 4,
  kEscapeWhitespaces = 5,
  kRuleTsv = 6,
};

// sentencepiece_model.proto's piece types.
enum PieceType : int64_t {
  Normal = 1,
  Unknown = 2,
  Control = 3,
  UserDefined = 4,
  Unused = 5,
  Byte = 6
};

const char *pieceTypeName(int64_t type) {
  switch (type) {
  case Normal:
    return "normal";
  case Unknown:
    return "unknown";
  case Control:
    return "control";
  case UserDefined:
    return "user-defined";
  case Unused:
    return "unused";
  case Byte:
    return "byte";
  default:
    return "none that SentencePiece knows";
  }
}

std::string formatFloat(float value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", double(value));
  return text;
}

/// A message whose fields were checked against its schema: known numbers,
/// their wire types, singular fields once, values in their type's range.
class Message {
public:
  std::vector<ProtoField> fields;

  const ProtoField *find(uint32_t number) const {
    for (const ProtoField &field : fields)
      if (field.number == number)
        return &field;
    return nullptr;
  }
  int64_t integer(uint32_t number, int64_t otherwise) const {
    const ProtoField *field = find(number);
    return field ? int64_t(field->value) : otherwise;
  }
  bool flag(uint32_t number, bool otherwise) const {
    const ProtoField *field = find(number);
    return field ? field->value != 0 : otherwise;
  }
  std::string_view text(uint32_t number, std::string_view otherwise) const {
    const ProtoField *field = find(number);
    return field ? field->bytes : otherwise;
  }
  float real(uint32_t number, float otherwise) const {
    const ProtoField *field = find(number);
    if (!field)
      return otherwise;
    float value;
    uint32_t bits = uint32_t(field->value);
    std::memcpy(&value, &bits, 4);
    return value;
  }
  /// The fields in number order (repeated ones in theirs), as protobuf's
  /// serialisers write them.
  std::string serialize() const {
    std::vector<ProtoField> ordered = fields;
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const ProtoField &a, const ProtoField &b) {
                       return a.number < b.number;
                     });
    std::string out;
    for (const ProtoField &field : ordered)
      appendProtoField(out, field);
    return out;
  }
};

/// What makes `field` a value of its kind; empty when it is one.
std::string checkValue(const ProtoField &field, const FieldSpec &spec,
                       const std::string &path) {
  WireType wants = spec.kind == Kind::Float ? WireType::Fixed32
                   : spec.kind == Kind::String || spec.kind == Kind::Bytes ||
                           spec.kind == Kind::Message
                       ? WireType::Bytes
                       : WireType::Varint;
  if (field.type != wants)
    return path + " has wire type " + std::to_string(int(field.type)) +
           ", not " + std::to_string(int(wants)) + " as its type needs";
  switch (spec.kind) {
  case Kind::Int32: {
    // Negative int32s are written sign-extended to 64 bits.
    int64_t value = int64_t(field.value);
    if (value < INT32_MIN || value > INT32_MAX)
      return path + " is not a 32-bit integer";
    return "";
  }
  case Kind::Bool:
    if (field.value > 1)
      return path + " is " + std::to_string(field.value) +
             ", not a boolean (0 or 1)";
    return "";
  case Kind::String:
    if (support::findInvalidUtf8(field.bytes))
      return path + " is not UTF-8";
    return "";
  default:
    return "";
  }
}

/// The fields of `bytes` checked against `schema`; none with `problem`.
/// `path` names the message in problems ("trainer_spec", "pieces[3]").
std::optional<Message> readMessage(std::string_view bytes,
                                   std::span<const FieldSpec> schema,
                                   const std::string &path,
                                   std::string &problem) {
  std::string wireError;
  std::optional<std::vector<ProtoField>> fields =
      parseProtoMessage(bytes, wireError);
  if (!fields) {
    problem = path + ": " + wireError;
    return std::nullopt;
  }
  Message message;
  for (const ProtoField &field : *fields) {
    auto spec =
        std::find_if(schema.begin(), schema.end(), [&](const FieldSpec &s) {
          return s.number == field.number;
        });
    if (spec == schema.end()) {
      problem = "field " + std::to_string(field.number) + " of " + path +
                " is none that SentencePiece 0.1.97 knows";
      return std::nullopt;
    }
    std::string name =
        path == "ModelProto" ? spec->name : path + "." + spec->name;
    if (!spec->repeated && message.find(field.number)) {
      problem = name + " appears twice";
      return std::nullopt;
    }
    problem = checkValue(field, *spec, name);
    if (!problem.empty())
      return std::nullopt;
    message.fields.push_back(field);
  }
  return message;
}

/// The checks of a model's pieces, ids and specs; each returns the problem
/// ("" when none) in terms of the model's fields.
class ModelChecks {
public:
  ModelChecks(const std::vector<Message> &pieces, const Message &trainer,
              const Message &normalizer)
      : pieces(pieces), trainer(trainer), normalizer(normalizer) {}

  std::string trainerSpec() const {
    int64_t type = trainer.integer(kModelType, 1);
    if (type != 1 && type != 2)
      return "trainer_spec.model_type is " + std::to_string(type) +
             "; tc trains unigram (1) or bpe (2) vocabularies";
    int64_t size = trainer.integer(kVocabSize, 8000);
    if (size != int64_t(pieces.size()))
      return "trainer_spec.vocab_size is " + std::to_string(size) +
             " but the model has " + std::to_string(pieces.size()) + " pieces";
    int64_t longest = trainer.integer(kMaxPieceLength, 16);
    if (longest < 1 || longest > kMaxPieceCharacters)
      return "trainer_spec.max_sentencepiece_length is " +
             std::to_string(longest) + "; tc reads pieces of at most " +
             std::to_string(kMaxPieceCharacters) + " characters";
    // What changes how text is split, or what the special pieces are:
    // tc-run prepare leaves all of it at SentencePiece's defaults.
    for (auto [number, name] :
         {std::pair{kWhitespaceSuffix, "treat_whitespace_as_suffix"},
          {kWhitespaceOnly, "allow_whitespace_only_pieces"},
          {kByteFallback, "byte_fallback"}})
      if (trainer.flag(number, false))
        return std::string("trainer_spec.") + name +
               " is true; tc never changes it from false";
    for (auto [number, name] : {std::pair{kControlSymbols, "control_symbols"},
                                {kUserSymbols, "user_defined_symbols"}})
      if (trainer.find(number))
        return std::string("trainer_spec.") + name +
               " is set; tc never sets it";
    for (auto [number, name, usual] :
         {std::tuple{kUnkSurface, "unk_surface", " \xE2\x81\x87 "},
          {kUnkPiece, "unk_piece", "<unk>"},
          {kBosPiece, "bos_piece", "<s>"},
          {kEosPiece, "eos_piece", "</s>"},
          {kPadPiece, "pad_piece", "<pad>"}})
      if (trainer.text(number, usual) != usual)
        return std::string("trainer_spec.") + name + " is '" +
               std::string(trainer.text(number, usual)) +
               "'; tc never changes it from '" + usual + "'";
    return "";
  }

  std::string normalizerSpec() const {
    std::string_view rule = normalizer.text(kRuleName, "");
    const std::string *table = normalizerTable(rule);
    if (!table)
      return "normalizer_spec.name is '" + std::string(rule) +
             "'; tc's vocabularies normalise with '" +
             std::string(kTrainedNormalizer) +
             "' (what tc-run prepare trains) or 'identity'";
    if (normalizer.text(kCharsmap, "") != *table)
      return "normalizer_spec.precompiled_charsmap is not the table "
             "SentencePiece builds for the rule '" +
             std::string(rule) + "' (the file is damaged or was edited)";
    for (auto [number, name] : {std::pair{kDummyPrefix, "add_dummy_prefix"},
                                {kExtraWhitespaces, "remove_extra_whitespaces"},
                                {kEscapeWhitespaces, "escape_whitespaces"}})
      if (!normalizer.flag(number, true))
        return std::string("normalizer_spec.") + name +
               " is false; tc never changes it from true";
    if (!normalizer.text(kRuleTsv, "").empty())
      return "normalizer_spec.normalization_rule_tsv is set; tc never sets it";
    return "";
  }

  /// The special ids: unknown in the pieces, the others there or -1 (none),
  /// no two alike.
  std::string specialIds() const {
    int64_t count = int64_t(pieces.size());
    std::vector<int64_t> seen;
    for (auto [number, name, lowest] :
         {std::tuple{kUnkId, "unk_id", int64_t(0)},
          {kBosId, "bos_id", int64_t(-1)},
          {kEosId, "eos_id", int64_t(-1)},
          {kPadId, "pad_id", int64_t(-1)}}) {
      int64_t id = trainer.integer(number, defaultId(number));
      if (id < lowest || id >= count)
        return std::string("trainer_spec.") + name + " is " +
               std::to_string(id) + ", outside the " + std::to_string(count) +
               " pieces";
      if (id >= 0 && std::find(seen.begin(), seen.end(), id) != seen.end())
        return std::string("trainer_spec.") + name + " is " +
               std::to_string(id) + ", the id of another special piece";
      seen.push_back(id);
    }
    return "";
  }

  std::string piecesAreTrainable() const {
    int64_t longest = trainer.integer(kMaxPieceLength, 16);
    std::unordered_map<std::string_view, size_t> index;
    for (size_t i = 0; i < pieces.size(); ++i) {
      const Message &piece = pieces[i];
      std::string at = "pieces[" + std::to_string(i) + "]";
      std::string_view text = piece.text(kPieceText, "");
      if (text.empty())
        return at + ".piece is empty";
      // libsentencepiece's trie (Darts) throws on a NUL in a key: an abort.
      if (text.find('\0') != std::string_view::npos)
        return at + ".piece holds a NUL byte, which libsentencepiece cannot "
                    "index";
      auto [earlier, fresh] = index.emplace(text, i);
      if (!fresh)
        return at + ".piece is also pieces[" + std::to_string(earlier->second) +
               "]'s";
      float score = piece.real(kPieceScore, 0);
      if (!std::isfinite(score) || score > 0)
        return at + ".score is " + formatFloat(score) +
               "; a vocabulary's scores are finite and at most 0 "
               "(log-probabilities, or minus the merge's rank)";
      int64_t type = piece.integer(kPieceType, Normal);
      if (std::string problem = specialType(i, type); !problem.empty())
        return at + problem;
      int64_t characters = 0;
      for (char byte : text)
        characters += (uint8_t(byte) & 0xC0) != 0x80;
      if (type == Normal && characters > longest)
        return at + ".piece has " + std::to_string(characters) +
               " characters; trainer_spec.max_sentencepiece_length is " +
               std::to_string(longest);
    }
    return "";
  }

private:
  static int64_t defaultId(uint32_t number) {
    return number == kUnkId   ? 0
           : number == kBosId ? 1
           : number == kEosId ? 2
                              : -1;
  }

  /// What is wrong with piece `i` having `type` (given the special ids),
  /// as ".type is ..."; empty when nothing.
  std::string specialType(size_t i, int64_t type) const {
    int64_t id = int64_t(i);
    auto idOf = [&](uint32_t number) {
      return trainer.integer(number, defaultId(number));
    };
    bool unknown = id == idOf(kUnkId);
    bool control =
        id == idOf(kBosId) || id == idOf(kEosId) || id == idOf(kPadId);
    std::string is =
        ".type is " + std::to_string(type) + " (" + pieceTypeName(type) + ")";
    if (type != Normal && type != Unknown && type != Control)
      return is + "; tc trains only normal pieces besides the special ones";
    if (unknown && type != Unknown)
      return is + " but trainer_spec.unk_id is " + std::to_string(id);
    if (control && type != Control)
      return is + " but it is the id of a special piece (bos, eos or pad)";
    if (type == Unknown && !unknown)
      return is + " but trainer_spec.unk_id is " + std::to_string(idOf(kUnkId));
    if (type == Control && !control)
      return is + " but it is none of trainer_spec.bos_id, eos_id and "
                  "pad_id";
    // libsentencepiece finds the special ids by these names.
    uint32_t nameField = unknown              ? kUnkPiece
                         : id == idOf(kBosId) ? kBosPiece
                         : id == idOf(kEosId) ? kEosPiece
                                              : kPadPiece;
    std::string_view usual = nameField == kUnkPiece   ? "<unk>"
                             : nameField == kBosPiece ? "<s>"
                             : nameField == kEosPiece ? "</s>"
                                                      : "<pad>";
    if (type != Normal &&
        pieces[i].text(kPieceText, "") != trainer.text(nameField, usual))
      return ".piece is '" + std::string(pieces[i].text(kPieceText, "")) +
             "', not the special piece '" +
             std::string(trainer.text(nameField, usual)) + "' of its id";
    return "";
  }

  const std::vector<Message> &pieces;
  const Message &trainer;
  const Message &normalizer;
};

} // namespace

std::optional<std::string> checkVocabulary(std::string_view model,
                                           const std::string &name,
                                           std::string &error) {
  auto refuse = [&](const std::string &problem) {
    error = name + ": " + problem +
            "; give the vocabulary.model that tc-run prepare and train "
            "wrote, or prepare the data again without --vocabulary";
    return std::nullopt;
  };
  std::string problem;
  std::optional<Message> top =
      readMessage(model, kModelProto, "ModelProto", problem);
  if (!top) {
    error = name +
            ": not a SentencePiece model (give the .model file that "
            "spm_train or tc-run prepare wrote): " +
            problem;
    return std::nullopt;
  }
  std::vector<Message> pieces;
  for (const ProtoField &field : top->fields)
    if (field.number == kPieces) {
      std::optional<Message> piece =
          readMessage(field.bytes, kSentencePiece,
                      "pieces[" + std::to_string(pieces.size()) + "]", problem);
      if (!piece)
        return refuse(problem);
      pieces.push_back(std::move(*piece));
    }
  for (auto [number, what] : {std::pair{kSelfTest, "self_test_data"},
                              {kDenormalizer, "denormalizer_spec"}})
    if (top->find(number))
      return refuse(std::string(what) + " is set; tc never trains one");
  const ProtoField *trainerField = top->find(kTrainer);
  const ProtoField *normalizerField = top->find(kNormalizer);
  if (!trainerField || !normalizerField || pieces.empty())
    return refuse(std::string(!trainerField      ? "trainer_spec"
                              : !normalizerField ? "normalizer_spec"
                                                 : "pieces") +
                  " is missing; every model SentencePiece trains has it");
  std::optional<Message> trainer =
      readMessage(trainerField->bytes, kTrainerSpec, "trainer_spec", problem);
  if (!trainer)
    return refuse(problem);
  std::optional<Message> normalizer = readMessage(
      normalizerField->bytes, kNormalizerSpec, "normalizer_spec", problem);
  if (!normalizer)
    return refuse(problem);

  ModelChecks checks(pieces, *trainer, *normalizer);
  for (std::string (ModelChecks::*check)() const :
       {&ModelChecks::trainerSpec, &ModelChecks::normalizerSpec,
        &ModelChecks::specialIds, &ModelChecks::piecesAreTrainable})
    if (std::string problem = (checks.*check)(); !problem.empty())
      return refuse(problem);

  // Written again from what was checked; the normaliser's table is the one
  // built for its rule, never the file's bytes.
  std::string out;
  for (const Message &piece : pieces) {
    std::string bytes = piece.serialize();
    appendProtoField(out, {kPieces, WireType::Bytes, 0, bytes});
  }
  std::string trainerBytes = trainer->serialize();
  appendProtoField(out, {kTrainer, WireType::Bytes, 0, trainerBytes});
  for (ProtoField &field : normalizer->fields)
    if (field.number == kCharsmap)
      field.bytes = *normalizerTable(normalizer->text(kRuleName, ""));
  std::string normalizerBytes = normalizer->serialize();
  appendProtoField(out, {kNormalizer, WireType::Bytes, 0, normalizerBytes});
  return out;
}

} // namespace tc::rt
