//===- ExportCommand.cpp - tc-run export ----------------------------------===//

#include "CommandLine.h"
#include "runtime/train/CheckpointDirectory.h"
#include "runtime/train/ParameterArchive.h"
#include "support/OutputPath.h"

namespace tc::run {
namespace {

struct ExportOptions {
  ModelOptions model;
  std::string checkpoint, output;
  bool overwrite = false;
};

int exportParameters(const ExportOptions &o) {
  std::string error;
  // A zip archive starts with "PK\3\4".
  if (!support::checkReplaceableOutput(
          {"-o",
           o.output,
           "the .npz",
           "PK\x03\x04",
           {{o.model.model, "the executable"},
            {rt::resolveCheckpoint(o.checkpoint), "the checkpoint"}}},
          o.overwrite, error))
    return fail(error);
  TrainedModel trained;
  if (int code = loadTrainedModel(o.model, o.checkpoint, false, trained))
    return code;
  const tcx::Executable &x = trained.executable->root();
  if (!rt::exportParameters(x, trained.state.params, o.output,
                            support::ifPresentFor(o.overwrite), error))
    return fail(error, kRunFailed);
  std::fprintf(stderr, "tc-run: wrote %u parameters of %s (step %lld) to %s\n",
               x.parameters()->size(), trained.checkpoint.c_str(),
               (long long)trained.state.step, o.output.c_str());
  return kSuccess;
}

} // namespace

Command addExportCommand(CLI::App &app) {
  auto o = std::make_shared<ExportOptions>();
  CLI::App *command = app.add_subcommand(
      "export", "write a checkpoint's parameters to a .npz (numpy.load), "
                "named as tc-compile --emit=params names them; tc-run train "
                "--init reads one back");
  addModelOptions(*command, o->model, /*runsSteps=*/false);
  addCheckpointOption(*command, o->checkpoint);
  command->add_option("-o", o->output, "the .npz to write")->required();
  command->add_flag("--overwrite", o->overwrite,
                    "replace -o when it is an earlier archive");
  return {command, [o] { return exportParameters(*o); }};
}

} // namespace tc::run
