//===- ProtoWire.h - the protocol buffer wire format, strictly read ---------===//
//
// SentencePiece models are protocol buffers, and Debian ships neither their
// generated header nor protobuf's: tc reads and writes the wire format
// itself (https://protobuf.dev/programming-guides/encoding/), only the four
// wire types proto2 messages without groups use. Reading refuses what a
// protobuf serialiser never writes: groups, a varint longer than 10 bytes,
// a length past the end, field number 0.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DATA_PROTOWIRE_H
#define TC_RUNTIME_DATA_PROTOWIRE_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tc::rt {

enum class WireType : uint8_t {
  Varint = 0,
  Fixed64 = 1,
  Bytes = 2,
  Fixed32 = 5
};

/// One field of a message as the wire format holds it.
struct ProtoField {
  uint32_t number = 0;
  WireType type = WireType::Varint;
  uint64_t value = 0;     ///< a varint's value, or a fixed field's bits
  std::string_view bytes; ///< a length-delimited field's payload
};

/// The fields of the message in `bytes`, in their order (views into
/// `bytes`); none with `error` saying where the wire format breaks.
std::optional<std::vector<ProtoField>> parseProtoMessage(std::string_view bytes,
                                                         std::string &error);

/// Appends `field` to `out` in the wire format (varints in their shortest
/// form).
void appendProtoField(std::string &out, const ProtoField &field);

} // namespace tc::rt

#endif // TC_RUNTIME_DATA_PROTOWIRE_H
