//===- Checkpoint.cpp - the whole state of a training run, on disk --------===//

#include "runtime/train/Checkpoint.h"
#include "runtime/format/Contract.h"
#include "runtime/format/TcxFile.h"
#include "support/AtomicFile.h"
#include "support/FileBytes.h"
#include "support/Fnv1a.h"
#include "support/RunDirectory.h"

#include <cinttypes>
#include <csignal>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <unistd.h>

namespace tc::rt {
namespace {

const char *const kMagic = kCheckpointMagic.data();
// 3: the fingerprint of the run's vocabulary. Version 2 (without it) is
// still read, its vocabulary unknown.
constexpr uint32_t kVersion = 3;
constexpr size_t kHeaderBytes = 88;
/// Three copies of the parameters of the largest model tc trains, and more.
constexpr uint64_t kMaxCheckpointBytes = uint64_t(64) << 30;

struct Header {
  char magic[8];
  uint32_t version;
  /// ModelFingerprint::settings (0: not recorded; reserved and 0 in files
  /// before it, which any executable takes).
  uint32_t settings;
  int64_t step;
  uint64_t seed;
  uint64_t dataPosition;
  int64_t paramBytes;
  uint64_t fingerprint;           ///< of the parameter table
  uint64_t dataFingerprint;       ///< of the data description
  uint64_t vocabularyFingerprint; ///< 0: none (ids, a synthetic task)
  uint64_t checksum;       ///< of the body: params, first then second moments
  uint64_t headerChecksum; ///< of the bytes above
};
static_assert(sizeof(Header) == kHeaderBytes);
constexpr size_t kCheckedHeaderBytes = offsetof(Header, headerChecksum);

/// Version 2's header: no vocabulary fingerprint, zero at the end.
struct HeaderV2 {
  char magic[8];
  uint32_t version;
  uint32_t reserved;
  int64_t step;
  uint64_t seed;
  uint64_t dataPosition;
  int64_t paramBytes;
  uint64_t fingerprint;
  uint64_t dataFingerprint;
  uint64_t checksum;
  uint64_t headerChecksum;
  uint64_t zero;
};
static_assert(sizeof(HeaderV2) == kHeaderBytes);

/// The header in `bytes` (at least kHeaderBytes) as version 3 holds it;
/// false when its header checksum does not match.
bool readHeader(const std::vector<uint8_t> &bytes, Header &header) {
  std::memcpy(&header, bytes.data(), kHeaderBytes);
  if (header.version != 2)
    return header.version != kVersion ||
           header.headerChecksum ==
               tcx::checksum(bytes.data(), kCheckedHeaderBytes);
  HeaderV2 old;
  std::memcpy(&old, bytes.data(), kHeaderBytes);
  header.vocabularyFingerprint = 0;
  header.checksum = old.checksum;
  header.headerChecksum = old.headerChecksum;
  return old.headerChecksum ==
         tcx::checksum(bytes.data(), offsetof(HeaderV2, headerChecksum));
}

uint64_t bodyChecksum(const TrainingState &state) {
  // FNV-1a over the three buffers in order, as if concatenated.
  uint64_t hash = support::kFnv1aStart;
  for (const std::vector<uint8_t> *part :
       {&state.params, &state.firstMoments, &state.secondMoments})
    hash = support::fnv1a(part->data(), part->size(), hash);
  return hash;
}

/// Fault injection for the tests: TC_FAULT_KILL_DURING_CHECKPOINT=N kills
/// the process with SIGKILL halfway through writing its N-th checkpoint,
/// the moment a power cut or an OOM kill would do the most harm.
bool killedHere() {
  static int writes = 0;
  const char *n = std::getenv("TC_FAULT_KILL_DURING_CHECKPOINT");
  return n && ++writes == std::atoi(n);
}

} // namespace

ModelFingerprint modelFingerprint(const tcx::Executable &executable) {
  std::string text;
  if (executable.parameters())
    for (const tcx::Parameter *p : *executable.parameters()) {
      text += p->name()->str() + "@" + std::to_string(p->buffer()->offset());
      for (int64_t extent : *p->buffer()->shape())
        text += "x" + std::to_string(extent);
      text += ";";
    }
  const tcx::RunConfig *run = executable.run();
  return {tcx::checksum(reinterpret_cast<const uint8_t *>(text.data()),
                        text.size()),
          run ? run->model_settings() : 0u};
}

std::string checkpointPath(const std::string &directory) {
  return support::runFilePath(directory, support::kLatestCheckpointName);
}

std::optional<CheckpointIdentity>
readCheckpointIdentity(const std::string &path) {
  std::optional<std::string> start =
      support::readFilePrefix(path, kHeaderBytes);
  if (!start || start->size() != kHeaderBytes)
    return std::nullopt;
  std::vector<uint8_t> bytes(start->begin(), start->end());
  Header header{};
  // Version 2 too: a run resumed from one keeps its numbered checkpoints.
  if (!readHeader(bytes, header) ||
      std::memcmp(header.magic, kMagic, 8) != 0 ||
      (header.version != kVersion && header.version != 2))
    return std::nullopt;
  return CheckpointIdentity{header.fingerprint, header.seed,
                            header.dataFingerprint, header.step};
}

bool writeCheckpoint(const std::string &path, const TrainingState &state,
                     const ModelFingerprint &fingerprint, std::string &error,
                     support::IfPresent ifPresent) {
  Header header{};
  std::memcpy(header.magic, kMagic, 8);
  header.version = kVersion;
  header.step = state.step;
  header.seed = state.seed;
  header.dataPosition = state.dataPosition;
  header.paramBytes = int64_t(state.params.size());
  header.fingerprint = fingerprint.parameters;
  header.settings = fingerprint.settings;
  header.dataFingerprint = state.dataFingerprint;
  header.vocabularyFingerprint = state.vocabularyFingerprint;
  header.checksum = bodyChecksum(state);
  header.headerChecksum = tcx::checksum(
      reinterpret_cast<const uint8_t *>(&header), kCheckedHeaderBytes);

  auto fill = [&](support::FileWriter &out) {
    bool ok = out.write(&header, sizeof header) &&
              out.write(state.params.data(), state.params.size() / 2);
    if (ok && killedHere())
      ::kill(::getpid(), SIGKILL);
    return ok &&
           out.write(state.params.data() + state.params.size() / 2,
                     state.params.size() - state.params.size() / 2) &&
           out.write(state.firstMoments.data(), state.firstMoments.size()) &&
           out.write(state.secondMoments.data(), state.secondMoments.size());
  };
  if (!support::writeFileAtomically(path, fill, support::Durability::Durable,
                                    error, ifPresent)) {
    if (ifPresent == support::IfPresent::Replace)
      error += " (the previous checkpoint, if any, is unchanged)";
    return false;
  }
  // Temporaries of runs killed while writing are no longer needed (the
  // directory lock keeps other runs out).
  support::removeStaleTemporaries(path);
  return true;
}

std::optional<TrainingState> readCheckpoint(const std::string &path,
                                            const ModelFingerprint &fingerprint,
                                            int64_t paramBytes,
                                            std::string &error) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    error = path + ": no checkpoint there (give a checkpoint file or a run's "
                   "checkpoint directory; to start a new run, train without "
                   "--resume)";
    return std::nullopt;
  }
  // Bounded generously: a checkpoint of a larger model is read, and then
  // refused as another model's with the fix.
  std::optional<std::vector<uint8_t>> file =
      support::readFileBytes(path, kMaxCheckpointBytes, error);
  if (!file)
    return std::nullopt;
  return parseCheckpoint(*file, path, fingerprint, paramBytes, error);
}

std::optional<TrainingState>
parseCheckpoint(const std::vector<uint8_t> &bytes, const std::string &path,
                const ModelFingerprint &fingerprint, int64_t paramBytes,
                std::string &error) {
  Header header{};
  if (bytes.size() < 8 || std::memcmp(bytes.data(), kMagic, 8) != 0) {
    error = path + ": not a tc checkpoint (no TCCKPT header)";
    return std::nullopt;
  }
  if (bytes.size() < kHeaderBytes) {
    error = path + ": truncated checkpoint (" + std::to_string(bytes.size()) +
            " bytes, shorter than its header)";
    return std::nullopt;
  }
  if (!readHeader(bytes, header)) {
    error = path + ": corrupted checkpoint (header checksum mismatch); "
                   "restore it from a copy or start a new run";
    return std::nullopt;
  }
  if (header.version != 2 && header.version != kVersion) {
    error = path + ": checkpoint version " + std::to_string(header.version) +
            ", this tc-run reads versions 2 and " + std::to_string(kVersion);
    return std::nullopt;
  }
  if (header.fingerprint != fingerprint.parameters ||
      header.paramBytes != paramBytes) {
    error = path + ": the checkpoint is of another model (its parameters "
                   "differ from the executable's); use the .tcx it was "
                   "trained with, or another --checkpoint-dir";
    return std::nullopt;
  }
  // 0 in version 2, and in 3 before it was recorded.
  if (header.settings != 0 && fingerprint.settings != 0 &&
      header.settings != fingerprint.settings) {
    error = path + ": the checkpoint is of a model with other [model] "
                   "settings (heads, d_k, d_v, layer_norm_epsilon, "
                   "positional_encoding or the special ids): its parameters "
                   "fit the executable's, but they would compute something "
                   "else; use the .tcx it was trained with, or another "
                   "--checkpoint-dir";
    return std::nullopt;
  }
  if (bytes.size() != kHeaderBytes + 3 * size_t(paramBytes)) {
    error = path + ": truncated checkpoint (" + std::to_string(bytes.size()) +
            " bytes, expected " +
            std::to_string(kHeaderBytes + 3 * size_t(paramBytes)) + ")";
    return std::nullopt;
  }
  // Checksums catch accidents, not edits: a header rewritten with its
  // checksum recomputed still says only what tc could have written.
  if (header.step < 1 || header.step > contract::kMaxTrainingSteps) {
    error = path + ": the checkpoint says it was written after step " +
            std::to_string(header.step) + ", which tc never writes (steps " +
            "are 1 to " + std::to_string(contract::kMaxTrainingSteps) +
            "); restore it from a copy or start a new run";
    return std::nullopt;
  }
  if (header.seed > uint64_t(contract::kMaxSeed)) {
    error = path + ": the checkpoint says its run's seed is " +
            std::to_string(header.seed) +
            ", which tc never writes (seeds are 0 to " +
            std::to_string(contract::kMaxSeed) +
            "); restore it from a copy or start a new run";
    return std::nullopt;
  }
  TrainingState state;
  state.step = header.step;
  state.seed = header.seed;
  state.dataPosition = header.dataPosition;
  state.dataFingerprint = header.dataFingerprint;
  state.vocabularyFingerprint = header.vocabularyFingerprint;
  state.vocabularyRecorded = header.version != 2;
  const uint8_t *body = bytes.data() + kHeaderBytes;
  state.params.assign(body, body + paramBytes);
  state.firstMoments.assign(body + paramBytes, body + 2 * paramBytes);
  state.secondMoments.assign(body + 2 * paramBytes, body + 3 * paramBytes);
  if (bodyChecksum(state) != header.checksum) {
    error = path + ": corrupted checkpoint (checksum mismatch); restore it "
                   "from a copy or start a new run";
    return std::nullopt;
  }
  return state;
}

bool isTrainedVocabulary(uint64_t vocabulary, const std::string &vocabularyPath,
                         const TrainingState &state,
                         const std::string &checkpointPath,
                         std::string &error) {
  if (state.vocabularyFingerprint == 0 ||
      state.vocabularyFingerprint == vocabulary)
    return true;
  char fingerprints[96];
  std::snprintf(fingerprints, sizeof fingerprints,
                "fingerprint %016" PRIx64
                ", the checkpoint records %016" PRIx64,
                vocabulary, state.vocabularyFingerprint);
  error = vocabularyPath + " is not the vocabulary " + checkpointPath +
          " was trained with (" + fingerprints +
          "); translate with the vocabulary.model of the run's checkpoint "
          "directory";
  return false;
}

} // namespace tc::rt
