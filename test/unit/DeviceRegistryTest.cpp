//===- DeviceRegistryTest.cpp - choosing a device by name and by code -----===//
//
// The registry of the runtime core (runtime/DeviceRegistry.h) with stand-in
// devices: --device=NAME finds its device, an unknown name lists the known
// ones, and auto prefers the devices registered first among those whose
// code the executable carries, falls back past one that does not start, and
// asks the host's device when the executable carries no code it knows.
//
//===----------------------------------------------------------------------===//

#include "runtime/DeviceRegistry.h"
#include "runtime/format/TcxFile.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using namespace tc;

/// A device that only says who made it.
class NamedDevice final : public rt::Device {
public:
  explicit NamedDevice(std::string name) : name_(std::move(name)) {}
  std::string describe() const override { return name_; }
  void writeSpace(tcx::Space, int64_t, const void *, int64_t) override {}
  void read(tcx::Space, int64_t, void *, int64_t) override {}
  bool writeInputAt(const tcx::Function &, std::string_view, int64_t,
                    const void *, int64_t) override {
    return false;
  }
  bool readOutput(const tcx::Function &, std::string_view, void *,
                  int64_t) override {
    return false;
  }
  bool copyOutputToInput(const tcx::Function &, std::string_view, int64_t,
                         const tcx::Function &, std::string_view, int64_t,
                         int64_t) override {
    return false;
  }
  void run(const tcx::Function &) override {}

private:
  std::string name_;
};

/// A registry of "gpu" (Cubin, Ptx) before "host" (Host); each starts
/// unless its name is in `failing`, whose error names it.
rt::DeviceRegistry registry(std::vector<std::string> failing = {}) {
  rt::DeviceRegistry devices;
  auto driver = [&](std::string name, std::vector<tcx::CodeKind> runs) {
    bool fails =
        std::find(failing.begin(), failing.end(), name) != failing.end();
    devices.add({name, std::move(runs),
                 [name, fails](const rt::Executable &, std::string &error)
                     -> std::unique_ptr<rt::Device> {
                   if (fails) {
                     error = "no " + name + " here";
                     return nullptr;
                   }
                   return std::make_unique<NamedDevice>(name);
                 }});
  };
  driver("gpu", {tcx::CodeKind::Cubin, tcx::CodeKind::Ptx});
  driver("host", {tcx::CodeKind::Host});
  return devices;
}

/// An executable that carries code modules of `kinds` and one function
/// without steps.
std::unique_ptr<rt::Executable>
executableWith(const std::vector<tcx::CodeKind> &kinds) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<tcx::Binding>> none;
  std::vector<flatbuffers::Offset<tcx::StepEntry>> steps;
  std::vector<flatbuffers::Offset<tcx::Function>> functions{
      tcx::CreateFunctionDirect(fbb, "f", 0, &none, &none, &steps)};
  std::vector<uint8_t> binary{0};
  std::vector<flatbuffers::Offset<tcx::CodeModule>> code;
  for (tcx::CodeKind kind : kinds)
    code.push_back(tcx::CreateCodeModuleDirect(
        fbb, kind, kind == tcx::CodeKind::Host ? "x86-64" : nullptr,
        kind == tcx::CodeKind::Host ? 0 : 80, "", "", &binary));
  auto root = tcx::CreateExecutableDirect(fbb, "test", "", nullptr, 0, nullptr,
                                          &functions, nullptr, &code);
  tcx::FinishExecutableBuffer(fbb, root);
  std::string error;
  auto executable = rt::Executable::fromBytes(
      tcx::wrapPayload(fbb.GetBufferPointer(), fbb.GetSize()), "m.tcx", error);
  EXPECT_TRUE(executable) << error;
  return executable;
}

/// What `devices` makes for `name` and `executable`: the device's name, or
/// "error: " and why there is none.
std::string chosen(const rt::DeviceRegistry &devices, const std::string &name,
                   const rt::Executable &executable) {
  std::string error;
  std::unique_ptr<rt::Device> device = devices.create(name, executable, error);
  EXPECT_EQ(device == nullptr, !error.empty()) << error;
  return device ? device->describe() : "error: " + error;
}

TEST(DeviceRegistry, NamesAreSorted) {
  EXPECT_EQ(registry().names(), (std::vector<std::string>{"gpu", "host"}));
}

TEST(DeviceRegistry, ADeviceIsFoundByName) {
  auto both = executableWith({tcx::CodeKind::Host, tcx::CodeKind::Cubin});
  EXPECT_EQ(chosen(registry(), "host", *both), "host");
  EXPECT_EQ(chosen(registry(), "gpu", *both), "gpu");
  EXPECT_EQ(chosen(registry({"gpu"}), "gpu", *both), "error: no gpu here");
}

TEST(DeviceRegistry, AnUnknownNameListsTheDevices) {
  auto host = executableWith({tcx::CodeKind::Host});
  EXPECT_EQ(chosen(registry(), "tpu", *host),
            "error: unknown device 'tpu'; expected auto, gpu or host");
}

TEST(DeviceRegistry, AutoPrefersTheFirstDeviceThatRunsTheCode) {
  auto host = executableWith({tcx::CodeKind::Host});
  auto ptx = executableWith({tcx::CodeKind::Ptx});
  auto both = executableWith({tcx::CodeKind::Host, tcx::CodeKind::Cubin});
  EXPECT_EQ(chosen(registry(), "auto", *host), "host");
  EXPECT_EQ(chosen(registry(), "auto", *ptx), "gpu");
  EXPECT_EQ(chosen(registry(), "auto", *both), "gpu");
}

TEST(DeviceRegistry, AutoFallsBackOnlyToADeviceThatRunsTheCode) {
  auto both = executableWith({tcx::CodeKind::Host, tcx::CodeKind::Cubin});
  auto cubin = executableWith({tcx::CodeKind::Cubin});
  EXPECT_EQ(chosen(registry({"gpu"}), "auto", *both), "host");
  EXPECT_EQ(chosen(registry({"gpu"}), "auto", *cubin), "error: no gpu here");
  EXPECT_EQ(chosen(registry({"gpu", "host"}), "auto", *both),
            "error: no host here");
}

TEST(DeviceRegistry, AutoAsksTheHostsDeviceWhenNoneRunsTheCode) {
  auto none = executableWith({});
  EXPECT_EQ(chosen(registry(), "auto", *none), "host");
  EXPECT_EQ(chosen(registry({"host"}), "auto", *none), "error: no host here");
}

} // namespace
