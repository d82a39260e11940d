//===- Npy.cpp - NumPy .npy files <-> host tensors ------------------------===//

#include "compiler/interpreter/Npy.h"

#include "support/FileBytes.h"
#include "support/NpyFormat.h"

#include <cstring>
#include <fstream>
#include <string_view>

namespace tc {

using support::npyLoad;
using support::npyStore;

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
  std::string why;
  std::optional<support::NpyLayout> layout = support::parseNpyLayout(
      bytes,
      [](std::string_view descr) -> size_t {
        for (const NpyType &t : kTypes)
          if (descr == t.descr)
            return t.bytes;
        return 0;
      },
      why);
  if (!layout)
    return fail(why + (why.rfind("element type", 0) == 0
                           ? "; use float16/32/64, int32/64 or bool "
                             "(little-endian)"
                           : ""));
  const NpyType *type = nullptr;
  for (const NpyType &t : kTypes)
    if (layout->descr == t.descr)
      type = &t;
  const Shape &shape = layout->shape;
  size_t dataStart = layout->dataOffset;
  Tensor tensor(type->dtype, shape);
  const char *data = bytes.data() + dataStart;
  for (int64_t i = 0; i < tensor.size(); ++i) {
    const char *p = data + i * type->bytes;
    switch (type->dtype) {
    case DType::F16:
      tensor.floats[i] = static_cast<double>(npyLoad<_Float16>(p));
      break;
    case DType::F32:
      tensor.floats[i] = npyLoad<float>(p);
      break;
    case DType::F64:
      tensor.floats[i] = npyLoad<double>(p);
      break;
    case DType::I32:
      tensor.ints[i] = npyLoad<int32_t>(p);
      break;
    case DType::I64:
      tensor.ints[i] = npyLoad<int64_t>(p);
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
  std::string out = support::npyPreamble(type->descr, tensor.shape);
  for (int64_t i = 0; i < tensor.size(); ++i) {
    switch (type->dtype) {
    case DType::F16:
      npyStore<_Float16>(out, static_cast<_Float16>(tensor.floats[i]));
      break;
    case DType::F32:
      npyStore<float>(out, static_cast<float>(tensor.floats[i]));
      break;
    case DType::F64:
      npyStore<double>(out, tensor.floats[i]);
      break;
    case DType::I32:
      npyStore<int32_t>(out, static_cast<int32_t>(tensor.ints[i]));
      break;
    case DType::I64:
      npyStore<int64_t>(out, tensor.ints[i]);
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
