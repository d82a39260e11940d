//===- DeviceRegistry.cpp - choosing a device -----------------------------===//

#include "runtime/DeviceRegistry.h"

#include <algorithm>

namespace tc::rt {
namespace {

bool runs(const DeviceDriver &driver, tcx::CodeKind kind) {
  return std::find(driver.runs.begin(), driver.runs.end(), kind) !=
         driver.runs.end();
}

/// Whether `executable` carries a code module that `driver` runs.
bool runsCodeOf(const DeviceDriver &driver, const Executable &executable) {
  if (const auto *code = executable.root().code())
    for (const tcx::CodeModule *module : *code)
      if (runs(driver, module->kind()))
        return true;
  return false;
}

} // namespace

void DeviceRegistry::add(DeviceDriver driver) {
  drivers_.push_back(std::move(driver));
}

std::vector<std::string> DeviceRegistry::names() const {
  std::vector<std::string> names;
  for (const DeviceDriver &driver : drivers_)
    names.push_back(driver.name);
  std::sort(names.begin(), names.end());
  return names;
}

const DeviceDriver *DeviceRegistry::find(std::string_view name) const {
  for (const DeviceDriver &driver : drivers_)
    if (driver.name == name)
      return &driver;
  return nullptr;
}

const DeviceDriver *DeviceRegistry::findRunning(tcx::CodeKind kind) const {
  for (const DeviceDriver &driver : drivers_)
    if (runs(driver, kind))
      return &driver;
  return nullptr;
}

std::unique_ptr<Device> DeviceRegistry::create(const std::string &name,
                                               const Executable &executable,
                                               std::string &error) const {
  if (name == "auto")
    return createAuto(executable, error);
  if (const DeviceDriver *driver = find(name))
    return driver->create(executable, error);
  std::vector<std::string> expected = names();
  expected.insert(expected.begin(), "auto");
  error = "unknown device '" + name + "'; expected " + expected.front();
  for (size_t i = 1; i < expected.size(); ++i)
    error += (i + 1 == expected.size() ? " or " : ", ") + expected[i];
  return nullptr;
}

std::unique_ptr<Device> DeviceRegistry::createAuto(const Executable &executable,
                                                   std::string &error) const {
  std::vector<const DeviceDriver *> candidates;
  for (const DeviceDriver &driver : drivers_)
    if (runsCodeOf(driver, executable))
      candidates.push_back(&driver);
  if (candidates.empty()) {
    const DeviceDriver *host = findRunning(tcx::CodeKind::Host);
    if (!host) {
      error = "no device runs the code of this executable";
      return nullptr;
    }
    candidates.push_back(host);
  }
  // Each failure but the last is passed over: a GPU that is missing leaves
  // the CPU, when the executable has host code too.
  for (const DeviceDriver *driver : candidates) {
    error.clear();
    if (std::unique_ptr<Device> device = driver->create(executable, error))
      return device;
  }
  return nullptr;
}

} // namespace tc::rt
