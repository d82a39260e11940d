//===- Npy.cpp - NumPy .npy files <-> host tensors ------------------------===//

#include "compiler/interpreter/Npy.h"

#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

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

/// The text after `'key':` in a header dict, or "" when absent.
std::string headerValue(const std::string &header, const std::string &key) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos)
    return "";
  at = header.find(':', at);
  return at == std::string::npos ? "" : header.substr(at + 1);
}

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
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot open: " + std::strerror(errno);
    return std::nullopt;
  }
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
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
  if (headerStart + headerLen > bytes.size())
    return fail("truncated header");
  std::string header = bytes.substr(headerStart, headerLen);

  std::string descr = headerValue(header, "descr");
  const NpyType *type = nullptr;
  for (const NpyType &t : kTypes)
    if (descr.find(std::string("'") + t.descr + "'") != std::string::npos)
      type = &t;
  if (!type)
    return fail("element type " + descr.substr(0, descr.find(',')) +
                " is not supported; use float16/32/64, int32/64 or bool "
                "(little-endian)");
  std::string fortranOrder = headerValue(header, "fortran_order");
  if (fortranOrder.substr(0, fortranOrder.find(',')).find("True") !=
      std::string::npos)
    return fail("Fortran-ordered arrays are not supported; save "
                "numpy.ascontiguousarray(a)");

  std::string shapeText = headerValue(header, "shape");
  size_t open = shapeText.find('('), close = shapeText.find(')');
  if (open == std::string::npos || close == std::string::npos)
    return fail("header has no shape tuple");
  // Dimensions: non-negative integers whose product, in bytes, is what the
  // file holds (checked before anything is allocated).
  Shape shape;
  size_t dataStart = headerStart + headerLen;
  uint64_t available = bytes.size() - dataStart, need = type->bytes;
  bool tooBig = false;
  std::stringstream dims(shapeText.substr(open + 1, close - open - 1));
  for (std::string dim; std::getline(dims, dim, ',');) {
    size_t first = dim.find_first_not_of(' '), last = dim.find_last_not_of(' ');
    if (first == std::string::npos)
      continue;
    int64_t size = 0;
    const char *begin = dim.data() + first, *end = dim.data() + last + 1;
    auto [stop, ec] = std::from_chars(begin, end, size);
    if (ec != std::errc() || stop != end || size < 0)
      return fail("dimension '" + dim.substr(first, last - first + 1) +
                  "' of the shape is not a non-negative integer");
    if (size != 0 && need > UINT64_MAX / uint64_t(size))
      tooBig = true;
    else
      need *= uint64_t(size);
    shape.push_back(size);
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
