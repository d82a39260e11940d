//===- CommandLine.cpp - what every tc-run command shares -----------------===//

#include "CommandLine.h"

#include "runtime/cpu/CpuDevice.h"
#include "runtime/cuda/CudaDeviceLoader.h"
#include "runtime/data/Buckets.h"
#include "runtime/data/SyntheticTask.h"
#include "runtime/train/Checkpoint.h"
#include "runtime/train/CheckpointDirectory.h"
#include "support/NumberText.h"

#include <cstdio>
#include <filesystem>
#include <type_traits>

namespace tc::run {

int fail(const std::string &message, int code) {
  std::fprintf(stderr, "tc-run: error: %s\n", message.c_str());
  return code;
}

namespace {

/// A transform that checks the option's text with `parse` (which returns
/// the value, or none with the error) and hands CLI11 the value's plain
/// decimal text, since CLI11's own conversion reads "010" as 8.
template <typename Parse>
CLI::Validator checkedNumber(std::string description, Parse parse) {
  return CLI::Validator(
      [parse](std::string &text) -> std::string {
        std::string error;
        auto value = parse(text, error);
        if (!value)
          return error;
        if constexpr (std::is_integral_v<std::decay_t<decltype(*value)>>) {
          text = std::to_string(*value);
        } else {
          char exact[32]; // round-trips a double
          std::snprintf(exact, sizeof exact, "%.17g", *value);
          text = exact;
        }
        return "";
      },
      std::move(description));
}

CLI::Validator numberInRange(const support::NumberRange &range) {
  return checkedNumber("NUMBER in " + range.text(),
                       [range](const std::string &text, std::string &error) {
                         return support::parseNumberIn(text, range, error);
                       });
}

/// The devices of tc-run, in --device=auto's order of preference: a GPU
/// whose code the executable carries, else the CPU (made with `cpu`).
rt::DeviceRegistry devices(const rt::CpuDeviceOptions &cpu = {},
                           const rt::CudaDeviceOptions &cuda = {}) {
  rt::DeviceRegistry registry;
  rt::registerCudaDevice(registry, cuda);
  rt::registerCpuDevice(registry, cpu);
  return registry;
}

/// Whether `executable` carries code for the CPU.
bool hasHostCode(const tcx::Executable &executable) {
  if (executable.code())
    for (const tcx::CodeModule *module : *executable.code())
      if (module->kind() == tcx::CodeKind::Host)
        return true;
  return false;
}

} // namespace

std::string badOptionValue(const CLI::App &command) {
  for (const CLI::Option *option : command.get_options()) {
    if (option->get_expected_min() == 0)
      continue;
    // CLI11 does not say which of an option's names was typed.
    std::string names = option->get_name(false, true);
    for (const std::string &value : option->results()) {
      if (value.empty())
        return names + " was given an empty value (an unset shell "
                       "variable?); give it one";
      // --metrics --quiet: the value forgotten, the next option taken for
      // it (a metrics file named --quiet, and a run that was not quiet).
      std::string name = value.substr(0, value.find('='));
      if (value.size() > 1 && value[0] == '-' &&
          command.get_option_no_throw(name))
        return names + " took " + name + ", an option of tc-run " +
               command.get_name() + ", as its value: give " + names +
               " a value first (./" + value + " names a file of that name)";
    }
  }
  return "";
}

CLI::Validator integerIn(int64_t min, int64_t max) {
  return checkedNumber("INT in [" + std::to_string(min) + ", " +
                           std::to_string(max) + "]",
                       [=](const std::string &text, std::string &error) {
                         return support::parseIntegerIn(text, min, max, error);
                       });
}

CLI::Validator numberIn(double min, double max) {
  return numberInRange({min, max});
}

CLI::Validator positiveNumberUpTo(double max) {
  return numberInRange({0, max, /*minExcluded=*/true});
}

CLI::Validator syntheticTask() {
  return CLI::Validator(
      [](std::string &name) -> std::string {
        return rt::parseSyntheticTask(name)
                   ? ""
                   : "'" + name + "' is not a synthetic task: copy or reverse";
      },
      "copy|reverse");
}

void addModelOptions(CLI::App &command, ModelOptions &options, bool runsSteps) {
  command.add_option("model", options.model, "the executable (tc-compile -o)")
      ->required()
      ->check(CLI::ExistingFile);
  std::vector<std::string> choices = devices().names();
  choices.insert(choices.begin(), "auto");
  command
      .add_option("--device", options.device,
                  "where to run: auto (the GPU when the executable has "
                  "CUDA code and there is one, else the CPU), cpu or cuda")
      ->check(CLI::IsMember(choices));
  if (!runsSteps) {
    options.runsSteps = false;
    return;
  }
  command.add_flag(
      "--allow-slow-bf16", options.allowSlowBf16,
      "run a bf16 executable on a CPU without bf16 GEMM instructions "
      "(AVX512-BF16 or AMX), its GEMMs widened to f32: slower than an f32 "
      "executable, for checking its numerics (without it tc-run refuses; "
      "tc-compile --precision=f32 makes the fast one)");
  command.add_flag(
      "--eager-launches", options.eagerLaunches,
      "on a GPU, launch every kernel and GEMM of a step one call at a time "
      "(for debugging: compute-sanitizer, a profiler's per-launch view) "
      "instead of replaying the step as a CUDA graph captured at its second "
      "run; the CPU device ignores it");
}

void addCheckpointOption(CLI::App &command, std::string &checkpoint) {
  command
      .add_option("--checkpoint,--checkpoint-dir", checkpoint,
                  "a checkpoint file (best.tcck, an average), or a "
                  "checkpoint directory (its latest)")
      ->required()
      ->check(CLI::ExistingPath);
}

std::unique_ptr<rt::Device> createDevice(const ModelOptions &options,
                                         const rt::Executable &executable,
                                         std::string &error) {
  return devices({.allowSlowBf16 = options.allowSlowBf16,
                  .runsNoSteps = !options.runsSteps,
                  .computeType = options.computeType},
                 {.eagerLaunches = options.eagerLaunches})
      .create(options.device, executable, error);
}

int loadModel(const ModelOptions &options, LoadedModel &loaded) {
  std::string error;
  loaded.executable = rt::Executable::load(options.model, error);
  if (!loaded.executable)
    return fail(error);
  if (options.computeType != rt::ComputeType::F32 &&
      !hasHostCode(loaded.executable->root()))
    return fail(options.model + ": --compute-type " +
                rt::nameOf(options.computeType) +
                " runs on the CPU only, and this executable has no CPU code: "
                "compile it with tc-compile --target=cpu, or leave "
                "--compute-type out");
  loaded.device = createDevice(options, *loaded.executable, error);
  if (!loaded.device)
    return fail(options.model + ": " + error);
  if (options.computeType != rt::ComputeType::F32 &&
      !dynamic_cast<rt::CpuDevice *>(loaded.device.get()))
    return fail(options.model + ": --compute-type " +
                rt::nameOf(options.computeType) +
                " runs on the CPU only; add --device cpu, or leave "
                "--compute-type out");
  return kSuccess;
}

int loadTrainedModel(const ModelOptions &options, const std::string &checkpoint,
                     bool needVocabulary, TrainedModel &trained) {
  if (int code = loadModel(options, trained))
    return code;
  const tcx::Executable &x = trained.executable->root();
  std::string error;
  trained.checkpoint = rt::resolveCheckpoint(checkpoint);
  std::optional<rt::TrainingState> state = rt::readCheckpoint(
      trained.checkpoint, rt::modelFingerprint(x), x.param_bytes(), error);
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
