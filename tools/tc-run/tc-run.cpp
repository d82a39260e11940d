//===- tc-run.cpp - trains, evaluates and feeds tc executables ------------===//
//
//   tc-run train model.tcx --checkpoint-dir ck        # train, checkpointing
//   tc-run train model.tcx --checkpoint-dir ck --resume --steps 2000
//   tc-run eval model.tcx --checkpoint-dir ck         # loss, exact match
//   tc-run prepare model.tcx --source s.txt --target t.txt -o train.tok
//   tc-run score --reference ref.txt hyp.txt          # BLEU and chrF
//
// Each command is a file of its own (CommandLine.h). Links only the runtime
// (no MLIR, no LLVM). Exit codes: 0 success, 1 the run failed (a non-finite
// loss, a checkpoint that cannot be written), 2 bad usage or input, 128 +
// the signal (130, 143) when SIGINT or SIGTERM stopped a run after writing
// its checkpoint.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "runtime/cpu/ProcessEnvironment.h"
#include "runtime/train/StopOnSignals.h"

#include <csignal>

using namespace tc;

int main(int argc, char **argv) {
  rt::configureProcessEnvironment(argv);
  // Before any other thread starts: SIGINT and SIGTERM then reach only the
  // signal thread, never a thread inside a GEMM (StopOnSignals.h says why).
  rt::receiveStopSignalsOnOwnThread();
  // A metrics or profile pipe that closes is a failed write, reported as
  // one, not a silent death by SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  CLI::App app{"tc-run: train, evaluate and feed tc executables (.tcx)"};
  app.require_subcommand(1);
  run::Command commands[] = {
      run::addTrainCommand(app),   run::addEvalCommand(app),
      run::addPrepareCommand(app), run::addTranslateCommand(app),
      run::addAverageCommand(app), run::addExportCommand(app),
      run::addScoreCommand(app),
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return app.exit(e) == 0 ? run::kSuccess : run::kBadInput;
  }
  // A device that fails mid-run (a GPU error) throws; checkpoints already
  // written stay as they are.
  try {
    for (const run::Command &command : commands)
      if (*command.app) {
        std::string bad = run::badOptionValue(*command.app);
        if (!bad.empty())
          return run::fail(bad);
        return command.run();
      }
  } catch (const std::exception &e) {
    return run::fail(std::string("the device failed: ") + e.what(),
                     run::kRunFailed);
  }
  return run::kBadInput;
}
