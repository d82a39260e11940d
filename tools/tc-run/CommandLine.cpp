//===- CommandLine.cpp - what every tc-run command shares -----------------===//

#include "CommandLine.h"

#include "runtime/data/Buckets.h"
#include "runtime/train/Checkpoint.h"
#include "runtime/train/CheckpointDirectory.h"

#include <charconv>
#include <filesystem>
#include <cstdio>

namespace tc::run {

int fail(const std::string &message, int code) {
  std::fprintf(stderr, "tc-run: error: %s\n", message.c_str());
  return code;
}

/// Read from the option's text, since CLI11's own conversion clamps what
/// overflows (strtoll), reads "-1" as 2^64 - 1 (strtoull) and "010" as 8.
CLI::Validator integerIn(int64_t min, int64_t max) {
  std::string range =
      "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
  return CLI::Validator(
      [=](std::string &text) -> std::string {
        int64_t value = 0;
        const char *end = text.data() + text.size();
        auto [stop, ec] = std::from_chars(text.data(), end, value);
        if (ec != std::errc() || stop != end || value < min || value > max)
          return "'" + text + "' is not an integer in " + range;
        // CLI11 then converts the text with base 0 ("010" is 8): hand it
        // the decimal value read here.
        text = std::to_string(value);
        return "";
      },
      "INT in " + range);
}

void addModelOptions(CLI::App &command, ModelOptions &options) {
  command.add_option("model", options.model, "the executable (tc-compile -o)")
      ->required()
      ->check(CLI::ExistingFile);
  command
      .add_option("--device", options.device,
                  "where to run: auto (the GPU when the executable has "
                  "CUDA code and there is one, else the CPU), cpu or cuda")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
}

void addCheckpointOption(CLI::App &command, std::string &checkpoint) {
  command
      .add_option("--checkpoint,--checkpoint-dir", checkpoint,
                  "a checkpoint file (best.tcck, an average), or a "
                  "checkpoint directory (its latest)")
      ->required()
      ->check(CLI::ExistingPath);
}

int loadModel(const ModelOptions &options, LoadedModel &loaded) {
  std::string error;
  loaded.executable = rt::Executable::load(options.model, error);
  if (!loaded.executable)
    return fail(error);
  loaded.device = rt::createDevice(options.device, *loaded.executable, error);
  if (!loaded.device)
    return fail(options.model + ": " + error);
  return kSuccess;
}

int loadTrainedModel(const ModelOptions &options,
                     const std::string &checkpoint, bool needVocabulary,
                     TrainedModel &trained) {
  if (int code = loadModel(options, trained))
    return code;
  const tcx::Executable &x = trained.executable->root();
  std::string error;
  trained.checkpoint = rt::resolveCheckpoint(checkpoint);
  std::optional<rt::TrainingState> state =
      rt::readCheckpoint(trained.checkpoint, rt::parameterFingerprint(x),
                         x.param_bytes(), error);
  if (!state)
    return fail(error);
  trained.state = std::move(*state);
  rt::loadState(*trained.device, trained.state);
  std::string directory =
      std::filesystem::path(trained.checkpoint).parent_path().string();
  std::string vocabulary =
      rt::vocabularyPath(directory.empty() ? "." : directory);
  std::error_code ec;
  if (std::filesystem::exists(vocabulary, ec)) {
    trained.vocabulary = rt::SubwordVocabulary::load(vocabulary, error);
    if (!trained.vocabulary ||
        !trained.vocabulary->fits(rt::vocabularyOf(x), vocabulary, error) ||
        !rt::isTrainedVocabulary(trained.vocabulary->fingerprint(), vocabulary,
                                 trained.state, trained.checkpoint, error))
      return fail(error);
  } else if (needVocabulary) {
    return fail("no " + vocabulary + " beside " + trained.checkpoint +
                ": the model was not trained on text (tc-run prepare "
                "without --ids writes the vocabulary the run keeps there)");
  }
  return kSuccess;
}

} // namespace tc::run
