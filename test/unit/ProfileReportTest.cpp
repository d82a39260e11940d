//===- ProfileReportTest.cpp - the profile file a run writes at its end ----===//
//
// A --profile path is checked when a run starts and written when it ends,
// maybe hours later: a file that appeared there meanwhile and that the
// output policy refuses (not a profile) is kept, not replaced.
//
//===----------------------------------------------------------------------===//

#include "runtime/report/ProfileReport.h"
#include "support/FileBytes.h"

#include "TestDirectory.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace tc;

namespace {

std::string bytesOf(const fs::path &path) {
  std::string error;
  return support::readFileText(path.string(), support::kMiB, error)
      .value_or("<none>");
}

TEST(ProfileReport, AFileThatAppearedDuringTheRunIsKept) {
  fs::path dir = test::freshTestDirectory("profile");
  fs::path path = dir / "p.json";
  std::ofstream(path) << "the user's notes\n";
  std::string error;
  EXPECT_FALSE(rt::writeProfile(path.string(), {}, 1.0, error));
  EXPECT_NE(error.find("a file appeared there while tc worked"),
            std::string::npos)
      << error;
  EXPECT_EQ(bytesOf(path), "the user's notes\n");
  std::string kept = bytesOf(path.string() + ".new." +
                             std::to_string(::getpid()));
  EXPECT_EQ(kept.rfind(rt::kProfileMagic, 0), 0u) << kept;
}

TEST(ProfileReport, AnEarlierProfileIsReplaced) {
  fs::path dir = test::freshTestDirectory("profile");
  fs::path path = dir / "p.json";
  std::string error;
  ASSERT_TRUE(rt::writeProfile(path.string(), {}, 1.0, error)) << error;
  ASSERT_TRUE(rt::writeProfile(path.string(), {}, 2.0, error)) << error;
  EXPECT_EQ(bytesOf(path).rfind(std::string(rt::kProfileMagic) + "2", 0), 0u)
      << bytesOf(path);
}

} // namespace
