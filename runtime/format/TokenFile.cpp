//===- TokenFile.cpp - binarised sentence pairs ---------------------------===//

#include "runtime/format/TokenFile.h"
#include "support/AtomicFile.h"
#include "support/FileBytes.h"
#include "support/Fnv1a.h"

#include <cstring>

namespace tc::rt {
namespace {

const char *const kMagic = kTokenFileMagic.data();
// 3: the vocabulary's checksum.
constexpr uint32_t kVersion = 3;

/// `count` little-endian i32 ids at `data` (unaligned).
std::vector<int32_t> idsAt(const uint8_t *data, size_t count) {
  std::vector<int32_t> ids(count);
  if (count > 0) // memcpy from or to null is undefined, even of 0 bytes
    std::memcpy(ids.data(), data, 4 * count);
  return ids;
}

} // namespace

std::optional<TokenData> readTokenFile(const std::string &path,
                                       std::string &error) {
  std::optional<std::vector<uint8_t>> file =
      support::readFileBytes(path, kMaxTokenFileBytes, error);
  if (!file) {
    error += " (a token file, written by tc-run prepare)";
    return std::nullopt;
  }
  return parseTokenFile(*file, path, error);
}

std::optional<TokenData> parseTokenFile(const std::vector<uint8_t> &bytes,
                                        const std::string &path,
                                        std::string &error) {
  auto fail = [&](const std::string &what) {
    error = path + ": " + what + " (rebuild it with tc-run prepare)";
    return std::nullopt;
  };
  if (bytes.size() < 24 || std::memcmp(bytes.data(), kMagic, 8) != 0)
    return fail("not a token file (no TCTOKENS header)");
  uint32_t version;
  uint64_t count;
  std::memcpy(&version, bytes.data() + 8, 4);
  std::memcpy(&count, bytes.data() + 16, 8);
  if (version < 1 || version > kVersion)
    return fail("token file version " + std::to_string(version) +
                ", this tc-run reads versions 1 to 3");
  TokenData data;
  size_t at = 24;
  if (version >= 2) {
    uint64_t vocabularyBytes, checksum = 0;
    at = version == 2 ? 32 : 40;
    if (bytes.size() < at)
      return fail("truncated in the header");
    std::memcpy(&vocabularyBytes, bytes.data() + 24, 8);
    if (version >= 3)
      std::memcpy(&checksum, bytes.data() + 32, 8);
    if (vocabularyBytes > bytes.size() - at)
      return fail("truncated in the vocabulary");
    data.vocabulary.assign(bytes.begin() + at,
                           bytes.begin() + at + vocabularyBytes);
    at += vocabularyBytes;
    if (version >= 3 && checksum != support::fnv1a(data.vocabulary.data(),
                                                   data.vocabulary.size()))
      return fail("the vocabulary's checksum does not match its bytes (the "
                  "file is damaged)");
  }
  std::vector<SentencePair> &pairs = data.pairs;
  for (uint64_t i = 0; i < count; ++i) {
    uint32_t lengths[2];
    if (at + 8 > bytes.size())
      return fail("truncated at pair " + std::to_string(i));
    std::memcpy(lengths, bytes.data() + at, 8);
    at += 8;
    size_t words = size_t(lengths[0]) + lengths[1];
    if (at + 4 * words > bytes.size())
      return fail("truncated at pair " + std::to_string(i));
    SentencePair pair;
    pair.source = idsAt(bytes.data() + at, lengths[0]);
    pair.target = idsAt(bytes.data() + at + 4 * size_t(lengths[0]), lengths[1]);
    at += 4 * words;
    pairs.push_back(std::move(pair));
  }
  if (at != bytes.size())
    return fail("trailing bytes after " + std::to_string(count) + " pairs");
  return data;
}

bool writeTokenFile(const std::string &path, const TokenData &data,
                    std::string &error) {
  auto fill = [&](support::FileWriter &out) {
    uint32_t header[2] = {kVersion, 0};
    uint64_t counts[3] = {
        data.pairs.size(), data.vocabulary.size(),
        support::fnv1a(data.vocabulary.data(), data.vocabulary.size())};
    bool ok = out.write(kMagic, 8) && out.write(header, 8) &&
              out.write(counts, 24) &&
              out.write(data.vocabulary.data(), data.vocabulary.size());
    for (const SentencePair &pair : data.pairs) {
      uint32_t lengths[2] = {uint32_t(pair.source.size()),
                             uint32_t(pair.target.size())};
      ok = ok && out.write(lengths, 8) &&
           out.write(pair.source.data(), 4 * pair.source.size()) &&
           out.write(pair.target.data(), 4 * pair.target.size());
    }
    return ok;
  };
  return support::writeFileAtomically(path, fill, support::Durability::Replace,
                                      error);
}

} // namespace tc::rt
