//===- NpyTest.cpp - .npy reading and writing -----------------------------===//

#include "compiler/interpreter/Npy.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

namespace {

std::string tempPath(const std::string &name) {
  return testing::TempDir() + "/tc-npy-" + name;
}

/// A version 1.0 .npy file named `name` with `header` (padded to 118 bytes
/// and a newline, as NumPy pads) and `dataBytes` zero bytes of data.
std::string npyFile(const std::string &name, std::string header,
                    size_t dataBytes) {
  header.append(118 - header.size() - 1, ' ');
  header += '\n';
  std::string path = tempPath(name);
  std::ofstream(path, std::ios::binary)
      << std::string("\x93NUMPY\x01\x00", 8) << char(118) << '\0' << header
      << std::string(dataBytes, '\0');
  return path;
}

TEST(Npy, RoundTripsEveryElementType) {
  for (tc::DType dtype : {tc::DType::F16, tc::DType::F32, tc::DType::F64,
                          tc::DType::I1, tc::DType::I32, tc::DType::I64}) {
    for (tc::Shape shape : {tc::Shape{}, tc::Shape{3}, tc::Shape{2, 3}}) {
      tc::Tensor t(dtype, shape);
      for (int64_t i = 0; i < t.size(); ++i)
        t.set(i, tc::isFloat(dtype) ? 0.5 * i - 1.25 : (i % 2));
      std::string path = tempPath(tc::dtypeName(dtype));
      std::string error;
      ASSERT_TRUE(tc::writeNpy(path, t, error)) << error;
      std::optional<tc::Tensor> back = tc::readNpy(path, error);
      ASSERT_TRUE(back) << error;
      EXPECT_EQ(back->dtype, dtype);
      EXPECT_EQ(back->shape, shape);
      EXPECT_EQ(back->floats, t.floats);
      EXPECT_EQ(back->ints, t.ints);
    }
  }
}

// The header NumPy itself writes for np.save(f, np.zeros((2, 3), np.float32)).
TEST(Npy, ReadsNumPysOwnHeader) {
  std::string path = npyFile(
      "numpy-header",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 24);
  std::string error;
  std::optional<tc::Tensor> t = tc::readNpy(path, error);
  ASSERT_TRUE(t) << error;
  EXPECT_EQ(t->shape, (tc::Shape{2, 3}));
  EXPECT_EQ(t->dtype, tc::DType::F32);
}

TEST(Npy, RejectsBadFilesWithAReason) {
  std::string error;
  EXPECT_FALSE(tc::readNpy(tempPath("does-not-exist"), error));
  EXPECT_NE(error.find("cannot open"), std::string::npos) << error;

  std::string path = tempPath("garbage");
  std::ofstream(path) << "this is not numpy";
  EXPECT_FALSE(tc::readNpy(path, error));
  EXPECT_NE(error.find("magic"), std::string::npos) << error;

  tc::Tensor t(tc::DType::F32, {4});
  ASSERT_TRUE(tc::writeNpy(path, t, error));
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::ofstream(path, std::ios::binary) << bytes.substr(0, bytes.size() - 4);
  EXPECT_FALSE(tc::readNpy(path, error));
  EXPECT_NE(error.find("expected 16 bytes"), std::string::npos) << error;
}

// Malformed shapes are refused before anything is allocated.
TEST(Npy, RejectsMalformedShapes) {
  auto withShape = [](const std::string &shape) {
    std::string path = npyFile(
        "shape",
        "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }",
        16);
    std::string error;
    EXPECT_FALSE(tc::readNpy(path, error)) << shape;
    return error;
  };
  EXPECT_NE(withShape("(x,)").find("dimension 'x' of the shape is not a "
                                   "non-negative integer"),
            std::string::npos);
  EXPECT_NE(withShape("(-4,)").find("dimension '-4'"), std::string::npos);
  EXPECT_NE(withShape("(4294967296, 4294967296, 4294967296)")
                .find("is too large (its dimensions multiply past 2^63)"),
            std::string::npos);
  // Empty, but its other dimensions would overflow a reader's products (a
  // fuzz find: the interpreter's element count overflowed int64_t).
  EXPECT_NE(withShape("(5, 2, 45, 5, 5053, 555, 55503, 85, 503, 0)")
                .find("is too large"),
            std::string::npos);
  EXPECT_NE(withShape("(5,)").find("expected 20 bytes of data for shape (5,), "
                                   "found 16"),
            std::string::npos);
}

// The header is a dict with exactly descr, fortran_order and shape, once
// each (issue 15: a second 'shape' key was ignored where numpy takes it).
TEST(Npy, RejectsMalformedHeaders) {
  auto withHeader = [](const std::string &header) {
    std::string path = npyFile("header", header, 16);
    std::string error;
    EXPECT_FALSE(tc::readNpy(path, error)) << header;
    return error;
  };
  const std::pair<const char *, const char *> cases[] = {
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (4,), "
       "'shape': (2, 2), }",
       "the header names 'shape' twice"},
      {"{'descr': '<f4', 'fortran_order': False, }",
       "the header has no 'shape'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'extra': 1}",
       "unknown header key 'extra'"},
      {"{'descr': '<f4x', 'fortran_order': False, 'shape': (4,)}",
       "element type '<f4x' is not supported"},
      {"{'descr': '<f4', 'fortran_order': Maybe, 'shape': (4,)}",
       "'fortran_order' is neither True nor False"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (4,)} trailing",
       "text after the header dict"},
  };
  for (auto [header, message] : cases)
    EXPECT_NE(withHeader(header).find(message), std::string::npos) << header;
}

} // namespace
