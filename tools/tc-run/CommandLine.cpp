//===- CommandLine.cpp - what every tc-run command shares -----------------===//

#include "CommandLine.h"

#include <charconv>
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

} // namespace tc::run
