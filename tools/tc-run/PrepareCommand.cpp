//===- PrepareCommand.cpp - tc-run prepare --------------------------------===//

#include "CommandLine.h"
#include "runtime/data/Buckets.h"
#include "runtime/data/TokenFile.h"
#include "support/OutputPath.h"

namespace tc::run {
namespace {

struct PrepareOptions {
  std::string model, sourceText, targetText, output;
};

int prepare(const PrepareOptions &o) {
  std::string error;
  auto executable = rt::Executable::load(o.model, error);
  if (!executable)
    return fail(error);
  // -o may replace an earlier token file, never anything else; it is
  // written by replacing, which a stream cannot be.
  std::optional<support::OutputKind> kind =
      support::checkOutputPath("-o", o.output, rt::kTokenFileMagic,
                               {{o.model, "the executable"},
                                {o.sourceText, "the source text"},
                                {o.targetText, "the target text"}},
                               error);
  if (!kind)
    return fail(error);
  if (*kind == support::OutputKind::Stream)
    return fail("-o " + o.output +
                " is not a regular file; give the path of "
                "the token file to write");
  auto pairs = rt::readIdText(o.sourceText, o.targetText,
                              rt::vocabularyOf(executable->root()), error);
  if (!pairs)
    return fail(error);
  if (!rt::writeTokenFile(o.output, *pairs, error))
    return fail(error);
  std::fprintf(stderr, "tc-run: wrote %zu pairs to %s\n", pairs->size(),
               o.output.c_str());
  return kSuccess;
}

} // namespace

Command addPrepareCommand(CLI::App &app) {
  auto o = std::make_shared<PrepareOptions>();
  CLI::App *command = app.add_subcommand(
      "prepare", "convert whitespace-separated token ids (one sentence per "
                 "line) into a token file");
  command->add_option("model", o->model, "the executable (for the vocabulary)")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--source", o->sourceText, "source sentences")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--target", o->targetText, "target sentences")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("-o", o->output, "the token file to write")->required();
  return {command, [o] { return prepare(*o); }};
}

} // namespace tc::run
