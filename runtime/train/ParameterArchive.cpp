//===- ParameterArchive.cpp - a model's parameters as a NumPy .npz ---------===//

#include "runtime/train/ParameterArchive.h"
#include "support/NpyFormat.h"

#include <zip.h>

#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <string_view>

namespace tc::rt {
namespace {

constexpr std::string_view kSuffix = ".npy";
constexpr std::string_view kFloat32 = "<f4";

std::vector<int64_t> shapeOf(const tcx::Parameter &parameter) {
  const auto *shape = parameter.buffer()->shape();
  return shape ? std::vector<int64_t>(shape->begin(), shape->end())
               : std::vector<int64_t>();
}

int64_t bytesOf(const std::vector<int64_t> &shape) {
  int64_t elements = 1;
  for (int64_t extent : shape)
    elements *= extent;
  return 4 * elements;
}

std::string zipError(zip_t *archive) {
  return zip_error_strerror(zip_get_error(archive));
}

/// False with `error` when the float32 values at `data` (array `name` of
/// `shape` in `path`) are not all finite: a NaN would otherwise show only
/// as a loss that is not finite after the first step.
bool checkFinite(const uint8_t *data, const std::vector<int64_t> &shape,
                 const std::string &path, const std::string &name,
                 std::string &error) {
  int64_t count = bytesOf(shape) / 4, bad = 0, first = 0;
  float firstValue = 0;
  for (int64_t i = 0; i < count; ++i) {
    float value;
    std::memcpy(&value, data + 4 * i, 4);
    if (!std::isfinite(value) && bad++ == 0) {
      first = i;
      firstValue = value;
    }
  }
  if (bad == 0)
    return true;
  // The first element's index, row-major: "[1, 2]".
  std::string index;
  for (size_t d = shape.size(); d-- > 0;) {
    index =
        std::to_string(first % shape[d]) + (index.empty() ? "" : ", ") + index;
    first /= shape[d];
  }
  error = path + ": array '" + name + "' holds " +
          (std::isnan(firstValue) ? "nan"
           : firstValue > 0       ? "inf"
                                  : "-inf") +
          " at [" + index + "] (" + std::to_string(bad) +
          (bad == 1 ? " element is" : " elements are") +
          " not finite); parameters are finite numbers: export them again "
          "from a checkpoint that trained well";
  return false;
}

struct ZipCloser {
  void operator()(zip_t *archive) const { zip_discard(archive); }
};

struct ZipSourceFreer {
  void operator()(zip_source_t *source) const { zip_source_free(source); }
};

} // namespace

bool exportParameters(const tcx::Executable &executable,
                      const std::vector<uint8_t> &params,
                      const std::string &path, support::IfPresent ifPresent,
                      std::string &error) {
  // The archive is built in memory and written as every output of tc's is
  // (support/AtomicFile.h); libzip's own temporary beside `path` would
  // stay behind a killed process and replace a symbolic link.
  zip_error_t why;
  zip_error_init(&why);
  std::unique_ptr<zip_source_t, ZipSourceFreer> memory(
      zip_source_buffer_create(nullptr, 0, 0, &why));
  std::unique_ptr<zip_t, ZipCloser> archive;
  if (memory) {
    zip_source_keep(memory.get()); // past the archive's close
    archive.reset(zip_open_from_source(memory.get(), ZIP_TRUNCATE, &why));
    if (!archive)
      zip_source_free(memory.get()); // the reference kept for the archive
  }
  if (!archive) {
    error = "cannot write " + path + ": " + zip_error_strerror(&why);
    zip_error_fini(&why);
    return false;
  }
  zip_error_fini(&why);
  // libzip reads the entries' bytes when the archive is closed.
  std::vector<std::string> entries;
  entries.reserve(executable.parameters()->size());
  for (const tcx::Parameter *parameter : *executable.parameters()) {
    std::vector<int64_t> shape = shapeOf(*parameter);
    std::string entry = support::npyPreamble(kFloat32, shape);
    entry.append(reinterpret_cast<const char *>(params.data()) +
                     parameter->buffer()->offset(),
                 bytesOf(shape));
    entries.push_back(std::move(entry));
    std::string name = parameter->name()->str() + std::string(kSuffix);
    zip_source_t *source = zip_source_buffer(
        archive.get(), entries.back().data(), entries.back().size(), 0);
    zip_int64_t index =
        source ? zip_file_add(archive.get(), name.c_str(), source,
                              ZIP_FL_ENC_UTF_8)
               : -1;
    if (index < 0 ||
        zip_set_file_compression(archive.get(), index, ZIP_CM_STORE, 0) != 0) {
      if (source && index < 0)
        zip_source_free(source);
      error = "cannot write " + path + ": " + zipError(archive.get());
      return false;
    }
  }
  if (zip_close(archive.get()) != 0) {
    error = "cannot write " + path + ": " + zipError(archive.get());
    return false;
  }
  archive.release();
  entries.clear(); // the archive holds their bytes now
  if (zip_source_open(memory.get()) != 0) {
    error = "cannot write " + path + ": " +
            zip_error_strerror(zip_source_error(memory.get()));
    return false;
  }
  // Copied out a block at a time: the archive is not held twice.
  bool readFailed = false;
  auto fill = [&](support::FileWriter &out) {
    std::vector<uint8_t> block(size_t(1) << 20);
    while (true) {
      zip_int64_t n =
          zip_source_read(memory.get(), block.data(), block.size());
      if (n < 0)
        readFailed = true;
      if (n <= 0)
        return n == 0;
      if (!out.write(block.data(), size_t(n)))
        return false;
    }
  };
  bool written = support::writeFileAtomically(
      path, fill, support::Durability::Replace, error, ifPresent);
  if (readFailed)
    error = "cannot write " + path + ": " +
            zip_error_strerror(zip_source_error(memory.get()));
  zip_source_close(memory.get());
  return written;
}

std::optional<std::vector<uint8_t>>
importParameters(const tcx::Executable &executable, const std::string &path,
                 std::string &error) {
  int code = 0;
  std::unique_ptr<zip_t, ZipCloser> archive(
      zip_open(path.c_str(), ZIP_RDONLY, &code));
  if (!archive) {
    zip_error_t why;
    zip_error_init_with_code(&why, code);
    error = path + ": not a .npz archive: " + zip_error_strerror(&why) +
            " (write it with numpy.savez or tc-run export)";
    zip_error_fini(&why);
    return std::nullopt;
  }
  std::map<std::string, const tcx::Parameter *> expected;
  for (const tcx::Parameter *parameter : *executable.parameters())
    expected[parameter->name()->str()] = parameter;
  std::vector<uint8_t> params(executable.param_bytes(), 0);
  zip_int64_t count = zip_get_num_entries(archive.get(), 0);
  for (zip_int64_t i = 0; i < count; ++i) {
    zip_stat_t stat;
    if (zip_stat_index(archive.get(), i, 0, &stat) != 0) {
      error = path + ": " + zipError(archive.get());
      return std::nullopt;
    }
    std::string entry = stat.name;
    std::string name = entry.size() > kSuffix.size() &&
                               entry.compare(entry.size() - kSuffix.size(),
                                             kSuffix.size(), kSuffix) == 0
                           ? entry.substr(0, entry.size() - kSuffix.size())
                           : entry;
    auto found = expected.find(name);
    if (found == expected.end() || !found->second) {
      error = path + ": array '" + name +
              (found == expected.end()
                   ? "' is not a parameter of the model (tc-compile "
                     "--emit=params lists them)"
                   : "' appears twice");
      return std::nullopt;
    }
    const tcx::Parameter &parameter = *found->second;
    found->second = nullptr; // seen
    std::vector<int64_t> shape = shapeOf(parameter);
    // Bounded before it is read: the header and the elements, no more.
    uint64_t most = 65536 + uint64_t(bytesOf(shape));
    if (!(stat.valid & ZIP_STAT_SIZE) || stat.size > most) {
      error = path + ": array '" + name + "' is larger than the parameter's " +
              support::npyShapeText(shape) + " float32 elements";
      return std::nullopt;
    }
    std::string bytes(stat.size, '\0');
    zip_file_t *file = zip_fopen_index(archive.get(), i, 0);
    bool read = file && zip_fread(file, bytes.data(), stat.size) ==
                            zip_int64_t(stat.size);
    if (file)
      zip_fclose(file);
    if (!read) {
      error = path + ": cannot read array '" + name +
              "': " + zipError(archive.get());
      return std::nullopt;
    }
    std::string why;
    std::optional<support::NpyLayout> layout = support::parseNpyLayout(
        bytes,
        [](std::string_view descr) -> size_t {
          return descr == kFloat32 ? 4 : 0;
        },
        why);
    if (!layout || layout->shape != shape) {
      error = path + ": array '" + name + "': " +
              (layout ? "shape " + support::npyShapeText(layout->shape) +
                            ", but the parameter's is " +
                            support::npyShapeText(shape)
                      : why + " (parameters are float32: save "
                              "array.astype(numpy.float32))");
      return std::nullopt;
    }
    uint8_t *to = params.data() + parameter.buffer()->offset();
    std::memcpy(to, bytes.data() + layout->dataOffset, bytesOf(shape));
    if (!checkFinite(to, shape, path, name, error))
      return std::nullopt;
  }
  for (const auto &[name, parameter] : expected)
    if (parameter) {
      error = path + ": no array '" + name + "' (every parameter of the " +
              "model must be there)";
      return std::nullopt;
    }
  return params;
}

} // namespace tc::rt
