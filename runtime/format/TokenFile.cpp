//===- TokenFile.cpp - binarised sentence pairs ---------------------------===//

#include "runtime/format/TokenFile.h"
#include "support/AtomicFile.h"
#include "support/FileBytes.h"
#include "support/Fnv1a.h"
#include "support/MappedFile.h"

#include <algorithm>
#include <cstring>

namespace tc::rt {
namespace {

const char *const kMagic = kTokenFileMagic.data();
// 3: the vocabulary's checksum; 4: an index, the ids in one block, read in
// place.
constexpr uint32_t kVersion = 4;
constexpr uint64_t kHeaderBytes = 64;

/// `bytes` rounded up to a multiple of 8.
uint64_t padded(uint64_t bytes) { return (bytes + 7) / 8 * 8; }

/// The version 4 header after the magic, as stored.
struct Header {
  uint32_t version, zero;
  uint64_t pairs, vocabularyBytes, checksum, ids;
  int32_t smallest, largest, sourceEnd, zero2;
};
static_assert(sizeof(Header) + 8 == kHeaderBytes);

} // namespace

TokenTable::~TokenTable() = default;

std::unique_ptr<TokenTable> TokenTable::open(const std::string &path,
                                             std::string &error) {
  std::unique_ptr<support::MappedFile> file =
      support::MappedFile::open(path, kMaxTokenFileBytes, error);
  if (!file) {
    error += " (a token file, written by tc-run prepare)";
    return nullptr;
  }
  std::unique_ptr<TokenTable> table(new TokenTable);
  const uint8_t *bytes = file->data();
  uint64_t size = file->size();
  table->mapped_ = std::move(file);
  uint32_t version = 0;
  if (size >= 12 && std::memcmp(bytes, kMagic, 8) == 0)
    std::memcpy(&version, bytes + 8, 4);
  bool read = version == 4
                  ? table->readVersion4(bytes, size, path, error)
                  : table->readOlder(bytes, size, version, path, error);
  if (!read)
    return nullptr;
  if (version != 4) // parsed: the mapping is no longer read
    table->mapped_.reset();
  return table;
}

std::unique_ptr<TokenTable> TokenTable::parse(std::vector<uint8_t> bytes,
                                              const std::string &path,
                                              std::string &error) {
  std::unique_ptr<TokenTable> table(new TokenTable);
  table->bytes_ = std::move(bytes);
  const std::vector<uint8_t> &b = table->bytes_;
  uint32_t version = 0;
  if (b.size() >= 12 && std::memcmp(b.data(), kMagic, 8) == 0)
    std::memcpy(&version, b.data() + 8, 4);
  bool read = version == 4
                  ? table->readVersion4(b.data(), b.size(), path, error)
                  : table->readOlder(b.data(), b.size(), version, path, error);
  if (!read)
    return nullptr;
  if (version != 4)
    table->bytes_.clear();
  return table;
}

bool TokenTable::readVersion4(const uint8_t *bytes, uint64_t size,
                              const std::string &path, std::string &error) {
  auto fail = [&](const std::string &what) {
    error = path + ": " + what + " (rebuild it with tc-run prepare)";
    return false;
  };
  if (size < kHeaderBytes)
    return fail("truncated in the header");
  Header h;
  std::memcpy(&h, bytes + 8, sizeof h);
  if (h.zero != 0 || h.zero2 != 0)
    return fail("the header's reserved bytes are not zero (the file is "
                "damaged)");
  if (h.vocabularyBytes > size - kHeaderBytes)
    return fail("truncated in the vocabulary");
  uint64_t idsAt = kHeaderBytes + padded(h.vocabularyBytes);
  // Sizes from the header bounded by the file's before any product.
  if (idsAt > size || h.ids > (size - idsAt) / 4)
    return fail("truncated in the ids (the header counts " +
                std::to_string(h.ids) + ")");
  uint64_t indexAt = idsAt + padded(4 * h.ids);
  if (indexAt > size || h.pairs > (size - indexAt) / sizeof(Entry))
    return fail("truncated in the index (the header counts " +
                std::to_string(h.pairs) + " pairs)");
  if (indexAt + h.pairs * sizeof(Entry) != size)
    return fail("trailing bytes after the index of " +
                std::to_string(h.pairs) + " pairs");
  vocabulary_.assign(reinterpret_cast<const char *>(bytes) + kHeaderBytes,
                     h.vocabularyBytes);
  if (h.checksum != support::fnv1a(vocabulary_.data(), vocabulary_.size()))
    return fail("the vocabulary's checksum does not match its bytes (the "
                "file is damaged)");
  ids_ = reinterpret_cast<const int32_t *>(bytes + idsAt);
  index_ = reinterpret_cast<const Entry *>(bytes + indexAt);
  // Every pair where the one before it ends, all inside the ids: the
  // accessors then read nothing outside them.
  uint64_t next = 0;
  for (uint64_t i = 0; i < h.pairs; ++i) {
    const Entry &e = index_[i];
    if (e.first != next ||
        uint64_t(e.sourceLength) + e.targetLength > h.ids - next)
      return fail("index entry " + std::to_string(i) +
                  " does not follow the pair before it inside the " +
                  std::to_string(h.ids) + " ids (the file is damaged)");
    next += uint64_t(e.sourceLength) + e.targetLength;
  }
  if (next != h.ids)
    return fail("the index covers " + std::to_string(next) + " of the " +
                std::to_string(h.ids) + " ids (the file is damaged)");
  version_ = 4;
  count_ = h.pairs;
  summary_ = {h.smallest, h.largest, h.sourceEnd};
  return true;
}

bool TokenTable::readOlder(const uint8_t *bytes, uint64_t size,
                           uint32_t version, const std::string &path,
                           std::string &error) {
  auto fail = [&](const std::string &what) {
    error = path + ": " + what + " (rebuild it with tc-run prepare)";
    return false;
  };
  if (size < 24 || std::memcmp(bytes, kMagic, 8) != 0)
    return fail("not a token file (no TCTOKENS header)");
  if (version < 1 || version > kVersion)
    return fail("token file version " + std::to_string(version) +
                ", this tc-run reads versions 1 to " +
                std::to_string(kVersion));
  uint64_t count;
  std::memcpy(&count, bytes + 16, 8);
  uint64_t at = 24;
  if (version >= 2) {
    uint64_t vocabularyBytes, checksum = 0;
    at = version == 2 ? 32 : 40;
    if (size < at)
      return fail("truncated in the header");
    std::memcpy(&vocabularyBytes, bytes + 24, 8);
    if (version >= 3)
      std::memcpy(&checksum, bytes + 32, 8);
    if (vocabularyBytes > size - at)
      return fail("truncated in the vocabulary");
    vocabulary_.assign(reinterpret_cast<const char *>(bytes) + at,
                       vocabularyBytes);
    at += vocabularyBytes;
    if (version >= 3 &&
        checksum != support::fnv1a(vocabulary_.data(), vocabulary_.size()))
      return fail("the vocabulary's checksum does not match its bytes (the "
                  "file is damaged)");
  }
  for (uint64_t i = 0; i < count; ++i) {
    uint32_t lengths[2];
    if (at + 8 > size)
      return fail("truncated at pair " + std::to_string(i));
    std::memcpy(lengths, bytes + at, 8);
    at += 8;
    uint64_t words = uint64_t(lengths[0]) + lengths[1];
    if (words > (size - at) / 4)
      return fail("truncated at pair " + std::to_string(i));
    parsedIndex_.push_back({parsedIds_.size(), lengths[0], lengths[1]});
    size_t first = parsedIds_.size();
    parsedIds_.resize(first + words);
    if (words > 0) // memcpy to null is undefined, even of 0 bytes
      std::memcpy(parsedIds_.data() + first, bytes + at, 4 * words);
    at += 4 * words;
  }
  if (at != size)
    return fail("trailing bytes after " + std::to_string(count) + " pairs");
  version_ = version;
  count_ = count;
  ids_ = parsedIds_.data();
  index_ = parsedIndex_.data();
  // What a version 4 header records, counted.
  if (!parsedIds_.empty()) {
    auto [smallest, largest] =
        std::minmax_element(parsedIds_.begin(), parsedIds_.end());
    summary_.smallest = *smallest;
    summary_.largest = *largest;
  }
  for (uint64_t i = 0; i < count_; ++i) {
    std::span<const int32_t> s = source(i);
    int32_t end = s.empty() ? -1 : s.back();
    if (i == 0)
      summary_.sourceEnd = end;
    else if (end != summary_.sourceEnd)
      summary_.sourceEnd = -1;
  }
  return true;
}

SentencePair TokenTable::pair(uint64_t i) const {
  std::span<const int32_t> s = source(i), t = target(i);
  return {{s.begin(), s.end()}, {t.begin(), t.end()}};
}

namespace {

TokenData copyOut(const TokenTable &table) {
  TokenData data;
  data.vocabulary = table.vocabulary();
  data.pairs.reserve(table.size());
  for (uint64_t i = 0; i < table.size(); ++i)
    data.pairs.push_back(table.pair(i));
  return data;
}

} // namespace

std::optional<TokenData> readTokenFile(const std::string &path,
                                       std::string &error) {
  std::unique_ptr<TokenTable> table = TokenTable::open(path, error);
  if (!table)
    return std::nullopt;
  return copyOut(*table);
}

std::optional<TokenData> parseTokenFile(const std::vector<uint8_t> &bytes,
                                        const std::string &path,
                                        std::string &error) {
  std::unique_ptr<TokenTable> table = TokenTable::parse(bytes, path, error);
  if (!table)
    return std::nullopt;
  return copyOut(*table);
}

TokenFileWriter::TokenFileWriter(support::FileWriter &out,
                                 std::string_view vocabulary)
    : out_(out), vocabulary_(vocabulary) {
  static const uint8_t zeros[kHeaderBytes] = {};
  ok_ = out_.write(zeros, kHeaderBytes) && // the header, at finish()
        out_.write(vocabulary.data(), vocabulary.size()) &&
        out_.write(zeros, padded(vocabulary.size()) - vocabulary.size());
}

bool TokenFileWriter::add(std::span<const int32_t> source,
                          std::span<const int32_t> target) {
  for (std::span<const int32_t> side : {source, target})
    for (int32_t id : side) {
      summary_.smallest = ids_ == 0 ? id : std::min(summary_.smallest, id);
      summary_.largest = ids_ == 0 ? id : std::max(summary_.largest, id);
      ++ids_;
    }
  int32_t end = source.empty() ? -1 : source.back();
  summary_.sourceEnd =
      index_.empty() || end == summary_.sourceEnd ? end : -1;
  index_.push_back({ids_ - source.size() - target.size(),
                    uint32_t(source.size()), uint32_t(target.size())});
  ok_ = ok_ && out_.write(source.data(), 4 * source.size()) &&
        out_.write(target.data(), 4 * target.size());
  return ok_;
}

bool TokenFileWriter::finish() {
  static const uint8_t zeros[8] = {};
  Header h{kVersion,
           0,
           index_.size(),
           vocabulary_.size(),
           support::fnv1a(vocabulary_.data(), vocabulary_.size()),
           ids_,
           summary_.smallest,
           summary_.largest,
           summary_.sourceEnd,
           0};
  return ok_ && out_.write(zeros, padded(4 * ids_) - 4 * ids_) &&
         out_.write(index_.data(), index_.size() * sizeof(TokenTable::Entry)) &&
         out_.writeAt(0, kMagic, 8) && out_.writeAt(8, &h, sizeof h);
}

bool writeTokenFile(const std::string &path, const TokenData &data,
                    std::string &error) {
  auto fill = [&](support::FileWriter &out) {
    TokenFileWriter writer(out, data.vocabulary);
    for (const SentencePair &pair : data.pairs)
      if (!writer.add(pair.source, pair.target))
        return false;
    return writer.finish();
  };
  return support::writeFileAtomically(path, fill, support::Durability::Replace,
                                      error);
}

} // namespace tc::rt
