//===- TokenFile.h - binarised sentence pairs ------------------------------===//
//
// A token file holds sentence pairs as token ids, ready for training, and
// the subword vocabulary that made them. Version 4 is read in place: a run
// keeps its header and index in memory and reads each pair's ids from the
// file when a batch needs them (pread: a file changed under the run gives
// an error, never a fault), so the ranks on one host share one copy in the
// page cache and a rank reads only its batches' pairs.
//
//   bytes 0-7    magic "TCTOKENS"
//   bytes 8-11   version (u32) = 4
//   bytes 12-15  zero
//   bytes 16-23  number of pairs N (u64)
//   bytes 24-31  vocabulary bytes V (u64; 0: the pairs were given as ids)
//   bytes 32-39  FNV-1a 64 of the V vocabulary bytes (the vocabulary's
//                fingerprint, which checkpoints record too)
//   bytes 40-47  number of ids T (u64): every pair's source and target
//   bytes 48-51  the smallest id (i32; 0 when T is 0)
//   bytes 52-55  the largest id (i32; -1 when T is 0)
//   bytes 56-59  the id every source ends with (i32; -1 when the sources
//                do not all end with one id, or N is 0)
//   bytes 60-63  zero
//   then V bytes: the serialised SentencePiece model (SubwordVocabulary.h),
//     zero-padded to a multiple of 8 bytes
//   then the ids: pair after pair, its source then its target (i32 each,
//     little-endian), zero-padded to a multiple of 8 bytes
//   then the index, N entries of 16 bytes: the position of the pair's first
//     id among the ids (u64), its source length (u32), its target length
//     (u32); pair i + 1 starts where pair i ends
//
// Opening a file checks its header, vocabulary checksum and index (every
// pair inside the ids, in order), not its T ids: the header's id range and
// source end are checked against the model when a run starts, and each
// batch's ids when it is drawn (DataSource.h).
//
// Versions 1 to 3 (pairs stored one after another as source length, target
// length, ids; 2 added the vocabulary, 3 its checksum) are still read, into
// memory. The source of a pair ends with EOS; the target has neither BOS
// nor EOS (the batcher adds them). `tc-run prepare` writes version 4
// (runtime/data/ParallelText.h); `tc-compile --buckets-from` reads the
// lengths.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_FORMAT_TOKENFILE_H
#define TC_RUNTIME_FORMAT_TOKENFILE_H

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tc::support {
class FileWriter;
} // namespace tc::support

namespace tc::rt {

/// One sentence pair in token ids: the source ends with EOS; the target
/// (without BOS or EOS) is what the decoder must produce before EOS.
struct SentencePair {
  std::vector<int32_t> source;
  std::vector<int32_t> target;
};

/// The largest token file (or text file of ids) tc reads.
constexpr uint64_t kMaxTokenFileBytes = uint64_t(16) << 30;

/// What a token file says of its ids, from its header (version 4) or
/// counted when it was read (older versions).
struct TokenIds {
  int32_t smallest = 0, largest = -1;
  /// The id every source ends with; -1 when they do not all end with one.
  int32_t sourceEnd = -1;
};

/// A token file's pairs where they lie: version 4 read a pair at a time
/// from the file (its header and index in memory, its ids read as batches
/// need them), older versions and a file given as bytes in memory.
class TokenTable {
public:
  /// The token file at `path`, or null with `error` naming the file and
  /// what is wrong.
  static std::unique_ptr<TokenTable> open(const std::string &path,
                                          std::string &error);
  /// The same from the file's bytes (`path` names it in messages).
  static std::unique_ptr<TokenTable> parse(std::vector<uint8_t> bytes,
                                           const std::string &path,
                                           std::string &error);
  ~TokenTable();
  TokenTable(const TokenTable &) = delete;
  TokenTable &operator=(const TokenTable &) = delete;

  uint64_t size() const { return index_.size(); }
  /// The lengths of pair `i`'s source and target, from the index.
  uint32_t sourceLength(uint64_t i) const { return index_[i].sourceLength; }
  uint32_t targetLength(uint64_t i) const { return index_[i].targetLength; }
  /// Pair `i` in `pair`; false with `error` when the file cannot be read
  /// there (it was cut short or replaced in place since it was opened).
  bool pair(uint64_t i, SentencePair &pair, std::string &error) const;
  /// The serialised SentencePiece model; empty: none.
  const std::string &vocabulary() const { return vocabulary_; }
  const TokenIds &ids() const { return summary_; }
  uint32_t version() const { return version_; }

  /// An entry of the index, as version 4 stores it.
  struct Entry {
    uint64_t first; ///< the position of the pair's first id
    uint32_t sourceLength, targetLength;
  };
  static_assert(sizeof(Entry) == 16);

private:
  explicit TokenTable(std::string path) : path_(std::move(path)) {}
  /// `size` bytes at `offset` of the file (or the bytes given).
  bool read(uint64_t offset, void *out, uint64_t size) const;
  bool readVersion4(uint64_t fileSize, std::string &error);
  bool readOlder(const std::vector<uint8_t> &bytes, std::string &error);

  std::string path_;
  uint32_t version_ = 0;
  int fd_ = -1;                ///< version 4 opened from a file
  std::vector<uint8_t> bytes_; ///< version 4 given as bytes
  uint64_t idsAt_ = 0;         ///< version 4: where the ids start
  std::vector<int32_t> parsedIds_; ///< older versions' ids
  std::vector<Entry> index_;
  std::string vocabulary_;
  TokenIds summary_;
};

/// A token file's pairs in memory: for the small files read whole
/// (validation data, tc-inspect), and for writing.
struct TokenData {
  std::vector<SentencePair> pairs;
  std::string vocabulary; ///< serialised SentencePiece model; empty: none
};

/// The token file at `path`, or none with `error` naming the file and what
/// is wrong.
std::optional<TokenData> readTokenFile(const std::string &path,
                                       std::string &error);

/// The same, from the file's bytes (`path` names it in messages).
std::optional<TokenData> parseTokenFile(const std::vector<uint8_t> &bytes,
                                        const std::string &path,
                                        std::string &error);

/// How a token file starts.
inline constexpr std::string_view kTokenFileMagic = "TCTOKENS";

/// Writes a version 4 token file pair by pair into `out` (a temporary of
/// support::writeFileAtomically), in bounded memory: what it keeps is the
/// index, 16 bytes a pair. The header, whose counts are known at the end,
/// is written last.
class TokenFileWriter {
public:
  /// `vocabulary` (the serialised model) must outlive the writer.
  TokenFileWriter(support::FileWriter &out, std::string_view vocabulary);
  /// Appends a pair; false when the file system fails (errno says why).
  bool add(std::span<const int32_t> source, std::span<const int32_t> target);
  /// The padding, the index and the header; false when the file system
  /// fails.
  bool finish();
  uint64_t pairs() const { return index_.size(); }

private:
  support::FileWriter &out_;
  std::string_view vocabulary_;
  bool ok_;
  uint64_t ids_ = 0;
  TokenIds summary_;
  std::vector<TokenTable::Entry> index_;
};

/// Writes `data` to `path` as version 4, replacing it whole or not at all.
bool writeTokenFile(const std::string &path, const TokenData &data,
                    std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_FORMAT_TOKENFILE_H
