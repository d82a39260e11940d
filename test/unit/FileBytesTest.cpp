//===- FileBytesTest.cpp - bounded whole-file reads ------------------------===//
//
// Every input tc reads whole goes through support::readFileBytes: these
// are the files a careless command line names (issue 15: a directory made
// tc-inspect abort, /dev/zero made it read until memory ran out).

#include "support/FileBytes.h"

#include "TestDirectory.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>

namespace fs = std::filesystem;
using namespace tc::support;

namespace {

class FileBytes : public testing::Test {
protected:
  void SetUp() override { dir = tc::test::freshTestDirectory("filebytes"); }
  std::string write(const std::string &name, const std::string &text) {
    std::string path = (dir / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  fs::path dir;
  std::string error;
};

TEST_F(FileBytes, ReadsARegularFileExactly) {
  std::string path = write("a.bin", std::string("ab\0c", 4));
  std::optional<std::vector<uint8_t>> bytes = readFileBytes(path, 4, error);
  ASSERT_TRUE(bytes) << error;
  EXPECT_EQ(*bytes, (std::vector<uint8_t>{'a', 'b', 0, 'c'}));
  EXPECT_EQ(readFileText(path, 4, error), std::string("ab\0c", 4));
}

// A file of /proc states a size of 0 whatever it holds: it is read to its
// end (score -r /proc/self/status said it had no lines), within the limit.
TEST_F(FileBytes, ReadsAProcFileToItsEnd) {
  std::optional<std::string> status =
      readFileText("/proc/self/status", kMiB, error);
  ASSERT_TRUE(status) << error;
  EXPECT_EQ(status->rfind("Name:", 0), 0u) << *status;
  EXPECT_FALSE(readFileText("/proc/self/status", 16, error));
  EXPECT_EQ(error, "/proc/self/status: is larger than the 16 bytes such a "
                   "file may have");
}

TEST_F(FileBytes, RefusesAFileOverTheLimitNamingIt) {
  std::string path = write("big.bin", std::string(2048, 'x'));
  EXPECT_FALSE(readFileBytes(path, 1024, error));
  EXPECT_EQ(error, path + ": is 2.0 KiB, larger than the 1.0 KiB such a "
                          "file may have")
      << "(the message names the file and both sizes)";
}

TEST_F(FileBytes, RefusesADirectory) {
  EXPECT_FALSE(readFileBytes(dir.string(), kGiB, error));
  EXPECT_EQ(error, dir.string() + ": is a directory; give the path of a file");
}

TEST_F(FileBytes, RefusesADeviceWithoutReadingIt) {
  // /dev/zero never ends: a read without a check would fill the memory.
  EXPECT_FALSE(readFileBytes("/dev/zero", kGiB, error));
  EXPECT_NE(error.find("/dev/zero: is not a regular file"), std::string::npos)
      << error;
}

TEST_F(FileBytes, RefusesAFifoWithoutWaitingForAWriter) {
  std::string path = (dir / "fifo").string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  EXPECT_FALSE(readFileText(path, kGiB, error)); // returns: no writer needed
  EXPECT_NE(error.find("is not a regular file"), std::string::npos) << error;
}

TEST_F(FileBytes, SaysWhyAFileCannotBeOpened) {
  std::string path = (dir / "missing").string();
  EXPECT_FALSE(readFileBytes(path, kGiB, error));
  EXPECT_EQ(error, path + ": cannot open: No such file or directory");
}

TEST_F(FileBytes, ChecksAFormatsMagic) {
  std::string path = write("tokens", "TCTOKENS....");
  EXPECT_TRUE(fileStartsWith(path, "TCTOKENS"));
  EXPECT_FALSE(fileStartsWith(path, "TCCKPT"));
  EXPECT_FALSE(fileStartsWith(write("short", "TC"), "TCTOKENS"));
  EXPECT_FALSE(fileStartsWith((dir / "missing").string(), "TC"));
}

TEST(ByteCount, SaysSizesInTheLargestWholeUnit) {
  EXPECT_EQ(byteCount(0), "0 bytes");
  EXPECT_EQ(byteCount(1023), "1023 bytes");
  EXPECT_EQ(byteCount(1536), "1.5 KiB");
  EXPECT_EQ(byteCount(3 * kMiB), "3.0 MiB");
  EXPECT_EQ(byteCount(16 * kGiB), "16.0 GiB");
}

} // namespace
