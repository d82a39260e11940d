//===- DecoderSession.h - the compiled incremental decoder of one shape ----===//
//
// A decoder step has R rows; each row holds one hypothesis of a sentence
// being translated. The session runs decode_start on up to R sources (every
// decoder layer's cross-attention keys and values, computed once), places a
// source's keys and values in the rows its hypotheses will use, and runs
// decode_step: one token per row in, its most probable next tokens out
// (StepCandidates.h), the self-attention caches extended in place on the
// device. A search
// policy (BeamSearch.h) decides the tokens and which row each continues
// (beam reselection is the step's compiled cache gather); the session knows
// nothing of how.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DECODE_DECODERSESSION_H
#define TC_RUNTIME_DECODE_DECODERSESSION_H

#include "runtime/Device.h"
#include "runtime/data/Buckets.h"
#include "runtime/decode/StepCandidates.h"

#include <optional>
#include <string>
#include <vector>

namespace tc::rt {

/// A source that decode_start has encoded: its cross-attention keys and
/// values stay on the device, in row `row` of the start's outputs, until
/// the session's next start (`batch` says which start made it).
struct EncodedSource {
  std::vector<int32_t> ids; ///< padded to the source length
  int64_t row = 0;
  int64_t batch = 0;
};

/// The candidates (K) `step`, a decode_step function of `rows` rows,
/// returns per row; 0 when it returns none (an older executable's whole
/// distribution).
int64_t candidatesPerRowOf(const tcx::Function &step, int64_t rows);

class DecoderSession {
public:
  /// The session of the decode_step of `shape` and the decode_start of its
  /// rows and source length, or none with `error`.
  static std::optional<DecoderSession> open(const Executable &executable,
                                            Device &device,
                                            const BucketShape &shape,
                                            std::string &error);

  /// Runs decode_start on `sources` (at most rows() of them, each ending with
  /// EOS and at most the source length long).
  std::optional<std::vector<EncodedSource>>
  start(const std::vector<std::vector<int32_t>> &sources, std::string &error);

  /// Makes rows [first, first + count) read `source`'s keys and values:
  /// copies them on the device (and writes its ids) once, in row `first`,
  /// and points the rows' cross_row entries at it. `source` must come from
  /// the latest start.
  bool place(const EncodedSource &source, int64_t first, int64_t count,
             std::string &error);

  /// One step: every row's last token, its position and the row whose
  /// cached prefix it continues (itself, or another after beam
  /// reselection). Returns each row's most probable next tokens.
  const StepCandidates *step(const std::vector<int32_t> &token,
                                 const std::vector<int32_t> &position,
                                 const std::vector<int32_t> &origin,
                                 std::string &error);

  const BucketShape &shape() const { return shape_; }
  int64_t rows() const { return shape_.batch; }
  const Vocabulary &vocabulary() const { return vocab_; }

private:
  DecoderSession(Device &device, const tcx::Function &start,
                 const tcx::Function &step, const BucketShape &shape,
                 const Vocabulary &vocab, std::vector<std::string> crossNames,
                 int64_t candidatesPerRow)
      : device_(&device), start_(&start), step_(&step), shape_(shape),
        vocab_(vocab), crossNames_(std::move(crossNames)),
        crossRow_(shape.batch) {
    candidates_.perRow = candidatesPerRow;
    for (size_t r = 0; r < crossRow_.size(); ++r)
      crossRow_[r] = int32_t(r);
  }
  bool fail(const std::string &what, std::string &error) const;

  Device *device_;
  const tcx::Function *start_, *step_;
  BucketShape shape_;
  Vocabulary vocab_;
  std::vector<std::string> crossNames_; ///< cross_k.0, cross_v.0, ...
  /// Each row's cross_row: the row that holds its sentence's keys, values
  /// and source ids (set by place, written by step).
  std::vector<int32_t> crossRow_;
  StepCandidates candidates_;
  int64_t batch_ = 0; ///< starts run so far
};

} // namespace tc::rt

#endif // TC_RUNTIME_DECODE_DECODERSESSION_H
