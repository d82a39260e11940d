//===- TcxFile.cpp - the header around a .tcx flatbuffer ------------------===//

#include "runtime/format/TcxFile.h"
#include "runtime/format/FileKind.h"
#include "support/Fnv1a.h"

#include <cstring>

namespace tc::tcx {
namespace {

constexpr char kMagic[4] = {'T', 'C', 'X', '\0'};

template <typename T> T read(const uint8_t *p) {
  T value;
  std::memcpy(&value, p, sizeof(T)); // the header is little-endian, as x86
  return value;
}

template <typename T> void write(uint8_t *p, T value) {
  std::memcpy(p, &value, sizeof(T));
}

} // namespace

uint64_t checksum(const uint8_t *data, size_t size) {
  return support::fnv1a(data, size);
}

std::vector<uint8_t> wrapPayload(const uint8_t *payload, size_t size) {
  std::vector<uint8_t> file(kHeaderBytes + size, 0);
  std::memcpy(file.data(), kMagic, 4);
  write<uint32_t>(file.data() + 4, kFormatVersion);
  write<uint64_t>(file.data() + 8, size);
  write<uint64_t>(file.data() + 16, checksum(payload, size));
  if (size > 0) // memcpy from null (an empty payload) is undefined
    std::memcpy(file.data() + kHeaderBytes, payload, size);
  return file;
}

std::string_view unwrapPayload(const std::vector<uint8_t> &file,
                               std::string &error) {
  if (file.size() < 4 && !file.empty() &&
      std::memcmp(file.data(), kMagic, file.size()) == 0) {
    error = "truncated: " + std::to_string(file.size()) +
            " bytes, shorter than the " + std::to_string(kHeaderBytes) +
            "-byte header";
    return {};
  }
  if (file.size() < 4 || std::memcmp(file.data(), kMagic, 4) != 0) {
    std::optional<std::string> kind = rt::tcFileKind(file.data(), file.size());
    error = "not a tc executable (no TCX header)" +
            (kind ? ", but " + *kind : std::string()) +
            "; the executable is what tc-compile MODEL.toml -o MODEL.tcx "
            "writes";
    return {};
  }
  if (file.size() < kHeaderBytes) {
    error = "truncated: " + std::to_string(file.size()) +
            " bytes, shorter than the " + std::to_string(kHeaderBytes) +
            "-byte header";
    return {};
  }
  uint32_t version = read<uint32_t>(file.data() + 4);
  if (version != kFormatVersion) {
    error = "format version " + std::to_string(version) +
            ", but this build reads version " + std::to_string(kFormatVersion) +
            "; recompile the model with this tc-compile";
    return {};
  }
  if (read<uint64_t>(file.data() + 24) != 0) {
    error = "corrupted: the header's reserved bytes are not zero; copy or "
            "rebuild the file";
    return {};
  }
  uint64_t size = read<uint64_t>(file.data() + 8);
  if (file.size() - kHeaderBytes != size) {
    // The promise in full, also where size + kHeaderBytes would wrap.
    std::string promised =
        size > UINT64_MAX - kHeaderBytes
            ? std::to_string(size) + " + " + std::to_string(kHeaderBytes)
            : std::to_string(size + kHeaderBytes);
    error = "truncated or padded: the header promises " + promised +
            " bytes, the file has " +
            std::to_string(file.size()) + "; copy or rebuild the file";
    return {};
  }
  if (size == 0) {
    error = "the executable is empty (a header without contents); rebuild "
            "it with tc-compile";
    return {};
  }
  const uint8_t *payload = file.data() + kHeaderBytes;
  if (checksum(payload, size) != read<uint64_t>(file.data() + 16)) {
    error = "corrupted: the checksum of its contents does not match the "
            "header; copy or rebuild the file";
    return {};
  }
  return {reinterpret_cast<const char *>(payload), size};
}

} // namespace tc::tcx
