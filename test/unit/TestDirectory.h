//===- TestDirectory.h - a fresh directory per test ------------------------===//

#ifndef TC_TEST_UNIT_TESTDIRECTORY_H
#define TC_TEST_UNIT_TESTDIRECTORY_H

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace tc::test {

/// An empty directory for the running test: `prefix-<test name>` under
/// GoogleTest's temporary directory, emptied first.
inline std::filesystem::path freshTestDirectory(const std::string &prefix) {
  std::filesystem::path dir =
      std::filesystem::path(testing::TempDir()) /
      (prefix + "-" +
       testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

} // namespace tc::test

#endif // TC_TEST_UNIT_TESTDIRECTORY_H
