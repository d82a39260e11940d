//===- TokenFile.cpp - binarised sentence pairs ---------------------------===//

#include "runtime/data/TokenFile.h"
#include "support/AtomicFile.h"
#include "support/FileBytes.h"

#include <cstring>
#include <sstream>

namespace tc::rt {
namespace {

const char *const kMagic = kTokenFileMagic.data();
constexpr uint32_t kVersion = 1;

std::optional<std::vector<std::vector<int32_t>>>
readLines(const std::string &path, const Vocabulary &vocab,
          std::string &error) {
  std::optional<std::string> text =
      support::readFileText(path, kMaxTokenFileBytes, error);
  if (!text)
    return std::nullopt;
  std::istringstream in(std::move(*text));
  std::vector<std::vector<int32_t>> lines;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::vector<int32_t> ids;
    std::string word;
    while (words >> word) {
      char *end = nullptr;
      long id = std::strtol(word.c_str(), &end, 10);
      if (*end != '\0' || id < 0 || (vocab.size > 0 && id >= vocab.size)) {
        error = path + ":" + std::to_string(lines.size() + 1) + ": '" + word +
                "' is not a token id in [0, " + std::to_string(vocab.size) +
                ")";
        return std::nullopt;
      }
      ids.push_back(int32_t(id));
    }
    lines.push_back(std::move(ids));
  }
  return lines;
}

/// `count` little-endian i32 ids at `data` (unaligned).
std::vector<int32_t> idsAt(const uint8_t *data, size_t count) {
  std::vector<int32_t> ids(count);
  if (count > 0) // memcpy from or to null is undefined, even of 0 bytes
    std::memcpy(ids.data(), data, 4 * count);
  return ids;
}

} // namespace

std::optional<std::vector<SentencePair>> readTokenFile(const std::string &path,
                                                       std::string &error) {
  std::optional<std::vector<uint8_t>> file =
      support::readFileBytes(path, kMaxTokenFileBytes, error);
  if (!file) {
    error += " (a token file, written by tc-run prepare)";
    return std::nullopt;
  }
  return parseTokenFile(*file, path, error);
}

std::optional<std::vector<SentencePair>>
parseTokenFile(const std::vector<uint8_t> &bytes, const std::string &path,
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
  if (version != kVersion)
    return fail("token file version " + std::to_string(version) +
                ", this tc-run reads version 1");
  std::vector<SentencePair> pairs;
  size_t at = 24;
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
  return pairs;
}

bool writeTokenFile(const std::string &path,
                    const std::vector<SentencePair> &pairs,
                    std::string &error) {
  auto fill = [&](support::FileWriter &out) {
    uint32_t header[2] = {kVersion, 0};
    uint64_t count = pairs.size();
    bool ok =
        out.write(kMagic, 8) && out.write(header, 8) && out.write(&count, 8);
    for (const SentencePair &pair : pairs) {
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

std::optional<std::vector<SentencePair>>
readIdText(const std::string &sourcePath, const std::string &targetPath,
           const Vocabulary &vocab, std::string &error) {
  auto sources = readLines(sourcePath, vocab, error);
  if (!sources)
    return std::nullopt;
  auto targets = readLines(targetPath, vocab, error);
  if (!targets)
    return std::nullopt;
  if (sources->size() != targets->size()) {
    error = sourcePath + " has " + std::to_string(sources->size()) +
            " lines but " + targetPath + " has " +
            std::to_string(targets->size()) +
            "; line i of each must be the two sides of pair i";
    return std::nullopt;
  }
  std::vector<SentencePair> pairs(sources->size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    pairs[i].source = std::move((*sources)[i]);
    pairs[i].source.push_back(vocab.eos);
    pairs[i].target = std::move((*targets)[i]);
  }
  return pairs;
}

} // namespace tc::rt
