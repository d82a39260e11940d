//===- Npy.cpp - NumPy .npy files <-> host tensors ------------------------===//

#include "compiler/interpreter/Npy.h"

#include "support/FileBytes.h"

#include <charconv>
#include <cstring>
#include <fstream>
#include <set>
#include <string_view>

namespace tc {

namespace {

struct NpyType {
  const char *descr;
  DType dtype;
  size_t bytes;
};

// '|b1' and '<b1' both appear in the wild for bool.
constexpr NpyType kTypes[] = {
    {"<f2", DType::F16, 2}, {"<f4", DType::F32, 4}, {"<f8", DType::F64, 8},
    {"<i4", DType::I32, 4}, {"<i8", DType::I64, 8}, {"|b1", DType::I1, 1},
    {"<b1", DType::I1, 1},
};

const NpyType *npyTypeOf(DType dtype) {
  if (dtype == DType::BF16)
    dtype = DType::F32;
  for (const NpyType &t : kTypes)
    if (t.dtype == dtype)
      return &t;
  return nullptr;
}

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

template <typename T> T load(const char *p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

template <typename T> void store(std::string &out, T value) {
  out.append(reinterpret_cast<const char *>(&value), sizeof(T));
}

} // namespace

std::optional<Tensor> readNpy(const std::string &path, std::string &error) {
  std::optional<std::vector<uint8_t>> bytes =
      support::readFileBytes(path, kMaxNpyBytes, error);
  if (!bytes)
    return std::nullopt;
  return parseNpy(*bytes, path, error);
}

std::optional<Tensor> parseNpy(const std::vector<uint8_t> &file,
                               const std::string &path, std::string &error) {
  std::string_view bytes(reinterpret_cast<const char *>(file.data()),
                         file.size());
  auto fail = [&](const std::string &why) {
    error = path + ": not a valid .npy file: " + why;
    return std::nullopt;
  };
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
    return fail("missing the \\x93NUMPY magic; save it with numpy.save");
  int major = static_cast<unsigned char>(bytes[6]);
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = load<uint16_t>(&bytes[8]);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return fail("truncated header");
    headerLen = load<uint32_t>(&bytes[8]);
    headerStart = 12;
  } else {
    return fail("unsupported format version " + std::to_string(major));
  }
  if (headerLen > bytes.size() - headerStart)
    return fail("truncated header");
  std::string why;
  std::optional<NpyHeader> header =
      HeaderParser(bytes.substr(headerStart, headerLen)).parse(why);
  if (!header)
    return fail(why);

  const NpyType *type = nullptr;
  for (const NpyType &t : kTypes)
    if (header->descr == t.descr)
      type = &t;
  if (!type)
    return fail("element type '" + header->descr +
                "' is not supported; use float16/32/64, int32/64 or bool "
                "(little-endian)");
  if (header->fortranOrder)
    return fail("Fortran-ordered arrays are not supported; save "
                "numpy.ascontiguousarray(a)");
  // The product of the dimensions, in bytes, must be what the file holds
  // (checked before anything is allocated).
  const Shape &shape = header->shape;
  size_t dataStart = headerStart + headerLen;
  uint64_t available = bytes.size() - dataStart, need = type->bytes;
  bool tooBig = false;
  for (int64_t size : shape) {
    if (size != 0 && need > UINT64_MAX / uint64_t(size))
      tooBig = true;
    else
      need *= uint64_t(size);
  }
  if (tooBig || available != need)
    return fail("expected " +
                (tooBig ? "more than 2^64" : std::to_string(need)) +
                " bytes of data for shape " + formatShape(shape) + ", found " +
                std::to_string(available));
  Tensor tensor(type->dtype, shape);
  const char *data = bytes.data() + dataStart;
  for (int64_t i = 0; i < tensor.size(); ++i) {
    const char *p = data + i * type->bytes;
    switch (type->dtype) {
    case DType::F16:
      tensor.floats[i] = static_cast<double>(load<_Float16>(p));
      break;
    case DType::F32:
      tensor.floats[i] = load<float>(p);
      break;
    case DType::F64:
      tensor.floats[i] = load<double>(p);
      break;
    case DType::I32:
      tensor.ints[i] = load<int32_t>(p);
      break;
    case DType::I64:
      tensor.ints[i] = load<int64_t>(p);
      break;
    case DType::I1:
      tensor.ints[i] = p[0] != 0;
      break;
    case DType::BF16:
      break; // never read: NumPy has no bfloat16
    }
  }
  return tensor;
}

bool writeNpy(const std::string &path, const Tensor &tensor,
              std::string &error) {
  const NpyType *type = npyTypeOf(tensor.dtype);
  std::string header = std::string("{'descr': '") + type->descr +
                       "', 'fortran_order': False, 'shape': (";
  for (size_t d = 0; d < tensor.shape.size(); ++d)
    header += (d ? ", " : "") + std::to_string(tensor.shape[d]);
  if (tensor.shape.size() == 1)
    header += ","; // a one-element tuple is "(4,)"
  header += "), }";
  // Pad with spaces so that the data starts on a 64-byte boundary.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';

  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  store<uint16_t>(out, static_cast<uint16_t>(header.size()));
  out += header;
  for (int64_t i = 0; i < tensor.size(); ++i) {
    switch (type->dtype) {
    case DType::F16:
      store<_Float16>(out, static_cast<_Float16>(tensor.floats[i]));
      break;
    case DType::F32:
      store<float>(out, static_cast<float>(tensor.floats[i]));
      break;
    case DType::F64:
      store<double>(out, tensor.floats[i]);
      break;
    case DType::I32:
      store<int32_t>(out, static_cast<int32_t>(tensor.ints[i]));
      break;
    case DType::I64:
      store<int64_t>(out, tensor.ints[i]);
      break;
    case DType::I1:
      out += static_cast<char>(tensor.ints[i] != 0);
      break;
    case DType::BF16:
      break; // written as F32 (npyTypeOf)
    }
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file.write(out.data(), out.size())) {
    error = path + ": cannot write: " + std::strerror(errno);
    return false;
  }
  return true;
}

} // namespace tc
