//===- DecoderSession.h - a batch of sources, encoded once, decoded stepwise -===//
//
// What every search policy needs from an executable: the bucket's encoder
// run once on a batch of sources, then its decoder run on the prefixes
// decoded so far, returning the next-token logits of every row. A search
// policy (greedy today: GreedySearch.h; beam search next) chooses the tokens;
// the session knows nothing of how.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DECODE_DECODERSESSION_H
#define TC_RUNTIME_DECODE_DECODERSESSION_H

#include "runtime/Device.h"
#include "runtime/data/Buckets.h"

#include <optional>
#include <string>
#include <vector>

namespace tc::rt {

class DecoderSession {
public:
  /// The session for `bucket`'s encoder and decoder, or none with `error`
  /// when the executable lacks them.
  static std::optional<DecoderSession> open(const Executable &executable,
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
  DecoderSession(Device &device, const tcx::Function &encoder,
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

#endif // TC_RUNTIME_DECODE_DECODERSESSION_H
