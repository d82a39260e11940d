//===- VocabularyTest.cpp - checked SentencePiece models -------------------===//
//
// What runtime/data/VocabularyCheck.h promises beyond the refusals of
// test/Runtime/vocabulary-checks.test: a model SentencePiece wrote comes
// back byte for byte (so vocabulary.model files and fingerprints stay what
// they were), and the wire-format reader refuses what no serialiser writes.
//
//===----------------------------------------------------------------------===//

#include "runtime/data/NormalizerRules.h"
#include "runtime/data/ProtoWire.h"
#include "runtime/data/SubwordVocabulary.h"
#include "runtime/data/VocabularyCheck.h"
#include "support/FileBytes.h"

#include <gtest/gtest.h>

namespace tc::rt {
namespace {

std::unique_ptr<SubwordVocabulary> trained(SubwordAlgorithm algorithm) {
  std::vector<std::string> text = {"in the beginning", "en el principio",
                                   "and the earth", "y la tierra"};
  Vocabulary vocab;
  vocab.size = 24; // as many as unigram makes of this text
  std::string error;
  auto vocabulary = SubwordVocabulary::train({&text}, vocab, algorithm, error);
  EXPECT_TRUE(vocabulary) << error;
  return vocabulary;
}

TEST(Vocabulary, AModelSentencePieceWroteIsWrittenAgainByteForByte) {
  // Written by libsentencepiece's Python trainer, with the identity rule.
  std::string error;
  std::optional<std::string> model = support::readFileText(
      TC_SOURCE_DIR "/fuzz/seeds/identity-unigram.model", 1 << 20, error);
  ASSERT_TRUE(model) << error;
  std::optional<std::string> checked =
      checkVocabulary(*model, "identity-unigram.model", error);
  ASSERT_TRUE(checked) << error;
  EXPECT_EQ(*checked, *model);
}

TEST(Vocabulary, WhatTcTrainsPassesItsChecksUnchanged) {
  for (SubwordAlgorithm algorithm :
       {SubwordAlgorithm::Bpe, SubwordAlgorithm::Unigram}) {
    auto vocabulary = trained(algorithm);
    ASSERT_TRUE(vocabulary);
    std::string error;
    std::optional<std::string> again =
        checkVocabulary(vocabulary->serialized(), "trained", error);
    ASSERT_TRUE(again) << error;
    EXPECT_EQ(*again, vocabulary->serialized());
    EXPECT_EQ(vocabulary->fingerprint(),
              vocabularyFingerprint(vocabulary->serialized()));
    EXPECT_FALSE(vocabulary->encode("in the beginning").empty());
  }
  EXPECT_NE(trained(SubwordAlgorithm::Bpe)->fingerprint(),
            trained(SubwordAlgorithm::Unigram)->fingerprint());
}

TEST(Vocabulary, NormalizerTablesAreBuiltForTwoRulesOnly) {
  ASSERT_NE(normalizerTable("nmt_nfkc"), nullptr);
  EXPECT_GT(normalizerTable("nmt_nfkc")->size(), 100000u);
  ASSERT_NE(normalizerTable("identity"), nullptr);
  EXPECT_TRUE(normalizerTable("identity")->empty());
  EXPECT_EQ(normalizerTable("nfkc"), nullptr);
  EXPECT_EQ(normalizerTable(""), nullptr);
}

TEST(ProtoWire, ReadsAndWritesEveryWireType) {
  std::string bytes;
  appendProtoField(bytes, {1, WireType::Varint, 300, {}});
  appendProtoField(bytes, {2, WireType::Fixed32, 0x3f800000, {}});
  appendProtoField(bytes, {3, WireType::Bytes, 0, "abc"});
  appendProtoField(bytes, {536870911, WireType::Fixed64, ~0ull, {}});
  std::string error;
  auto fields = parseProtoMessage(bytes, error);
  ASSERT_TRUE(fields) << error;
  ASSERT_EQ(fields->size(), 4u);
  EXPECT_EQ((*fields)[0].value, 300u);
  EXPECT_EQ((*fields)[1].value, 0x3f800000u);
  EXPECT_EQ((*fields)[2].bytes, "abc");
  EXPECT_EQ((*fields)[3].number, 536870911u);
  EXPECT_EQ((*fields)[3].value, ~0ull);
}

TEST(ProtoWire, RefusesWhatNoSerialiserWrites) {
  std::string error;
  // A varint cut short, one of 11 bytes, a length past the end, a group,
  // field number 0.
  for (std::string_view bad :
       {std::string_view("\x08\x80", 2),
        std::string_view("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
                         12),
        std::string_view("\x1a\x05"
                         "ab",
                         4),
        std::string_view("\x0b", 1), std::string_view("\x00\x01", 2)})
    EXPECT_FALSE(parseProtoMessage(bad, error)) << "accepted " << bad.size();
  EXPECT_TRUE(parseProtoMessage("", error));
}

} // namespace
} // namespace tc::rt
