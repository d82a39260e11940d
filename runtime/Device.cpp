//===- Device.cpp - choosing a device --------------------------------------===//

#include "runtime/Device.h"
#include "runtime/CpuDevice.h"

namespace tc::rt {

std::unique_ptr<Device> createDevice(const std::string &kind,
                                     const Executable &executable,
                                     std::string &error) {
  if (kind != "auto" && kind != "cpu") {
    error = "unknown device '" + kind + "'; expected auto or cpu (this build "
            "has no GPU device yet)";
    return nullptr;
  }
  return CpuDevice::create(executable, error);
}

int64_t bindingBytes(const tcx::Function &function, const std::string &name,
                     bool output) {
  auto bindings = output ? function.outputs() : function.inputs();
  if (bindings)
    for (const tcx::Binding *b : *bindings)
      if (b->name()->str() == name) {
        int64_t bytes = elementBytes(b->buffer()->dtype());
        for (int64_t extent : *b->buffer()->shape())
          bytes *= extent;
        return bytes;
      }
  return 0;
}

} // namespace tc::rt
