//===- PrefixDecoder.h - the decoder run on whole prefixes -----------------===//
//
// A training bucket's encoder run once on a batch of sources, then its
// decoder (decode_BxSxT) run on whole target prefixes, returning the logits
// of every position. Validation's loss reads them; PrefixGreedySearch.h
// decodes with it by recomputing the prefix at every position, the way tc
// decoded before the incremental decoder (DecoderSession.h), kept to measure
// the difference (tc-run translate --recompute-prefix).
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DECODE_PREFIXDECODER_H
#define TC_RUNTIME_DECODE_PREFIXDECODER_H

#include "runtime/Device.h"
#include "runtime/data/Buckets.h"

#include <optional>
#include <string>
#include <vector>

namespace tc::rt {

class PrefixDecoder {
public:
  /// The session for `bucket`'s encoder and decoder, or none with `error`
  /// when the executable lacks them.
  static std::optional<PrefixDecoder> open(const Executable &executable,
                                            Device &device,
                                            const BucketShape &bucket,
                                            std::string &error);

  /// Encodes `sources` (each ending with EOS, at most the bucket's batch of
  /// them, each at most its source length); the rest of the batch is
  /// padding. False with `error` when they do not fit or the functions do
  /// not bind as encoders and decoders do.
  bool encode(const std::vector<std::vector<int32_t>> &sources,
              std::string &error);

  /// Runs the decoder on `prefixes` (batch x target length tokens, each row
  /// BOS first, padded) and returns its logits, batch x target length x
  /// vocabulary: row r's next token after position t is at [r, t].
  const std::vector<float> *step(const std::vector<int32_t> &prefixes,
                                 std::string &error);

  const BucketShape &bucket() const { return bucket_; }
  const Vocabulary &vocabulary() const { return vocab_; }

private:
  PrefixDecoder(Device &device, const tcx::Function &encoder,
                 const tcx::Function &decoder, const BucketShape &bucket,
                 const Vocabulary &vocab)
      : device_(&device), encoder_(&encoder), decoder_(&decoder),
        bucket_(bucket), vocab_(vocab) {}

  Device *device_;
  const tcx::Function *encoder_, *decoder_;
  BucketShape bucket_;
  Vocabulary vocab_;
  std::vector<float> logits_;
};

} // namespace tc::rt

#endif // TC_RUNTIME_DECODE_PREFIXDECODER_H
