//===- TcxFile.h - the header around a .tcx flatbuffer --------------------===//
//
// A .tcx file is this 32-byte header, then the flatbuffer (tcx.fbs):
//
//   bytes 0-3    magic "TCX\0"
//   bytes 4-7    format version (little-endian u32), kFormatVersion
//   bytes 8-15   payload size in bytes (u64)
//   bytes 16-23  FNV-1a 64 checksum of the payload (u64)
//   bytes 24-31  zero
//
// The header lets a reader refuse a truncated, corrupted or newer/older file
// with a precise message before the flatbuffer verifier runs. No MLIR here:
// the writer (compiler/export) and the reader (runtime) share this file.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_FORMAT_TCXFILE_H
#define TC_RUNTIME_FORMAT_TCXFILE_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tc::tcx {

// 2: functions carry their role and bucket, code modules their kind and
// architecture as fields. 3: AllReduce steps are asynchronous, in buckets,
// ended by Wait steps. 4: GEMMs may compute in TF32 (Gemm.compute, which a
// reader of 3 skips and would run in f32) and the executable names its
// precision (Executable.precision). 5: the ParamCopies space (the
// parameters' bf16 copies, which a reader of 4 would not keep up to date).
inline constexpr uint32_t kFormatVersion = 5;
inline constexpr size_t kHeaderBytes = 32;
/// The largest .tcx a reader accepts: a flatbuffer cannot exceed 2 GiB.
inline constexpr uint64_t kMaxFileBytes = kHeaderBytes + (uint64_t(2) << 30);

uint64_t checksum(const uint8_t *data, size_t size);

/// The header followed by `payload`.
std::vector<uint8_t> wrapPayload(const uint8_t *payload, size_t size);

/// The flatbuffer inside a .tcx file's bytes, or an empty view with `error`
/// saying what is wrong (truncated, not a .tcx, wrong version, corrupted).
std::string_view unwrapPayload(const std::vector<uint8_t> &file,
                               std::string &error);

} // namespace tc::tcx

#endif // TC_RUNTIME_FORMAT_TCXFILE_H
