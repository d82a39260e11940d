//===- CommandLine.h - what every tc-run command shares -------------------===//
//
// Each command of tc-run lives in a file of its own (TrainCommand.cpp,
// EvalCommand.cpp, ...): it adds its subcommand and options to the CLI11 app
// and returns what runs it once the command line is parsed.
//
//===----------------------------------------------------------------------===//

#ifndef TC_TOOLS_TC_RUN_COMMANDLINE_H
#define TC_TOOLS_TC_RUN_COMMANDLINE_H

#include "runtime/Device.h"
#include "runtime/cpu/ComputeType.h"
#include "runtime/data/SubwordVocabulary.h"
#include "runtime/train/TrainingState.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace tc::run {

/// tc-run's exit codes; a run stopped by a signal exits 128 + the signal.
enum ExitCode { kSuccess = 0, kRunFailed = 1, kBadInput = 2 };

/// Prints "tc-run: error: MESSAGE" and returns `code`.
int fail(const std::string &message, int code = kBadInput);

/// CLI11 transforms for every numeric flag (support/NumberText.h's rule):
/// a decimal integer in [min, max]; a finite number in [min, max]; a
/// finite number in (0, max]. A refusal reads "--alpha: 'nan' is not a
/// number in [0, 10]".
CLI::Validator integerIn(int64_t min, int64_t max);
CLI::Validator numberIn(double min, double max);
CLI::Validator positiveNumberUpTo(double max);
/// --synthetic's check: a task rt::parseSyntheticTask knows.
CLI::Validator syntheticTask();

/// The refusal of the first option or argument of `command` given a value
/// no option of tc-run takes, or "" when there is none:
/// - an empty one (-o "$OUT" with OUT unset: an empty -o wrote hidden .new
///   files into the working directory after the work, --metrics '' silently
///   wrote no metrics);
/// - another of the command's options (--metrics --quiet: CLI11 took
///   --quiet for the file's name).
std::string badOptionValue(const CLI::App &command);

/// A subcommand and what runs it (its options live in the closure).
struct Command {
  CLI::App *app = nullptr;
  std::function<int()> run;
};

/// The options every command that loads an executable takes: the model,
/// --device, and (for the commands that run its steps) --allow-slow-bf16
/// and --eager-launches.
struct ModelOptions {
  std::string model;
  std::string device = "auto";
  bool allowSlowBf16 = false;
  /// The CUDA device launches every step every run (no graphs).
  bool eagerLaunches = false;
  bool runsSteps = true; ///< false: export, which reads the parameters only
  /// The CPU's weight GEMMs (translate --compute-type); not f32 on a GPU.
  rt::ComputeType computeType = rt::ComputeType::F32;
};
/// A command that runs no step (export) takes no --allow-slow-bf16: it may
/// open a bf16 executable on any CPU.
void addModelOptions(CLI::App &command, ModelOptions &options,
                     bool runsSteps = true);

/// The --checkpoint option of the commands that use a trained model (also
/// spelled --checkpoint-dir): a checkpoint file or a directory.
void addCheckpointOption(CLI::App &command, std::string &checkpoint);

/// The executable and a device for it.
struct LoadedModel {
  std::unique_ptr<rt::Executable> executable;
  std::unique_ptr<rt::Device> device;
};

/// A device of `options`' kind for `executable` (loadModel's, and
/// translate --workers' others), or null with `error`.
std::unique_ptr<rt::Device> createDevice(const ModelOptions &options,
                                         const rt::Executable &executable,
                                         std::string &error);

/// Loads `options`' model onto its device, or returns the exit code after
/// reporting why not.
int loadModel(const ModelOptions &options, LoadedModel &loaded);

/// A trained model: the executable on its device with the parameters of a
/// checkpoint, and the subword vocabulary of the checkpoint's directory
/// (null when it has none: the model was trained on --ids data).
struct TrainedModel : LoadedModel {
  std::string checkpoint; ///< the file read
  rt::TrainingState state;
  std::unique_ptr<rt::SubwordVocabulary> vocabulary;
};

/// Loads `options`' model and the checkpoint `checkpoint` names (a file, or
/// a directory's latest); with `needVocabulary`, a model without one is an
/// error. Returns the exit code after reporting why not.
int loadTrainedModel(const ModelOptions &options, const std::string &checkpoint,
                     bool needVocabulary, TrainedModel &trained);

Command addTrainCommand(CLI::App &app);
Command addEvalCommand(CLI::App &app);
Command addPrepareCommand(CLI::App &app);
Command addTranslateCommand(CLI::App &app);
Command addAverageCommand(CLI::App &app);
Command addExportCommand(CLI::App &app);
Command addScoreCommand(CLI::App &app);

} // namespace tc::run

#endif // TC_TOOLS_TC_RUN_COMMANDLINE_H
