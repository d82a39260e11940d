//===- DeviceRegistry.h - the devices a program can run executables on ----===//
//
// Each kind of device registers itself, as IREE's HAL drivers do, by the
// name --device gives it and the kinds of code (tcx::CodeKind) it runs: the
// CPU device runs Host code, the CUDA device Cubin and Ptx. Choosing a
// device is a look-up by name, and --device=auto one by the code an
// executable carries. The program that offers the devices registers them
// (tc-run); the runtime core knows none of them.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RUNTIME_DEVICEREGISTRY_H
#define TC_RUNTIME_DEVICEREGISTRY_H

#include "runtime/Device.h"
#include "runtime/Executable.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tc::rt {

/// A kind of device: its name, the code it runs, and how to make one.
struct DeviceDriver {
  /// "cpu", as --device names it.
  std::string name;
  /// The kinds of code module it runs.
  std::vector<tcx::CodeKind> runs;
  /// A device for an executable (which must outlive it), or null with the
  /// error saying why (no such code, no GPU, a plug-in missing).
  std::function<std::unique_ptr<Device>(const Executable &, std::string &)>
      create;
};

class DeviceRegistry {
public:
  /// Adds a kind of device; --device=auto prefers those added first.
  void add(DeviceDriver driver);

  /// The names of the devices, sorted: {"cpu", "cuda"}.
  std::vector<std::string> names() const;

  /// The device `name` for `executable` (which must outlive it), or null
  /// with `error` saying why. "auto" is the first device, in the order
  /// added, that runs code the executable carries and starts; when none
  /// runs its code, the device that runs host code says what is missing.
  std::unique_ptr<Device> create(const std::string &name,
                                 const Executable &executable,
                                 std::string &error) const;

private:
  const DeviceDriver *find(std::string_view name) const;
  const DeviceDriver *findRunning(tcx::CodeKind kind) const;
  std::unique_ptr<Device> createAuto(const Executable &executable,
                                     std::string &error) const;

  std::vector<DeviceDriver> drivers_;
};

} // namespace tc::rt

#endif // TC_RUNTIME_DEVICEREGISTRY_H
