//===- NpyFormat.cpp - the NumPy .npy container ----------------------------===//

#include "support/NpyFormat.h"

#include <charconv>
#include <cstring>
#include <set>

namespace tc::support {
namespace {

/// The header dict of a .npy file, parsed strictly: exactly the keys
/// 'descr', 'fortran_order' and 'shape', each once, as numpy.save writes
/// them (numpy would take the last of two 'shape' keys; tc refuses them).
struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
};

class HeaderParser {
public:
  explicit HeaderParser(std::string_view text) : text_(text) {}

  std::optional<NpyHeader> parse(std::string &why) {
    NpyHeader header;
    std::set<std::string> seen;
    skipSpace();
    if (!consume('{'))
      return fail(why, "the header is not a dict ({...})");
    for (;;) {
      skipSpace();
      if (consume('}'))
        break;
      std::optional<std::string> key = string();
      skipSpace();
      if (!key || !consume(':'))
        return fail(why, "expected 'key': value in the header dict");
      if (!seen.insert(*key).second)
        return fail(why, "the header names '" + *key + "' twice");
      skipSpace();
      if (*key == "descr") {
        std::optional<std::string> descr = string();
        if (!descr)
          return fail(why, "'descr' is not a string");
        header.descr = *descr;
      } else if (*key == "fortran_order") {
        if (word("True"))
          header.fortranOrder = true;
        else if (!word("False"))
          return fail(why, "'fortran_order' is neither True nor False");
      } else if (*key == "shape") {
        if (!shape(header.shape, why))
          return std::nullopt;
      } else {
        return fail(why, "unknown header key '" + *key +
                             "' (a .npy header has descr, fortran_order and "
                             "shape)");
      }
      skipSpace();
      if (consume('}'))
        break;
      if (!consume(','))
        return fail(why, "expected ',' or '}' after '" + *key + "'");
    }
    skipSpace();
    if (at_ != text_.size())
      return fail(why, "text after the header dict");
    for (const char *key : {"descr", "fortran_order", "shape"})
      if (!seen.count(key))
        return fail(why, std::string("the header has no '") + key + "'");
    return header;
  }

private:
  static std::nullopt_t fail(std::string &why, const std::string &what) {
    why = what;
    return std::nullopt;
  }
  void skipSpace() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n' ||
                                  text_[at_] == '\t' || text_[at_] == '\r'))
      ++at_;
  }
  bool consume(char c) {
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  bool word(std::string_view w) {
    if (text_.substr(at_, w.size()) != w)
      return false;
    at_ += w.size();
    return true;
  }
  /// A quoted string without escapes ('<f4', "shape").
  std::optional<std::string> string() {
    if (at_ >= text_.size() || (text_[at_] != '\'' && text_[at_] != '"'))
      return std::nullopt;
    char quote = text_[at_++];
    size_t end = text_.find(quote, at_);
    if (end == std::string_view::npos)
      return std::nullopt;
    std::string value(text_.substr(at_, end - at_));
    if (value.find('\\') != std::string::npos)
      return std::nullopt;
    at_ = end + 1;
    return value;
  }
  /// A tuple of non-negative integers: "()", "(4,)", "(2, 3)".
  bool shape(std::vector<int64_t> &dims, std::string &why) {
    if (!consume('(')) {
      fail(why, "'shape' is not a tuple");
      return false;
    }
    for (;;) {
      skipSpace();
      if (consume(')'))
        return true;
      int64_t size = 0;
      const char *begin = text_.data() + at_,
                 *end = text_.data() + text_.size();
      auto [stop, ec] = std::from_chars(begin, end, size);
      if (ec != std::errc() || size < 0) {
        size_t end = text_.find_first_of(",)", at_);
        fail(why, "dimension '" + std::string(text_.substr(at_, end - at_)) +
                      "' of the shape is not a non-negative integer");
        return false;
      }
      at_ += size_t(stop - begin);
      dims.push_back(size);
      skipSpace();
      if (consume(')'))
        return true;
      if (!consume(',')) {
        fail(why, "expected ',' or ')' in 'shape'");
        return false;
      }
    }
  }

  std::string_view text_;
  size_t at_ = 0;
};

} // namespace

std::string npyShapeText(const std::vector<int64_t> &shape) {
  std::string text = "(";
  for (size_t d = 0; d < shape.size(); ++d)
    text += (d ? ", " : "") + std::to_string(shape[d]);
  if (shape.size() == 1)
    text += ","; // a one-element tuple is "(4,)"
  return text + ")";
}

std::optional<NpyLayout>
parseNpyLayout(std::string_view bytes,
               size_t (*elementBytes)(std::string_view descr),
               std::string &why) {
  auto fail = [&](const std::string &what) {
    why = what;
    return std::nullopt;
  };
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
    return fail("missing the \\x93NUMPY magic; save it with numpy.save");
  int major = static_cast<unsigned char>(bytes[6]);
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = npyLoad<uint16_t>(&bytes[8]);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return fail("truncated header");
    headerLen = npyLoad<uint32_t>(&bytes[8]);
    headerStart = 12;
  } else {
    return fail("unsupported format version " + std::to_string(major));
  }
  if (headerLen > bytes.size() - headerStart)
    return fail("truncated header");
  std::optional<NpyHeader> header =
      HeaderParser(bytes.substr(headerStart, headerLen)).parse(why);
  if (!header)
    return std::nullopt;
  size_t element = elementBytes(header->descr);
  if (element == 0)
    return fail("element type '" + header->descr + "' is not supported");
  if (header->fortranOrder)
    return fail("Fortran-ordered arrays are not supported; save "
                "numpy.ascontiguousarray(a)");
  // The product of the dimensions, in bytes, must be what the file holds
  // (checked before anything is allocated).
  size_t dataStart = headerStart + headerLen;
  uint64_t available = bytes.size() - dataStart, need = element;
  // The product of the non-zero dimensions fits int64_t too, so that
  // readers may multiply any of them (an empty array's other dimensions
  // included).
  uint64_t nonZero = 1;
  bool tooBig = false;
  for (int64_t size : header->shape) {
    if (size == 0) {
      need = 0;
      continue;
    }
    if (need > UINT64_MAX / uint64_t(size) ||
        nonZero > uint64_t(INT64_MAX) / uint64_t(size))
      tooBig = true;
    else {
      need *= uint64_t(size);
      nonZero *= uint64_t(size);
    }
  }
  if (tooBig)
    return fail("the shape " + npyShapeText(header->shape) +
                " is too large (its dimensions multiply past 2^63)");
  if (available != need)
    return fail("expected " + std::to_string(need) +
                " bytes of data for shape " + npyShapeText(header->shape) +
                ", found " + std::to_string(available));
  return NpyLayout{header->descr, header->shape, dataStart};
}

std::string npyPreamble(std::string_view descr,
                        const std::vector<int64_t> &shape) {
  std::string header = "{'descr': '" + std::string(descr) +
                       "', 'fortran_order': False, 'shape': " +
                       npyShapeText(shape) + ", }";
  // Pad with spaces so that the data starts on a 64-byte boundary.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  npyStore<uint16_t>(out, static_cast<uint16_t>(header.size()));
  return out + header;
}

} // namespace tc::support
