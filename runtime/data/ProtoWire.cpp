//===- ProtoWire.cpp - the protocol buffer wire format, strictly read -----===//

#include "runtime/data/ProtoWire.h"

#include <cstring>

namespace tc::rt {
namespace {

/// The varint at `at`, moving `at` past it; none when it runs past the end
/// or past 10 bytes (64 bits).
std::optional<uint64_t> readVarint(std::string_view bytes, size_t &at) {
  uint64_t value = 0;
  for (int shift = 0; shift < 70 && at < bytes.size(); shift += 7) {
    uint8_t byte = uint8_t(bytes[at++]);
    value |= uint64_t(byte & 0x7f) << shift;
    if (byte < 0x80)
      return value;
  }
  return std::nullopt;
}

void appendVarint(std::string &out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(char(value | 0x80));
    value >>= 7;
  }
  out.push_back(char(value));
}

} // namespace

std::optional<std::vector<ProtoField>> parseProtoMessage(std::string_view bytes,
                                                         std::string &error) {
  std::vector<ProtoField> fields;
  size_t at = 0;
  auto broken = [&](size_t where, const std::string &what) {
    error = "the protocol buffer breaks at byte " + std::to_string(where) +
            ": " + what;
    return std::nullopt;
  };
  while (at < bytes.size()) {
    size_t start = at;
    std::optional<uint64_t> key = readVarint(bytes, at);
    if (!key)
      return broken(start, "a field's key runs past its end");
    ProtoField field;
    if (*key >> 3 == 0 || *key >> 3 > (uint64_t(1) << 29) - 1)
      return broken(start, "field number " + std::to_string(*key >> 3));
    field.number = uint32_t(*key >> 3);
    switch (*key & 7) {
    case 0: {
      field.type = WireType::Varint;
      std::optional<uint64_t> value = readVarint(bytes, at);
      if (!value)
        return broken(start, "a varint runs past its end or 10 bytes");
      field.value = *value;
      break;
    }
    case 1:
    case 5: {
      field.type = (*key & 7) == 1 ? WireType::Fixed64 : WireType::Fixed32;
      size_t size = field.type == WireType::Fixed64 ? 8 : 4;
      if (bytes.size() - at < size)
        return broken(start, "a fixed-size field runs past the end");
      std::memcpy(&field.value, bytes.data() + at, size); // little-endian
      at += size;
      break;
    }
    case 2: {
      field.type = WireType::Bytes;
      std::optional<uint64_t> length = readVarint(bytes, at);
      if (!length || *length > bytes.size() - at)
        return broken(start, "a length-delimited field runs past the end");
      field.bytes = bytes.substr(at, *length);
      at += *length;
      break;
    }
    default:
      return broken(start, "wire type " + std::to_string(*key & 7) +
                               " (groups are not used by SentencePiece)");
    }
    fields.push_back(field);
  }
  return fields;
}

void appendProtoField(std::string &out, const ProtoField &field) {
  appendVarint(out, uint64_t(field.number) << 3 | uint64_t(field.type));
  switch (field.type) {
  case WireType::Varint:
    appendVarint(out, field.value);
    break;
  case WireType::Fixed64:
  case WireType::Fixed32: {
    char bits[8];
    std::memcpy(bits, &field.value, 8);
    out.append(bits, field.type == WireType::Fixed64 ? 8 : 4);
    break;
  }
  case WireType::Bytes:
    appendVarint(out, field.bytes.size());
    out.append(field.bytes);
    break;
  }
}

} // namespace tc::rt
