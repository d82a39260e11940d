//===- TokenFile.cpp - binarised sentence pairs ---------------------------===//

#include "runtime/format/TokenFile.h"
#include "support/AtomicFile.h"
#include "support/FileBytes.h"
#include "support/Fnv1a.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

TokenTable::~TokenTable() {
  if (fd_ >= 0)
    ::close(fd_);
}

bool TokenTable::read(uint64_t offset, void *out, uint64_t size) const {
  if (fd_ < 0) {
    if (offset > bytes_.size() || size > bytes_.size() - offset)
      return false;
    if (size > 0)
      std::memcpy(out, bytes_.data() + offset, size);
    return true;
  }
  auto *to = static_cast<uint8_t *>(out);
  while (size > 0) {
    ssize_t got = ::pread(fd_, to, size, off_t(offset));
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      return false; // an error, or the file ends early
    to += got;
    offset += uint64_t(got);
    size -= uint64_t(got);
  }
  return true;
}

std::unique_ptr<TokenTable> TokenTable::open(const std::string &path,
                                             std::string &error) {
  // The type first, so that a device or a FIFO is never opened.
  if (!support::checkInputFile(path, kMaxTokenFileBytes, error)) {
    error += " (a token file, written by tc-run prepare)";
    return nullptr;
  }
  std::unique_ptr<TokenTable> table(new TokenTable(path));
  table->fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat info;
  if (table->fd_ < 0 || ::fstat(table->fd_, &info) != 0 ||
      !S_ISREG(info.st_mode)) {
    error = path + ": cannot open: " +
            (table->fd_ < 0 ? std::strerror(errno) : "not a regular file");
    return nullptr;
  }
  char head[12] = {};
  uint32_t version = 0;
  if (!table->read(0, head, sizeof head) ||
      std::memcmp(head, kMagic, 8) != 0) {
    // Refused from its first bytes: read whole, a text corpus given as
    // --data took its size in memory before it was refused.
    error = path + ": not a token file (no TCTOKENS header); write one from "
                   "the text with tc-run prepare MODEL.tcx --source S "
                   "--target T -o FILE.tok";
    return nullptr;
  }
  std::memcpy(&version, head + 8, 4);
  if (version == 4)
    return table->readVersion4(uint64_t(info.st_size), error) ? std::move(table)
                                                             : nullptr;
  // Older versions: the whole file, parsed into memory.
  ::close(table->fd_);
  table->fd_ = -1;
  std::optional<std::vector<uint8_t>> bytes =
      support::readFileBytes(path, kMaxTokenFileBytes, error);
  if (!bytes)
    return nullptr;
  return table->readOlder(*bytes, error) ? std::move(table) : nullptr;
}

std::unique_ptr<TokenTable> TokenTable::parse(std::vector<uint8_t> bytes,
                                              const std::string &path,
                                              std::string &error) {
  std::unique_ptr<TokenTable> table(new TokenTable(path));
  uint32_t version = 0;
  if (bytes.size() >= 12 && std::memcmp(bytes.data(), kMagic, 8) == 0)
    std::memcpy(&version, bytes.data() + 8, 4);
  if (version != 4)
    return table->readOlder(bytes, error) ? std::move(table) : nullptr;
  table->bytes_ = std::move(bytes);
  return table->readVersion4(table->bytes_.size(), error) ? std::move(table)
                                                          : nullptr;
}

bool TokenTable::readVersion4(uint64_t size, std::string &error) {
  auto fail = [&](const std::string &what) {
    error = path_ + ": " + what + " (rebuild it with tc-run prepare)";
    return false;
  };
  Header h;
  if (size < kHeaderBytes || !read(8, &h, sizeof h))
    return fail("truncated in the header");
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
  vocabulary_.resize(h.vocabularyBytes);
  uint64_t padding[2] = {~0ull, ~0ull}; // after the vocabulary, the ids
  if (!read(kHeaderBytes, vocabulary_.data(), h.vocabularyBytes) ||
      !read(kHeaderBytes + h.vocabularyBytes, &padding[0],
            idsAt - kHeaderBytes - h.vocabularyBytes) ||
      !read(idsAt + 4 * h.ids, &padding[1], indexAt - idsAt - 4 * h.ids))
    return fail("cannot be read (it changed while it was opened)");
  if (h.checksum != support::fnv1a(vocabulary_.data(), vocabulary_.size()))
    return fail("the vocabulary's checksum does not match its bytes (the "
                "file is damaged)");
  auto unread = [](uint64_t bytes) {
    return bytes == 0 ? ~0ull : ~0ull << (8 * bytes);
  };
  if ((padding[0] & ~unread(idsAt - kHeaderBytes - h.vocabularyBytes)) != 0 ||
      (padding[1] & ~unread(indexAt - idsAt - 4 * h.ids)) != 0)
    return fail("its padding bytes are not zero (the file is damaged)");
  index_.resize(h.pairs);
  if (!read(indexAt, index_.data(), h.pairs * sizeof(Entry)))
    return fail("cannot be read (it changed while it was opened)");
  // Every pair where the one before it ends, all inside the ids: a pair is
  // then read from inside them.
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
  idsAt_ = idsAt;
  summary_ = {h.smallest, h.largest, h.sourceEnd};
  return true;
}

bool TokenTable::readOlder(const std::vector<uint8_t> &file,
                           std::string &error) {
  auto fail = [&](const std::string &what) {
    error = path_ + ": " + what + " (rebuild it with tc-run prepare)";
    return false;
  };
  const uint8_t *bytes = file.data();
  uint64_t size = file.size();
  if (size < 24 || std::memcmp(bytes, kMagic, 8) != 0)
    return fail("not a token file (no TCTOKENS header)");
  uint32_t version;
  std::memcpy(&version, bytes + 8, 4);
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
    index_.push_back({parsedIds_.size(), lengths[0], lengths[1]});
    size_t first = parsedIds_.size();
    parsedIds_.resize(first + words);
    if (words > 0) // memcpy to null is undefined, even of 0 bytes
      std::memcpy(parsedIds_.data() + first, bytes + at, 4 * words);
    at += 4 * words;
  }
  if (at != size)
    return fail("trailing bytes after " + std::to_string(count) + " pairs");
  version_ = version;
  // What a version 4 header records, counted.
  if (!parsedIds_.empty()) {
    auto [smallest, largest] =
        std::minmax_element(parsedIds_.begin(), parsedIds_.end());
    summary_.smallest = *smallest;
    summary_.largest = *largest;
  }
  for (uint64_t i = 0; i < index_.size(); ++i) {
    const Entry &e = index_[i];
    int32_t end =
        e.sourceLength == 0 ? -1 : parsedIds_[e.first + e.sourceLength - 1];
    summary_.sourceEnd = i == 0 || end == summary_.sourceEnd ? end : -1;
  }
  return true;
}

bool TokenTable::pair(uint64_t i, SentencePair &pair,
                      std::string &error) const {
  const Entry &e = index_[i];
  pair.source.resize(e.sourceLength);
  pair.target.resize(e.targetLength);
  if (version_ != 4) {
    const int32_t *ids = parsedIds_.data() + e.first;
    std::copy(ids, ids + e.sourceLength, pair.source.begin());
    std::copy(ids + e.sourceLength, ids + e.sourceLength + e.targetLength,
              pair.target.begin());
    return true;
  }
  uint64_t at = idsAt_ + 4 * e.first;
  if (read(at, pair.source.data(), 4 * uint64_t(e.sourceLength)) &&
      read(at + 4 * uint64_t(e.sourceLength), pair.target.data(),
           4 * uint64_t(e.targetLength)))
    return true;
  error = path_ + ": pair " + std::to_string(i) +
          " cannot be read: the file was cut short or replaced in place "
          "since the run opened it; prepare it again under another name";
  return false;
}

namespace {

bool copyOut(const TokenTable &table, TokenData &data, std::string &error) {
  data.vocabulary = table.vocabulary();
  data.pairs.resize(table.size());
  for (uint64_t i = 0; i < table.size(); ++i)
    if (!table.pair(i, data.pairs[i], error))
      return false;
  return true;
}

} // namespace

std::optional<TokenData> readTokenFile(const std::string &path,
                                       std::string &error) {
  std::unique_ptr<TokenTable> table = TokenTable::open(path, error);
  TokenData data;
  if (!table || !copyOut(*table, data, error))
    return std::nullopt;
  return data;
}

std::optional<TokenData> parseTokenFile(const std::vector<uint8_t> &bytes,
                                        const std::string &path,
                                        std::string &error) {
  std::unique_ptr<TokenTable> table = TokenTable::parse(bytes, path, error);
  TokenData data;
  if (!table || !copyOut(*table, data, error))
    return std::nullopt;
  return data;
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
