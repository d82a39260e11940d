//===- NormalizerRules.h - the normalisers tc's vocabularies may use -------===//
//
// A SentencePiece model carries its normaliser as a compiled table
// (`normalizer_spec.precompiled_charsmap`: a double-array trie and the
// strings it maps to) that libsentencepiece walks without checking it; a
// table of random bytes crashed it. tc never trusts those bytes: a model
// names its rule, and the table must be the one libsentencepiece builds for
// that name.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DATA_NORMALIZERRULES_H
#define TC_RUNTIME_DATA_NORMALIZERRULES_H

#include <string>
#include <string_view>

namespace tc::rt {

/// The normaliser tc-run prepare trains with (SentencePiece's default).
inline constexpr std::string_view kTrainedNormalizer = "nmt_nfkc";

/// The table libsentencepiece builds for the rule `name`, for the rules a
/// tc vocabulary may name: "nmt_nfkc" (NFKC, with the whitespace and
/// control characters of NMT corpora cleaned up) and "identity" (no table);
/// null for any other name, or when libsentencepiece cannot build it.
const std::string *normalizerTable(std::string_view name);

} // namespace tc::rt

#endif // TC_RUNTIME_DATA_NORMALIZERRULES_H
