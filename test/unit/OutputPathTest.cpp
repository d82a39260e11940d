//===- OutputPathTest.cpp - the one policy for where a command may write ---===//
//
// Issue 29: outputs replaced a run's checkpoint (translate -o
// DIR/checkpoint.tcck --overwrite), took an empty file (a run's lock) for a
// new one, and every command listed the run's files by hand.

#include "support/OutputPath.h"
#include "support/RunDirectory.h"

#include "TestDirectory.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace tc::support;

namespace {

constexpr std::string_view kMagic = "MAGIC";

class OutputPath : public testing::Test {
protected:
  void SetUp() override {
    dir = tc::test::freshTestDirectory("outputpath");
    run = dir / "run";
    fs::create_directories(run);
    write(run / "lock", "");
  }
  std::string write(const fs::path &path, const std::string &text) {
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }
  bool replaceable(const fs::path &path, std::string_view magic,
                   bool overwrite) {
    error.clear();
    return checkReplaceableOutput({"-o", path.string(), "the output", magic},
                                  overwrite, error);
  }
  fs::path dir, run;
  std::string error;
};

TEST_F(OutputPath, AnEmptyFileIsAnExistingFile) {
  fs::path empty = dir / "empty.txt";
  write(empty, "");
  EXPECT_FALSE(replaceable(empty, kMagic, false));
  EXPECT_NE(error.find("already exists; pass --overwrite"), std::string::npos)
      << error;
  EXPECT_TRUE(replaceable(empty, kMagic, true)) << error;
  EXPECT_TRUE(replaceable(dir / "new.txt", kMagic, false)) << error;
}

// The review of 2026-11-28: tc-run translate -o into a directory that did
// not exist translated every sentence, then failed at the write.
TEST_F(OutputPath, AMissingDirectoryIsRefusedBeforeTheWork) {
  EXPECT_FALSE(replaceable(dir / "missing" / "out.txt", kMagic, false));
  EXPECT_NE(error.find("is in " + (dir / "missing").string() +
                       ", which does not exist; create it (mkdir -p"),
            std::string::npos)
      << error;
  write(dir / "file", "text");
  EXPECT_FALSE(replaceable(dir / "file" / "out.txt", kMagic, true));
  EXPECT_NE(error.find(", which is not a directory; choose another -o"),
            std::string::npos)
      << error;
  // A relative name is in the working directory.
  fs::path before = fs::current_path();
  fs::current_path(dir);
  EXPECT_TRUE(replaceable("new-here.txt", kMagic, false)) << error;
  fs::current_path(before);
  // A symbolic link is written through: its target's directory counts.
  fs::create_symlink(dir / "gone" / "out.txt", dir / "link.txt");
  EXPECT_FALSE(replaceable(dir / "link.txt", kMagic, false));
  EXPECT_NE(error.find("is in " + (dir / "gone").string() +
                       ", which does not exist"),
            std::string::npos)
      << error;
}

TEST_F(OutputPath, NoFileARunOwnsIsReplacedOverwriteOrNot) {
  write(run / "checkpoint.tcck", "MAGIC checkpoint");
  for (const char *name :
       {"checkpoint.tcck", "best.tcck", "checkpoint-00000012.tcck", "lock",
        "validation.txt", "vocabulary.model", "checkpoint.tcck.tmp.7"}) {
    EXPECT_FALSE(replaceable(run / name, kMagic, true)) << name;
    EXPECT_NE(error.find("in the checkpoint directory"), std::string::npos)
        << error;
  }
  // Other names are the user's: a new file, or one of the output's kind.
  EXPECT_TRUE(replaceable(run / "average.tcck", kMagic, false)) << error;
  // Outside a run's directory the names mean nothing.
  EXPECT_TRUE(replaceable(dir / "lock", kMagic, false)) << error;
}

TEST_F(OutputPath, ARunsFilesAreFoundThroughASymbolicLink) {
  fs::create_symlink(run / "lock", dir / "link");
  EXPECT_FALSE(replaceable(dir / "link", kMagic, true));
  EXPECT_NE(error.find("the run's lock"), std::string::npos) << error;
  // Also through a link to a run's file not there yet: the write goes
  // through it (the review of 2026-11-28: -o a link to ck/best.tcck wrote
  // the run's best checkpoint).
  fs::create_symlink(run / "best.tcck", dir / "dangling");
  EXPECT_FALSE(replaceable(dir / "dangling", kMagic, true));
  EXPECT_NE(error.find("the run's best checkpoint"), std::string::npos)
      << error;
}

TEST_F(OutputPath, ASymbolicLinkThatLoopsIsRefused) {
  fs::create_symlink("loop", dir / "loop");
  EXPECT_FALSE(replaceable(dir / "loop", kMagic, true));
  EXPECT_NE(error.find("is a symbolic link that loops"), std::string::npos)
      << error;
}

TEST_F(OutputPath, TextReplacesOnlyTextAndNothingInARunsDirectory) {
  fs::path notes = write(dir / "notes.txt", "earlier translations\n");
  fs::path binary = write(dir / "model.tcx", std::string("TCX\0\1", 5));
  EXPECT_TRUE(replaceable(notes, "", true)) << error;
  EXPECT_FALSE(replaceable(binary, "", true));
  EXPECT_NE(error.find("is not a text file"), std::string::npos) << error;
  fs::path metrics = write(run / "metrics.jsonl", "{\"step\": 1}\n");
  EXPECT_FALSE(replaceable(metrics, "", true));
  EXPECT_TRUE(replaceable(run / "hyp.txt", "", false)) << error;
}

TEST_F(OutputPath, AProgramIsNeverReplaced) {
  fs::path program = write(dir / "program", "MAGIC");
  fs::permissions(program, fs::perms::owner_exec, fs::perm_options::add);
  EXPECT_FALSE(replaceable(program, kMagic, true));
  EXPECT_NE(error.find("is a program"), std::string::npos) << error;
}

TEST_F(OutputPath, ATrainersOutputsStayInItsOwnRunDirectory) {
  fs::path own = dir / "own";
  Output metrics{
      "--metrics", (own / "lock").string(), "the metrics", kMagic, {},
      own.string()};
  // Its own directory's files are protected before they exist.
  EXPECT_FALSE(checkOutputPath(metrics, error));
  metrics.path = (own / "metrics.jsonl").string();
  EXPECT_EQ(checkOutputPath(metrics, error), OutputKind::New) << error;
  metrics.path = (run / "metrics.jsonl").string();
  EXPECT_FALSE(checkOutputPath(metrics, error));
  EXPECT_NE(error.find("of another run"), std::string::npos) << error;
}

TEST(RunDirectory, NamesNumberedCheckpointsByStep) {
  EXPECT_EQ(numberedCheckpointName(12), "checkpoint-00000012.tcck");
  EXPECT_EQ(stepOfNumberedName("checkpoint-00000012.tcck"), 12);
  EXPECT_EQ(stepOfNumberedName("checkpoint-.tcck"), std::nullopt);
  EXPECT_EQ(stepOfNumberedName("checkpoint-1x.tcck"), std::nullopt);
  EXPECT_EQ(stepOfNumberedName("checkpoint-123456789.tcck"), 123456789);
  // Only the name training writes: a copy of step 12's checkpoint under
  // another spelling was counted twice by average --last.
  EXPECT_EQ(stepOfNumberedName("checkpoint-12.tcck"), std::nullopt);
  EXPECT_EQ(stepOfNumberedName("checkpoint-000000012.tcck"), std::nullopt);
  EXPECT_EQ(runFileRole("notes.txt"), std::nullopt);
  EXPECT_EQ(runFileRole("best.tcck.tmp.3"), "a temporary file of the run");
}

} // namespace
