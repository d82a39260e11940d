//===- TokenFile.h - binarised sentence pairs ------------------------------===//
//
// A token file holds sentence pairs as token ids, ready for training, and
// the subword vocabulary that made them:
//
//   bytes 0-7    magic "TCTOKENS"
//   bytes 8-11   version (u32) = 3
//   bytes 12-15  zero
//   bytes 16-23  number of pairs (u64)
//   bytes 24-31  vocabulary bytes V (u64; 0: the pairs were given as ids)
//   bytes 32-39  FNV-1a 64 of the V vocabulary bytes (the vocabulary's
//                fingerprint, which checkpoints record too)
//   then V bytes: the serialised SentencePiece model (SubwordVocabulary.h)
//   then per pair: source length (u32), target length (u32), the source
//   ids then the target ids (i32 each, little-endian)
//
// Version 2 files (no checksum: bytes 32 on are the vocabulary) and
// version 1 files (no vocabulary field) are still read; their vocabulary
// is checked as every vocabulary is. The source of a pair ends with EOS;
// the target has neither BOS nor EOS (the batcher adds them). `tc-run
// prepare` writes them (runtime/data/ParallelText.h);
// `tc-compile --buckets-from` reads their lengths.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_FORMAT_TOKENFILE_H
#define TC_RUNTIME_FORMAT_TOKENFILE_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tc::rt {

/// One sentence pair in token ids: the source ends with EOS; the target
/// (without BOS or EOS) is what the decoder must produce before EOS.
struct SentencePair {
  std::vector<int32_t> source;
  std::vector<int32_t> target;
};

/// The largest token file (or text file of ids) tc reads.
constexpr uint64_t kMaxTokenFileBytes = uint64_t(16) << 30;

/// What a token file holds.
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

bool writeTokenFile(const std::string &path, const TokenData &data,
                    std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_FORMAT_TOKENFILE_H
