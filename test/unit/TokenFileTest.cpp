//===- TokenFileTest.cpp - token files, version 4 and before ---------------===//
//
// runtime/format/TokenFile.h: a written file reads back as the same pairs,
// from the file (and after it is cut short under the reader, an error, not
// a fault) and from bytes; the header's summary of the ids; a
// version 3 file (the layout written by hand here, as tc-run prepare wrote
// it before) reads as the same pairs with the summary counted; and every
// kind of damage to a version 4 file is refused by name, never read
// outside the file.
//
//===----------------------------------------------------------------------===//

#include "runtime/format/TokenFile.h"
#include "support/FileBytes.h"
#include "support/Fnv1a.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

namespace {

using namespace tc;
using rt::SentencePair;

rt::TokenData sample() {
  rt::TokenData data;
  data.pairs = {{{5, 6, 2}, {5, 6}},
                {{7, 2}, {}},
                {{9, 8, 7, 3, 2}, {3, 7, 8, 9}}};
  data.vocabulary = "not parsed here: any bytes"; // 26, padded to 32
  return data;
}

std::string temporary(const std::string &name) {
  return (std::filesystem::temp_directory_path() /
          (name + "." + std::to_string(::getpid())))
      .string();
}

void expectPairs(const rt::TokenTable &table, const rt::TokenData &data) {
  ASSERT_EQ(table.size(), data.pairs.size());
  EXPECT_EQ(table.vocabulary(), data.vocabulary);
  for (size_t i = 0; i < data.pairs.size(); ++i) {
    SentencePair pair;
    std::string error;
    ASSERT_TRUE(table.pair(i, pair, error)) << error;
    EXPECT_EQ(pair.source, data.pairs[i].source) << "pair " << i;
    EXPECT_EQ(pair.target, data.pairs[i].target) << "pair " << i;
  }
}

std::vector<uint8_t> written(const rt::TokenData &data) {
  std::string path = temporary("written.tok"), error;
  EXPECT_TRUE(rt::writeTokenFile(path, data, error)) << error;
  auto bytes = support::readFileBytes(path, 1 << 20, error);
  std::filesystem::remove(path);
  EXPECT_TRUE(bytes) << error;
  return bytes ? *bytes : std::vector<uint8_t>{};
}

TEST(TokenFile, Version4RoundTripsInPlaceAndFromBytes) {
  rt::TokenData data = sample();
  std::string path = temporary("v4.tok"), error;
  ASSERT_TRUE(rt::writeTokenFile(path, data, error)) << error;
  std::unique_ptr<rt::TokenTable> opened = rt::TokenTable::open(path, error);
  ASSERT_TRUE(opened) << error;
  EXPECT_EQ(opened->version(), 4u);
  expectPairs(*opened, data);
  std::filesystem::remove(path); // the open file keeps the pairs readable
  expectPairs(*opened, data);
  // Cut short under the reader (as `cp` over it would): an error, no fault.
  ASSERT_TRUE(rt::writeTokenFile(path, data, error)) << error;
  opened = rt::TokenTable::open(path, error);
  ASSERT_TRUE(opened) << error;
  std::filesystem::resize_file(path, 100);
  SentencePair pair;
  EXPECT_FALSE(opened->pair(2, pair, error));
  EXPECT_NE(error.find("pair 2 cannot be read: the file was cut short"),
            std::string::npos)
      << error;
  std::filesystem::remove(path);
  // 64 header + 26 vocabulary bytes padded to 32 + 16 ids + 3 x 16 index.
  std::vector<uint8_t> bytes = written(data);
  EXPECT_EQ(bytes.size(), 64u + 32 + 64 + 48);
  std::unique_ptr<rt::TokenTable> parsed =
      rt::TokenTable::parse(bytes, "v4.tok", error);
  ASSERT_TRUE(parsed) << error;
  expectPairs(*parsed, data);
  EXPECT_EQ(parsed->ids().smallest, 2);
  EXPECT_EQ(parsed->ids().largest, 9);
  EXPECT_EQ(parsed->ids().sourceEnd, 2);
}

TEST(TokenFile, HeaderSaysWhenSourcesEndDifferently) {
  rt::TokenData data = sample();
  data.pairs[1].source.back() = 4;
  std::string error;
  auto table = rt::TokenTable::parse(written(data), "mixed.tok", error);
  ASSERT_TRUE(table) << error;
  EXPECT_EQ(table->ids().sourceEnd, -1);
  rt::TokenData none;
  table = rt::TokenTable::parse(written(none), "empty.tok", error);
  ASSERT_TRUE(table) << error;
  EXPECT_EQ(table->size(), 0u);
  EXPECT_EQ(table->ids().largest, -1);
}

/// `data` as version 3 laid it out: header, vocabulary, then each pair's
/// lengths and ids.
std::vector<uint8_t> version3(const rt::TokenData &data) {
  std::vector<uint8_t> out(8);
  std::memcpy(out.data(), "TCTOKENS", 8);
  auto put = [&](const void *value, size_t size) {
    const auto *bytes = static_cast<const uint8_t *>(value);
    out.insert(out.end(), bytes, bytes + size);
  };
  uint32_t head[2] = {3, 0};
  uint64_t counts[3] = {
      data.pairs.size(), data.vocabulary.size(),
      support::fnv1a(data.vocabulary.data(), data.vocabulary.size())};
  put(head, 8);
  put(counts, 24);
  put(data.vocabulary.data(), data.vocabulary.size());
  for (const SentencePair &pair : data.pairs) {
    uint32_t lengths[2] = {uint32_t(pair.source.size()),
                           uint32_t(pair.target.size())};
    put(lengths, 8);
    put(pair.source.data(), 4 * pair.source.size());
    put(pair.target.data(), 4 * pair.target.size());
  }
  return out;
}

TEST(TokenFile, Version3ReadsAsBeforeWithItsSummaryCounted) {
  rt::TokenData data = sample();
  std::string error;
  auto table = rt::TokenTable::parse(version3(data), "v3.tok", error);
  ASSERT_TRUE(table) << error;
  EXPECT_EQ(table->version(), 3u);
  expectPairs(*table, data);
  EXPECT_EQ(table->ids().smallest, 2);
  EXPECT_EQ(table->ids().largest, 9);
  EXPECT_EQ(table->ids().sourceEnd, 2);
}

struct Damage {
  const char *name;
  void (*apply)(std::vector<uint8_t> &bytes);
  const char *error;
};

template <typename T> void store(std::vector<uint8_t> &bytes, size_t at, T v) {
  std::memcpy(bytes.data() + at, &v, sizeof v);
}

// Offsets in sample()'s file: ids from 96, the index from 160.
const Damage kDamages[] = {
    {"cut short by a byte",
     [](std::vector<uint8_t> &b) { b.pop_back(); },
     "truncated in the index (the header counts 3 pairs)"},
    {"a byte past the index",
     [](std::vector<uint8_t> &b) { b.push_back(0); },
     "trailing bytes after the index of 3 pairs"},
    {"cut inside the header",
     [](std::vector<uint8_t> &b) { b.resize(40); },
     "truncated in the header"},
    {"more ids than the file holds",
     [](std::vector<uint8_t> &b) { store<uint64_t>(b, 40, 1ull << 40); },
     "truncated in the ids (the header counts 1099511627776)"},
    {"more pairs than the index holds",
     [](std::vector<uint8_t> &b) { store<uint64_t>(b, 16, 1ull << 60); },
     "truncated in the index"},
    {"a vocabulary past the end",
     [](std::vector<uint8_t> &b) { store<uint64_t>(b, 24, 1ull << 62); },
     "truncated in the vocabulary"},
    {"a flipped vocabulary byte",
     [](std::vector<uint8_t> &b) { b[64] ^= 1; },
     "the vocabulary's checksum does not match its bytes"},
    {"reserved bytes set",
     [](std::vector<uint8_t> &b) { b[60] = 1; },
     "the header's reserved bytes are not zero"},
    {"a pair that starts elsewhere",
     [](std::vector<uint8_t> &b) { store<uint64_t>(b, 160 + 16, 4); },
     "index entry 1 does not follow the pair before it inside the 16 ids"},
    {"a pair longer than the ids",
     [](std::vector<uint8_t> &b) { store<uint32_t>(b, 160 + 32 + 8, 1000); },
     "index entry 2 does not follow the pair before it"},
    {"pairs shorter than the ids",
     [](std::vector<uint8_t> &b) { store<uint32_t>(b, 160 + 32 + 12, 3); },
     "the index covers 15 of the 16 ids"},
    {"a vocabulary's padding byte set",
     [](std::vector<uint8_t> &b) { b[64 + 27] = 1; },
     "its padding bytes are not zero"},
    {"a version from the future",
     [](std::vector<uint8_t> &b) { store<uint32_t>(b, 8, 5); },
     "token file version 5, this tc-run reads versions 1 to 4"},
    {"not a token file",
     [](std::vector<uint8_t> &b) { b[0] = 'X'; },
     "not a token file (no TCTOKENS header)"},
};

TEST(TokenFile, DamagedVersion4FilesAreRefusedByName) {
  std::vector<uint8_t> good = written(sample());
  for (const Damage &damage : kDamages) {
    std::vector<uint8_t> bytes = good;
    damage.apply(bytes);
    std::string error;
    EXPECT_FALSE(rt::TokenTable::parse(bytes, "bad.tok", error))
        << damage.name;
    EXPECT_EQ(error.rfind("bad.tok: ", 0), 0u)
        << damage.name << ": " << error;
    EXPECT_NE(error.find(damage.error), std::string::npos)
        << damage.name << ": " << error;
    EXPECT_NE(error.find("rebuild it with tc-run prepare"), std::string::npos)
        << damage.name << ": " << error;
  }
}

} // namespace
