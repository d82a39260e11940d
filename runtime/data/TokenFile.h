//===- TokenFile.h - binarised sentence pairs ------------------------------===//
//
// A token file holds sentence pairs as token ids, ready for training:
//
//   bytes 0-7    magic "TCTOKENS"
//   bytes 8-11   version (u32) = 1
//   bytes 12-15  zero
//   bytes 16-23  number of pairs (u64)
//   then per pair: source length (u32), target length (u32), the source
//   ids then the target ids (i32 each, little-endian)
//
// The source of a pair ends with EOS; the target has neither BOS nor EOS
// (the batcher adds them). `tc-run prepare` writes one from two text files
// of whitespace-separated ids, one sentence per line.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DATA_TOKENFILE_H
#define TC_RUNTIME_DATA_TOKENFILE_H

#include "runtime/data/Batch.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tc::rt {

/// The largest token file (or text file of ids) tc reads.
constexpr uint64_t kMaxTokenFileBytes = uint64_t(16) << 30;

/// The pairs of the token file at `path`, or none with `error` naming the
/// file and what is wrong.
std::optional<std::vector<SentencePair>> readTokenFile(const std::string &path,
                                                       std::string &error);

/// The same, from the file's bytes (`path` names it in messages).
std::optional<std::vector<SentencePair>>
parseTokenFile(const std::vector<uint8_t> &bytes, const std::string &path,
               std::string &error);

/// How a token file starts.
inline constexpr std::string_view kTokenFileMagic = "TCTOKENS";

bool writeTokenFile(const std::string &path,
                    const std::vector<SentencePair> &pairs, std::string &error);

/// Pairs from two text files of whitespace-separated token ids (line i of
/// each is pair i); EOS is appended to each source. Errors name the file,
/// the line and the offending word.
std::optional<std::vector<SentencePair>>
readIdText(const std::string &sourcePath, const std::string &targetPath,
           const Vocabulary &vocab, std::string &error);

} // namespace tc::rt

#endif // TC_RUNTIME_DATA_TOKENFILE_H
