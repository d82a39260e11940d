//===- Nvrtc.cpp - CUDA C++ -> CUBIN with NVRTC -----------------------------===//

#include "compiler/export/Nvrtc.h"
#include "compiler/codegen/CudaKernel.h"

#include <nvrtc.h>

#include <regex>
#include <sstream>

namespace tc {
namespace {

/// `source` with line numbers, for the error message.
std::string numbered(const std::string &source) {
  std::istringstream lines(source);
  std::string line, text;
  for (int n = 1; std::getline(lines, line); ++n)
    text += std::to_string(n) + "\t" + line + "\n";
  return text;
}

/// NVRTC's options for `arch`; real architectures also get ptxas's report.
std::vector<std::string> optionsFor(const std::string &arch) {
  std::vector<std::string> options = {"--gpu-architecture=" + arch,
                                      "--std=c++17", "-default-device",
                                      "--fmad=true", "-lineinfo"};
  if (arch.rfind("sm_", 0) == 0)
    options.push_back("--ptxas-options=-v");
  return options;
}

} // namespace

std::vector<unsigned> nvrtcArchitectures() {
  int count = 0;
  if (nvrtcGetNumSupportedArchs(&count) != NVRTC_SUCCESS || count <= 0)
    return {};
  std::vector<int> archs(count);
  if (nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS)
    return {};
  return std::vector<unsigned>(archs.begin(), archs.end());
}

std::string cudaCompilerIdentity(const std::string &arch) {
  int major = 0, minor = 0;
  nvrtcVersion(&major, &minor);
  std::string identity =
      "NVRTC " + std::to_string(major) + "." + std::to_string(minor);
  for (const std::string &option : optionsFor(arch))
    identity += " " + option;
  for (const auto &[name, text] : codegen::cudaHeaders())
    identity += "\n" + name + "\n" + text;
  return identity;
}

std::optional<CudaBinary> compileCuda(const std::string &source,
                                      const std::string &arch,
                                      std::string &error) {
  std::vector<const char *> headers, names;
  for (const auto &[name, text] : codegen::cudaHeaders()) {
    names.push_back(name.c_str());
    headers.push_back(text.c_str());
  }
  nvrtcProgram program;
  if (nvrtcCreateProgram(&program, source.c_str(), "tc_kernels.cu",
                         int(headers.size()), headers.data(),
                         names.data()) != NVRTC_SUCCESS) {
    error = "NVRTC could not create a program";
    return std::nullopt;
  }
  bool real = arch.rfind("sm_", 0) == 0;
  std::vector<std::string> options = optionsFor(arch);
  std::vector<const char *> pointers;
  CudaBinary binary;
  for (const std::string &option : options) {
    pointers.push_back(option.c_str());
    binary.options += (binary.options.empty() ? "" : " ") + option;
  }
  nvrtcResult result =
      nvrtcCompileProgram(program, int(pointers.size()), pointers.data());
  size_t size = 0;
  nvrtcGetProgramLogSize(program, &size);
  binary.log.assign(size, '\0');
  nvrtcGetProgramLog(program, binary.log.data());
  if (result != NVRTC_SUCCESS) {
    error = "NVRTC failed for " + arch + ": " + nvrtcGetErrorString(result) +
            "\n" + binary.log + "\nthe source:\n" + numbered(source);
    nvrtcDestroyProgram(&program);
    return std::nullopt;
  }
  if (real) {
    nvrtcGetCUBINSize(program, &size);
    binary.cubin.resize(size);
    nvrtcGetCUBIN(program, binary.cubin.data());
  } else {
    nvrtcGetPTXSize(program, &size);
    binary.ptx.assign(size, '\0');
    nvrtcGetPTX(program, binary.ptx.data());
  }
  nvrtcDestroyProgram(&program);
  // ptxas -v: "N bytes spill stores, M bytes spill loads" per kernel.
  std::regex spills("([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads");
  for (auto it =
           std::sregex_iterator(binary.log.begin(), binary.log.end(), spills);
       it != std::sregex_iterator(); ++it)
    binary.spillBytes += std::stoll((*it)[1]) + std::stoll((*it)[2]);
  return binary;
}

} // namespace tc
