//===- AtomicFileTest.cpp - the one atomic write of support/ ---------------===//

#include "support/AtomicFile.h"
#include "support/FileBytes.h"

#include "TestDirectory.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace tc::support;

namespace {

std::string bytesOf(const std::string &path) {
  std::string error;
  return readFileText(path, kMiB, error).value_or("<none>");
}

/// The names in `directory`.
std::vector<std::string> entries(const fs::path &directory) {
  std::vector<std::string> names;
  for (const auto &entry : fs::directory_iterator(directory))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// Every test twice: with temporaries that have no name until they are
/// whole (O_TMPFILE, where the test directory's file system has it), and
/// with named ones, as on a file system without it.
class AtomicFile : public testing::TestWithParam<bool> {
protected:
  void SetUp() override {
    dir = tc::test::freshTestDirectory("atomic");
    setNamedTemporariesForTesting(named());
  }
  void TearDown() override { setNamedTemporariesForTesting(false); }
  bool named() const { return GetParam(); }
  fs::path dir;
};

TEST_P(AtomicFile, WritesAndReplacesWhole) {
  std::string path = (dir / "f").string(), error;
  for (Durability d : {Durability::Replace, Durability::Durable}) {
    ASSERT_TRUE(writeFileAtomically(path, "first", 5, error, d)) << error;
    EXPECT_EQ(bytesOf(path), "first");
    ASSERT_TRUE(writeFileAtomically(path, "2nd", 3, error, d)) << error;
    EXPECT_EQ(bytesOf(path), "2nd");
  }
  EXPECT_EQ(entries(dir), std::vector<std::string>{"f"}); // no temporaries
}

TEST_P(AtomicFile, AFailedFillKeepsTheOldFileAndNoTemporary) {
  std::string path = (dir / "f").string(), error;
  ASSERT_TRUE(writeFileAtomically(path, "old", 3, error));
  auto halfThenFail = [](FileWriter &out) {
    return out.write("new", 3) && false;
  };
  EXPECT_FALSE(
      writeFileAtomically(path, halfThenFail, Durability::Durable, error));
  EXPECT_EQ(error, "cannot write " + path + ": Input/output error");
  EXPECT_EQ(bytesOf(path), "old");
  EXPECT_EQ(entries(dir), std::vector<std::string>{"f"});
}

// Issue 15: a full cache directory was reported as "cannot write ...:
// Success". A full disk's ENOSPC reaches the message.
TEST_P(AtomicFile, AFullDiskIsReportedAsSuch) {
  int full = ::open("/dev/full", O_WRONLY);
  ASSERT_GE(full, 0);
  FileWriter device(full);
  errno = 0;
  EXPECT_FALSE(device.write("x", 1));
  EXPECT_EQ(errno, ENOSPC);
  ::close(full);
  std::string path = (dir / "f").string(), error;
  auto fillsADevice = [](FileWriter &) {
    int fd = ::open("/dev/full", O_WRONLY);
    bool ok = FileWriter(fd).write("x", 1);
    int saved = errno;
    ::close(fd);
    errno = saved;
    return ok;
  };
  EXPECT_FALSE(
      writeFileAtomically(path, fillsADevice, Durability::Replace, error));
  EXPECT_EQ(error, "cannot write " + path + ": No space left on device");
  EXPECT_EQ(entries(dir), std::vector<std::string>{});
}

TEST_P(AtomicFile, AMissingDirectoryIsNamed) {
  std::string path = (dir / "missing" / "f").string(), error;
  EXPECT_FALSE(writeFileAtomically(path, "x", 1, error));
  EXPECT_EQ(error, "cannot write " + path + ": No such file or directory");
}

TEST_P(AtomicFile, ATargetThatCannotBeReplacedKeepsNoTemporary) {
  fs::create_directories(dir / "f" / "inside"); // a non-empty directory
  std::string path = (dir / "f").string(), error;
  EXPECT_FALSE(writeFileAtomically(path, "x", 1, error));
  EXPECT_NE(error.find("cannot write " + path + ": "), std::string::npos);
  EXPECT_EQ(entries(dir), std::vector<std::string>{"f"});
}

TEST_P(AtomicFile, NewFilesFollowTheUmask) {
  mode_t old = ::umask(002);
  std::string path = (dir / "f").string(), error;
  bool written = writeFileAtomically(path, "x", 1, error);
  ::umask(old);
  ASSERT_TRUE(written) << error;
  struct stat info;
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0664u);
}

// Without --overwrite a command checks that its output is not there, works
// (minutes), then writes: a file that another program created meanwhile
// is kept, and so is what tc wrote, under a name the error gives.
TEST_P(AtomicFile, AFileThatAppearedMeanwhileIsKeptWhenAskedTo) {
  std::string path = (dir / "out.txt").string(), error;
  auto theirsAppears = [&](FileWriter &out) {
    std::string theirs;
    return out.write("ours", 4) &&
           writeFileAtomically(path, "theirs", 6, theirs);
  };
  EXPECT_FALSE(writeFileAtomically(path, theirsAppears, Durability::Replace,
                                   error, IfPresent::Keep));
  std::string kept = path + ".new." + std::to_string(::getpid());
  EXPECT_EQ(error, "cannot write " + path +
                       ": a file appeared there while tc worked, and was "
                       "left as it was; what tc wrote is in " +
                       kept + " (move it there if that file is not "
                              "needed)");
  EXPECT_EQ(bytesOf(path), "theirs");
  EXPECT_EQ(bytesOf(kept), "ours");
  EXPECT_EQ(entries(dir), (std::vector<std::string>{
                              "out.txt", "out.txt.new." +
                                             std::to_string(::getpid())}));
  // With IfPresent::Replace (--overwrite) it is replaced.
  ASSERT_TRUE(writeFileAtomically(path, theirsAppears, Durability::Replace,
                                  error, IfPresent::Replace))
      << error;
  EXPECT_EQ(bytesOf(path), "ours");
  // Where nothing appeared, Keep writes as Replace does.
  std::string fresh = (dir / "fresh.txt").string();
  ASSERT_TRUE(writeFileAtomically(fresh, "x", 1, error, Durability::Durable,
                                  IfPresent::Keep))
      << error;
  EXPECT_EQ(bytesOf(fresh), "x");
}

// As the shell's > does: the link stays, the file it names is replaced (or
// created, for a link to nothing yet).
TEST_P(AtomicFile, ASymbolicLinkIsWrittenThrough) {
  fs::create_directories(dir / "runs");
  fs::create_symlink("runs/7.txt", dir / "latest.txt");
  std::string link = (dir / "latest.txt").string(), error;
  EXPECT_EQ(writtenPath(link), (dir / "runs/7.txt").string());
  for (const char *text : {"first", "second"}) {
    ASSERT_TRUE(writeFileAtomically(link, text, std::strlen(text), error))
        << error;
    EXPECT_TRUE(fs::is_symlink(dir / "latest.txt"));
    EXPECT_EQ(bytesOf((dir / "runs/7.txt").string()), text);
  }
  EXPECT_EQ(entries(dir / "runs"), std::vector<std::string>{"7.txt"});
}

TEST_P(AtomicFile, AReplacedFileKeepsItsPermissions) {
  std::string path = (dir / "f").string(), error;
  ASSERT_TRUE(writeFileAtomically(path, "old", 3, error)) << error;
  ASSERT_EQ(::chmod(path.c_str(), 0600), 0);
  mode_t old = ::umask(022); // a new file would be 0644
  bool written = writeFileAtomically(path, "new", 3, error);
  ::umask(old);
  ASSERT_TRUE(written) << error;
  struct stat info;
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
}

// The file being written has no name until it is whole (O_TMPFILE, which
// the build directory's file system has: ext4, tmpfs, xfs, btrfs): a
// process killed while writing leaves nothing. Without it, the killed
// writer's named temporary is left, and the next removal of stale ones
// takes it.
TEST_P(AtomicFile, AWriterKilledMidWriteLeavesNoFile) {
  int probe = ::open(dir.c_str(), O_TMPFILE | O_WRONLY, 0600);
  if (probe < 0 && !named())
    GTEST_SKIP() << dir << " has no O_TMPFILE: a named temporary is left";
  if (probe >= 0)
    ::close(probe);
  std::string path = (dir / "f").string();
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::string error;
    writeFileAtomically(
        path,
        [](FileWriter &out) {
          out.write("half", 4);
          ::kill(::getpid(), SIGKILL);
          return true;
        },
        Durability::Replace, error);
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status));
  if (named()) {
    // "f.tmp.<pid>.<n>", n counting the temporaries of this test process.
    std::vector<std::string> left = entries(dir);
    ASSERT_EQ(left.size(), 1u);
    EXPECT_TRUE(left[0].starts_with("f.tmp." + std::to_string(child) + "."))
        << left[0];
    removeStaleTemporaries(path);
  }
  EXPECT_EQ(entries(dir), std::vector<std::string>{});
}

// A run's best.tcck and numbered checkpoints: another name for its latest.
TEST_P(AtomicFile, ALinkIsPutInPlaceWholeWithNoTemporaryLeft) {
  std::string target = (dir / "checkpoint").string(),
              link = (dir / "best").string(), error;
  ASSERT_TRUE(writeFileAtomically(target, "latest", 6, error)) << error;
  ASSERT_TRUE(writeFileAtomically(link, "older", 5, error)) << error;
  // Twice: the second time both names are one file already, and rename
  // leaves its temporary for the link to remove.
  for (int time = 0; time < 2; ++time) {
    ASSERT_TRUE(linkFileAtomically(target, link, error)) << error;
    EXPECT_TRUE(fs::equivalent(target, link));
    EXPECT_EQ(bytesOf(link), "latest");
    EXPECT_EQ(entries(dir), (std::vector<std::string>{"best", "checkpoint"}));
  }
}

// The name is replaced, as rename does: a symbolic link there is not
// followed, and the file it named stays as it was.
TEST_P(AtomicFile, ASymbolicLinkAtTheLinksNameIsReplacedNotWrittenThrough) {
  std::string target = (dir / "checkpoint").string(),
              other = (dir / "other").string(), error;
  ASSERT_TRUE(writeFileAtomically(target, "latest", 6, error)) << error;
  ASSERT_TRUE(writeFileAtomically(other, "theirs", 6, error)) << error;
  fs::create_symlink("other", dir / "best");
  ASSERT_TRUE(linkFileAtomically(target, (dir / "best").string(), error))
      << error;
  EXPECT_FALSE(fs::is_symlink(dir / "best"));
  EXPECT_TRUE(fs::equivalent(target, dir / "best"));
  EXPECT_EQ(bytesOf(other), "theirs");
}

TEST_P(AtomicFile, ALinkToNothingFailsNamingBothAndLeavesNothing) {
  std::string target = (dir / "gone").string(),
              link = (dir / "best").string(), error;
  EXPECT_FALSE(linkFileAtomically(target, link, error));
  EXPECT_EQ(error, "cannot link " + link + " to " + target +
                       ": No such file or directory");
  EXPECT_EQ(entries(dir), std::vector<std::string>{});
}

// Those of processes that are gone (no pid is above 2^22) or of this one
// go; a running process's may be a write in progress, and stays.
TEST_P(AtomicFile, StaleTemporariesOfThatFileAreRemoved) {
  std::string path = (dir / "checkpoint").string(), error;
  std::string running = "checkpoint.tmp." + std::to_string(::getppid()) + ".0";
  for (const std::string &name : std::vector<std::string>{
           "checkpoint.tmp.99999999", "checkpoint.tmp.99999998.4",
        "checkpoint.tmp." + std::to_string(::getpid()) + ".7", running,
        "other.tmp.99999999", "checkpoint"})
    ASSERT_TRUE(writeFileAtomically((dir / name).string(), "x", 1, error));
  removeStaleTemporaries(path);
  EXPECT_EQ(entries(dir), (std::vector<std::string>{"checkpoint", running,
                                                    "other.tmp.99999999"}));
}

INSTANTIATE_TEST_SUITE_P(Temporaries, AtomicFile, testing::Bool(),
                         [](const testing::TestParamInfo<bool> &info) {
                           return info.param ? "Named" : "Unnamed";
                         });

} // namespace
