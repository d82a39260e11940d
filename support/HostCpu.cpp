//===- HostCpu.cpp - which x86-64 level host kernels are compiled for ------===//

#include "support/HostCpu.h"

#include <fstream>

namespace tc::support {

const std::vector<std::string> &cpuLevels() {
  static const std::vector<std::string> levels = {"x86-64", "x86-64-v2",
                                                  "x86-64-v3", "x86-64-v4"};
  return levels;
}

bool cpuSupports(const std::string &level) {
  if (level == "x86-64")
    return true;
  if (level == "x86-64-v2")
    return __builtin_cpu_supports("x86-64-v2");
  if (level == "x86-64-v3")
    return __builtin_cpu_supports("x86-64-v3");
  if (level == "x86-64-v4")
    return __builtin_cpu_supports("x86-64-v4");
  return false;
}

std::string hostCpuLevel() {
  std::string best = cpuLevels().front();
  for (const std::string &level : cpuLevels())
    if (cpuSupports(level))
      best = level;
  return best;
}

std::string hostCpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.starts_with("model name")) {
      size_t colon = line.find(':');
      size_t first = line.find_first_not_of(" \t", colon + 1);
      if (colon != std::string::npos && first != std::string::npos)
        return line.substr(first);
    }
  return "this CPU";
}

} // namespace tc::support
