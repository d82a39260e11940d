//===- AverageCommand.cpp - tc-run average --------------------------------===//

#include "CommandLine.h"
#include "runtime/data/SubwordVocabulary.h"
#include "runtime/train/Checkpoint.h"
#include "runtime/train/CheckpointAverage.h"
#include "runtime/train/CheckpointDirectory.h"
#include "support/FileBytes.h"
#include "support/OutputPath.h"
#include "support/RunDirectory.h"

#include <filesystem>

namespace fs = std::filesystem;

namespace tc::run {
namespace {

struct AverageOptions {
  std::string model, directory, output;
  int64_t last = 5;
  std::vector<std::string> checkpoints;
  bool overwrite = false;
};

/// The checkpoints to average: the named ones, else the directory's last N
/// numbered ones.
std::optional<std::vector<std::string>> chosen(const AverageOptions &o,
                                               std::string &error) {
  if (!o.checkpoints.empty()) {
    // Each once: two names of one file (best.tcck is a link to a numbered
    // checkpoint) would weigh it twice.
    for (size_t i = 0; i < o.checkpoints.size(); ++i)
      for (size_t j = 0; j < i; ++j)
        if (support::sameFile(o.checkpoints[i], o.checkpoints[j])) {
          error = o.checkpoints[i] + " and " + o.checkpoints[j] +
                  " are the same checkpoint; name each once";
          return std::nullopt;
        }
    return o.checkpoints;
  }
  // The run's own, as --keep-last counts them: a stray file of a numbered
  // name is not among the last N (without a latest checkpoint to tell the
  // run by, every numbered name is taken, and its file checked when read).
  std::optional<rt::CheckpointIdentity> run =
      rt::readCheckpointIdentity(rt::checkpointPath(o.directory));
  std::vector<rt::NumberedCheckpoint> numbered =
      run ? rt::numberedCheckpointsOf(o.directory, *run)
          : rt::numberedCheckpoints(o.directory);
  if (int64_t(numbered.size()) < o.last) {
    error = o.directory + " holds " + std::to_string(numbered.size()) +
            " numbered checkpoints, fewer than --last " +
            std::to_string(o.last) +
            "; train with --keep-last N to keep them, or pass a smaller "
            "--last";
    return std::nullopt;
  }
  std::vector<std::string> paths;
  for (size_t i = numbered.size() - o.last; i < numbered.size(); ++i)
    paths.push_back(numbered[i].path);
  return paths;
}

int average(const AverageOptions &o) {
  std::string error;
  std::unique_ptr<rt::Executable> executable =
      rt::Executable::load(o.model, error);
  if (!executable)
    return fail(error);
  std::optional<std::vector<std::string>> paths = chosen(o, error);
  if (!paths)
    return fail(error);
  // The run's own files are protected by the policy; the checkpoints
  // averaged may be anywhere.
  support::Output output{"-o",
                         o.output,
                         "the checkpoint",
                         rt::kCheckpointMagic,
                         {{o.model, "the executable"}}};
  for (const std::string &path : *paths)
    output.protect.push_back({path, "a checkpoint being averaged"});
  if (!support::checkReplaceableOutput(output, o.overwrite, error))
    return fail(error);

  // Translating with the average needs the run's vocabulary beside it, and
  // another run's directory takes no vocabulary: its own, or none (an ids
  // run, whose checkpoints would then translate text with a stranger's).
  // Beside the file written: a link's target's (support/AtomicFile.h).
  std::string outputDirectory =
      fs::path(support::writtenPath(o.output)).parent_path().string();
  if (outputDirectory.empty())
    outputDirectory = ".";
  std::string vocabulary = rt::vocabularyPath(o.directory);
  std::error_code ec;
  std::optional<std::string> serialized;
  if (fs::exists(vocabulary, ec)) {
    serialized =
        support::readFileText(vocabulary, rt::kMaxVocabularyBytes, error);
    if (!serialized)
      return fail(error);
  }
  // A directory that holds this vocabulary already (an earlier average of
  // the run) takes the average; one with another, or another run's files
  // and none, does not.
  if (serialized && !fs::equivalent(outputDirectory, o.directory, ec)) {
    std::optional<rt::VocabularyThere> there =
        rt::vocabularyThere(outputDirectory, *serialized, error);
    if (!there)
      return fail(error);
    std::string why = *there == rt::VocabularyThere::Other
                          ? "is beside " + rt::vocabularyPath(outputDirectory) +
                                ", another vocabulary than the run's (" +
                                vocabulary + ")"
                      : *there == rt::VocabularyThere::None &&
                              support::isRunDirectory(outputDirectory)
                          ? "is in the checkpoint directory " +
                                outputDirectory + " of another run"
                          : "";
    if (!why.empty())
      return fail("-o " + o.output + " " + why + ", and the average needs " +
                  vocabulary + " beside it; write the average into " +
                  o.directory +
                  " or a directory of its own (nothing was written)");
  }

  const tcx::Executable &x = executable->root();
  std::optional<rt::TrainingState> state = rt::averageCheckpoints(
      *paths, rt::modelFingerprint(x), x.param_bytes(), error);
  if (!state)
    return fail(error);
  if (serialized) {
    // Named checkpoints may be another run's than --checkpoint-dir's (or a
    // token-id run's, which recorded none). Checkpoints older than the
    // fingerprint recorded nothing: the average records this vocabulary.
    uint64_t fingerprint = rt::vocabularyFingerprint(*serialized);
    if (state->vocabularyRecorded &&
        state->vocabularyFingerprint != fingerprint)
      return fail(vocabulary +
                  " is not the vocabulary the checkpoints "
                  "averaged were trained with; give the --checkpoint-dir of "
                  "their run, whose vocabulary goes beside -o (nothing was "
                  "written)");
    state->vocabularyFingerprint = fingerprint;
    if (!rt::storeVocabulary(outputDirectory, *serialized, error))
      return fail(error, kRunFailed);
  }
  if (!rt::writeCheckpoint(o.output, *state, rt::modelFingerprint(x), error,
                           support::ifPresentFor(o.overwrite)))
    return fail(error, kRunFailed);
  std::fprintf(stderr, "tc-run: averaged %zu checkpoint%s into %s:\n",
               paths->size(), paths->size() == 1 ? "" : "s", o.output.c_str());
  for (const std::string &path : *paths)
    std::fprintf(stderr, "  %s\n", path.c_str());
  return kSuccess;
}

} // namespace

Command addAverageCommand(CLI::App &app) {
  auto o = std::make_shared<AverageOptions>();
  CLI::App *command = app.add_subcommand(
      "average", "average the parameters of a run's last N checkpoints (or "
                 "of named ones) into a new checkpoint, as the paper does "
                 "(last 5 for base, last 20 for big)");
  command->add_option("model", o->model, "the executable (tc-compile -o)")
      ->required()
      ->check(CLI::ExistingFile);
  command
      ->add_option("--checkpoint-dir", o->directory,
                   "the run's checkpoint directory (trained with --keep-last)")
      ->required()
      ->check(CLI::ExistingDirectory);
  CLI::Option *last =
      command
          ->add_option("--last", o->last,
                       "average the directory's last N numbered checkpoints")
          ->default_val(5)
          ->transform(integerIn(1, INT32_MAX));
  command
      ->add_option("checkpoints", o->checkpoints,
                   "average these checkpoint files instead")
      ->check(CLI::ExistingFile)
      ->excludes(last);
  command->add_option("-o", o->output, "the checkpoint to write")->required();
  command->add_flag("--overwrite", o->overwrite,
                    "replace -o when it is an earlier checkpoint");
  return {command, [o] { return average(*o); }};
}

} // namespace tc::run
